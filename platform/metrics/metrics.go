package metrics

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Label values the recorders write.
const (
	// RouteUnmatched is the route of a request no route template matched (an unknown path,
	// or a method the path does not accept): one series for all, so that scanners probing
	// random paths cannot grow the number of series.
	RouteUnmatched = "unmatched"
	// MethodOther stands for every request method outside the standard ones.
	MethodOther = "other"

	ResultAccepted  = "accepted"
	ResultRefused   = "refused"
	ResultSucceeded = "succeeded"
	ResultFailed    = "failed"

	// ReasonStarted and ReasonReplayed are the reasons of accepted webhook deliveries: a
	// new delivery whose run started, or a repeated delivery id answered as the first one.
	ReasonStarted  = "started"
	ReasonReplayed = "replayed"
)

// requestBuckets are the latency buckets of HTTP requests, in seconds: most answers take
// milliseconds; receipt waits and event streams hold a request open up to tens of seconds.
var requestBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

// scrapeTimeout bounds a query run at scrape time (the outbox backlog).
const scrapeTimeout = 5 * time.Second

// Metrics are the service's series on one registry. The zero value is not usable: make one
// with New, or Discard for one that records nothing.
type Metrics struct {
	registry     *prometheus.Registry
	requests     *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	runsStarted  *prometheus.CounterVec
	runsFinished *prometheus.CounterVec
	attempts     *prometheus.CounterVec
	deliveries   *prometheus.CounterVec

	// series caches the request series by method, route and status, so that recording a
	// request allocates nothing and hashes no label values once its series exists. The map
	// is replaced, never changed, so readers need no lock; writers add under mu.
	series atomic.Pointer[map[requestKey]requestSeries]
	mu     sync.Mutex
}

type requestKey struct {
	method, route string
	status        int
}

type requestSeries struct {
	count   prometheus.Counter
	latency prometheus.Observer
}

// New makes the service's series on a registry of their own, with the Go runtime's and the
// process's standard collectors beside them.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	factory := func(opts prometheus.CounterOpts, labels ...string) *prometheus.CounterVec {
		v := prometheus.NewCounterVec(opts, labels)
		reg.MustRegister(v)
		return v
	}
	m := &Metrics{
		registry: reg,
		requests: factory(prometheus.CounterOpts{Name: "http_requests_total",
			Help: "HTTP requests answered, by method, route template and status code."}, "method", "route", "status"),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "http_request_duration_seconds",
			Help:    "Time from a request's arrival to its answer, by method, route template and status code.",
			Buckets: requestBuckets}, []string{"method", "route", "status"}),
		runsStarted: factory(prometheus.CounterOpts{Name: "workflow_runs_started_total",
			Help: "Runs handed to the workflow engine, by trigger type; a run re-opened by retry-action starts again."}, "trigger"),
		runsFinished: factory(prometheus.CounterOpts{Name: "workflow_runs_finished_total",
			Help: "Runs that reached a terminal status, by trigger type and status."}, "trigger", "status"),
		attempts: factory(prometheus.CounterOpts{Name: "workflow_action_attempts_total",
			Help: "Attempts of activity actions, by action type, result and the failure's retry class."}, "action_type", "result", "retry_class"),
		deliveries: factory(prometheus.CounterOpts{Name: "webhook_deliveries_total",
			Help: "Requests to public webhook addresses, accepted or refused, by reason."}, "result", "reason"),
	}
	reg.MustRegister(m.latency)
	m.series.Store(&map[requestKey]requestSeries{})
	return m
}

// Discard is a Metrics that records nothing and serves nothing: the explicit choice of
// services built without Main's metrics, and of a Main whose APP_METRICS_ADDR is empty.
func Discard() *Metrics { return &Metrics{} }

// Recording tells whether m keeps what it is given (false for Discard).
func (m *Metrics) Recording() bool { return m.registry != nil }

// Registry is where every series lives, for collectors Main adds (the Temporal SDK's
// reporter); nil for Discard.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// Handler serves the series in the Prometheus text format. A collector that fails (the
// outbox query) is left out of that scrape and logged; the others are still served.
func (m *Metrics) Handler() http.Handler {
	if m.registry == nil {
		return http.NotFoundHandler()
	}
	return GathererHandler(m.registry)
}

// GathererHandler serves the series of g in the Prometheus text format, as Handler serves
// the service's own: for the registries of others beside them (the embedded Temporal
// server's).
func GathererHandler(g prometheus.Gatherer) http.Handler {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      promLogger{},
	})
}

// ObserveRequest records one answered request. route is the route template (empty when no
// route matched); the method is reduced to the standard ones, so neither can grow the
// number of series past what the router serves.
func (m *Metrics) ObserveRequest(method, route string, status int, elapsed time.Duration) {
	if m.registry == nil {
		return
	}
	key := requestKey{method: standardMethod(method), route: route, status: status}
	if key.route == "" {
		key.route = RouteUnmatched
	}
	s, ok := (*m.series.Load())[key]
	if !ok {
		s = m.addSeries(key)
	}
	s.count.Inc()
	s.latency.Observe(elapsed.Seconds())
}

// addSeries makes the series of a request key seen for the first time and publishes a new
// map that holds it.
func (m *Metrics) addSeries(key requestKey) requestSeries {
	m.mu.Lock()
	defer m.mu.Unlock()
	old := *m.series.Load()
	if s, ok := old[key]; ok {
		return s
	}
	status := strconv.Itoa(key.status)
	s := requestSeries{
		count:   m.requests.WithLabelValues(key.method, key.route, status),
		latency: m.latency.WithLabelValues(key.method, key.route, status),
	}
	next := make(map[requestKey]requestSeries, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	next[key] = s
	m.series.Store(&next)
	return s
}

// standardMethod returns method when it is one of HTTP's standard methods, else MethodOther.
// The returned strings are constants, so a request's own method string is not kept.
func standardMethod(method string) string {
	switch method {
	case http.MethodGet:
		return http.MethodGet
	case http.MethodPost:
		return http.MethodPost
	case http.MethodPut:
		return http.MethodPut
	case http.MethodPatch:
		return http.MethodPatch
	case http.MethodDelete:
		return http.MethodDelete
	case http.MethodHead:
		return http.MethodHead
	case http.MethodOptions:
		return http.MethodOptions
	case http.MethodConnect:
		return http.MethodConnect
	case http.MethodTrace:
		return http.MethodTrace
	}
	return MethodOther
}

// RunStarted records a run handed to the engine; trigger is its trigger type.
func (m *Metrics) RunStarted(trigger string) {
	if m.registry != nil {
		m.runsStarted.WithLabelValues(trigger).Inc()
	}
}

// RunFinished records a run that reached a terminal status.
func (m *Metrics) RunFinished(trigger, status string) {
	if m.registry != nil {
		m.runsFinished.WithLabelValues(trigger, status).Inc()
	}
}

// ActionAttempt records one attempt of an activity action that ran: retryClass is empty
// when it succeeded, else the class of its failure.
func (m *Metrics) ActionAttempt(actionType, retryClass string) {
	if m.registry == nil {
		return
	}
	result := ResultSucceeded
	if retryClass != "" {
		result = ResultFailed
	}
	m.attempts.WithLabelValues(actionType, result, retryClass).Inc()
}

// WebhookAccepted records a delivery answered 202: its run started, or it repeats a
// delivery id whose first answer it gets again (replayed).
func (m *Metrics) WebhookAccepted(replayed bool) {
	if m.registry == nil {
		return
	}
	reason := ReasonStarted
	if replayed {
		reason = ReasonReplayed
	}
	m.deliveries.WithLabelValues(ResultAccepted, reason).Inc()
}

// WebhookRefused records a delivery that started no run; reason is the message key of the
// error it was answered with (webhook_signature_invalid, webhook_not_found, ...), one of a
// fixed set the code defines.
func (m *Metrics) WebhookRefused(reason string) {
	if m.registry != nil {
		m.deliveries.WithLabelValues(ResultRefused, reason).Inc()
	}
}

// WatchOutbox adds the mail outbox's backlog, counted by backlog at every scrape.
func (m *Metrics) WatchOutbox(backlog func(context.Context) (int64, error)) {
	if m.registry == nil {
		return
	}
	m.registry.MustRegister(&countAtScrape{
		desc: prometheus.NewDesc(
			"mail_outbox_backlog",
			"Mail messages waiting in the outbox to be delivered (pending, not given up).",
			nil,
			nil,
		),
		count: backlog,
	})
}

// WatchSockets adds the site chat sockets open on this instance, by side (visitor or
// operator), read from the hub at every scrape.
func (m *Metrics) WatchSockets(open func() (visitors, operators int)) {
	if m.registry == nil {
		return
	}
	const help = "Site chat sockets open on this instance."
	for side, count := range map[string]func() int{
		"visitor":  func() int { v, _ := open(); return v },
		"operator": func() int { _, o := open(); return o },
	} {
		m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "site_chat_sockets_open",
			Help:        help,
			ConstLabels: prometheus.Labels{"side": side},
		}, func() float64 { return float64(count()) }))
	}
}

// countAtScrape is a gauge whose value is counted (by a database query) when it is
// scraped, so it costs nothing between scrapes and is never stale.
type countAtScrape struct {
	desc  *prometheus.Desc
	count func(context.Context) (int64, error)
}

func (c *countAtScrape) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *countAtScrape) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	n, err := c.count(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n))
}

// promLogger logs what the metrics handler could not collect.
type promLogger struct{}

func (promLogger) Println(v ...any) {
	slog.Warn("metrics scrape left a collector out", "err", fmt.Sprint(v...))
}
