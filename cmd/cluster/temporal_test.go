package main

import (
	"encoding/json"
	"os"
	"testing"

	"go.temporal.io/server/common/config"
)

// TestEachTemporalServiceServesItsMetricsOnItsOwnAddress writes the services' configuration
// and reads it back with Temporal's own loader, as temporal-server --config-file does: each
// service has the Prometheus reporter on an address of its own (four processes cannot share
// one), and the targets file lists them all.
func TestEachTemporalServiceServesItsMetricsOnItsOwnAddress(t *testing.T) {
	c := &cluster{opts: options{dataDir: t.TempDir(), postgres: "127.0.0.1:5432", user: "postgres", name: "cluster_test"}}
	if err := c.writeTemporalConfig(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, service := range temporalServices {
		conf, err := config.Load(config.WithConfigFile(c.temporalConfigFile(service)))
		if err != nil {
			t.Fatalf("Temporal does not load %s's configuration: %v", service, err)
		}
		prom := conf.Global.Metrics.Prometheus
		if prom == nil || prom.ListenAddress == "" || prom.Framework != "tally" {
			t.Fatalf("%s: metrics %+v, want the tally Prometheus reporter on an address", service, conf.Global.Metrics)
		}
		if other, ok := seen[prom.ListenAddress]; ok {
			t.Fatalf("%s and %s both serve metrics on %s", service, other, prom.ListenAddress)
		}
		seen[prom.ListenAddress] = service
		if conf.Services[service].RPC.GRPCPort == 0 || conf.PublicClient.HostPort != c.temporalAddr {
			t.Errorf("%s: the rest of the configuration is lost: %+v", service, conf.Services[service])
		}
	}

	if err := c.writeMetricsTargets(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(c.metricsTargetsFile())
	if err != nil {
		t.Fatal(err)
	}
	var targets []metricsTarget
	if err := json.Unmarshal(b, &targets); err != nil {
		t.Fatalf("the targets file is not file_sd JSON: %v\n%s", err, b)
	}
	for _, tg := range targets {
		if service := seen[tg.Targets[0]]; service != tg.Labels["process"] || tg.Labels["component"] != "temporal" {
			t.Errorf("target %+v, want %s of Temporal", tg, service)
		}
	}
	if len(targets) != len(temporalServices) {
		t.Errorf("%d targets, want one per service", len(targets))
	}
}
