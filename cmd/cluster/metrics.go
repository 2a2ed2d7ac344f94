package main

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// metricsTarget is one process's /metrics in the format of Prometheus's file-based service
// discovery (file_sd_configs): its address, and labels that say which process it is.
type metricsTarget struct {
	Targets []string          `json:"targets"`
	Labels  map[string]string `json:"labels"`
}

// addMetricsTarget records where a process serves its metrics: component is agencyhub or
// temporal, process its name (api-1, worker-2, history, ...).
func (c *cluster) addMetricsTarget(addr, component, process string) {
	c.metrics = append(c.metrics, metricsTarget{Targets: []string{addr}, Labels: map[string]string{"component": component, "process": process}})
}

func (c *cluster) metricsTargetsFile() string {
	return filepath.Join(c.opts.dataDir, "metrics-targets.json")
}

// writeMetricsTargets writes the metrics addresses of every process the cluster started,
// Temporal's services and ours, into the data dir, for a Prometheus to scrape: its
// file_sd_configs may name the file as it is, and reads it again when a new start rewrites
// it with new ports.
func (c *cluster) writeMetricsTargets() error {
	b, err := json.MarshalIndent(c.metrics, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(c.metricsTargetsFile(), append(b, '\n'), 0o600)
}
