// Package metricstest reads Prometheus series in tests, from a registry or from a /metrics
// address as Prometheus would scrape it, beside the metrics package it checks.
package metricstest

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// Families are metric families by name.
type Families map[string]*dto.MetricFamily

// Gather collects a registry's series.
func Gather(t testing.TB, g prometheus.Gatherer) Families {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatalf("gather metrics: %v", err)
	}
	out := Families{}
	for _, mf := range mfs {
		out[mf.GetName()] = mf
	}
	return out
}

// Scrape reads url as Prometheus does and parses its text format.
func Scrape(t testing.TB, url string) Families {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("scrape %s: status %d: %s", url, resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("scrape %s: Content-Type %q, want the text format", url, ct)
	}
	var parser expfmt.TextParser
	mfs, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	return mfs
}

// Value is the value of the series of a counter or gauge whose labels are exactly the given
// name, value pairs; for a histogram, its count of observations. ok is false when no such
// series exists.
func (f Families) Value(name string, labels ...string) (v float64, ok bool) {
	for _, m := range f.series(name, labels, true) {
		return value(m), true
	}
	return 0, false
}

// Total adds up the series of name whose labels include the given name, value pairs.
func (f Families) Total(name string, labels ...string) float64 {
	total := 0.0
	for _, m := range f.series(name, labels, false) {
		total += value(m)
	}
	return total
}

// Series are the label sets of name's series, each as "k=v,k=v", for failure messages.
func (f Families) Series(name string) []string {
	var out []string
	for _, m := range f.series(name, nil, false) {
		var pairs []string
		for _, l := range m.GetLabel() {
			pairs = append(pairs, l.GetName()+"="+l.GetValue())
		}
		out = append(out, strings.Join(pairs, ","))
	}
	return out
}

func (f Families) series(name string, labels []string, exact bool) []*dto.Metric {
	mf, ok := f[name]
	if !ok {
		return nil
	}
	want := map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		want[labels[i]] = labels[i+1]
	}
	var out []*dto.Metric
	for _, m := range mf.GetMetric() {
		matched := 0
		for _, l := range m.GetLabel() {
			if v, ok := want[l.GetName()]; ok && v == l.GetValue() {
				matched++
			} else if ok || (exact && l.GetValue() != "") {
				matched = -1
				break
			}
		}
		if matched == len(want) {
			out = append(out, m)
		}
	}
	return out
}

func value(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	case m.Untyped != nil:
		return m.Untyped.GetValue()
	}
	return 0
}
