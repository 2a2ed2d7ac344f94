package engine

import (
	"io"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uber-go/tally/v4"
	tallyprom "github.com/uber-go/tally/v4/prometheus"
	"go.temporal.io/sdk/client"
	sdktally "go.temporal.io/sdk/contrib/tally"
)

// sdkReportInterval is how often the SDK's counters and timers reach the registry.
const sdkReportInterval = time.Second

// SDKMetrics reports the Temporal SDK's own metrics (temporal_request_total,
// temporal_workflow_completed_total, temporal_activity_execution_latency_seconds, ...) into
// reg, beside the service's, through tally's Prometheus reporter: the SDK's documented way
// to Prometheus, and one the pinned SDK supports without an upgrade. Timers become
// histograms, which add up across instances. Closing the returned closer reports what is
// left and stops the reporting loop.
func SDKMetrics(reg *prometheus.Registry) (client.MetricsHandler, io.Closer) {
	reporter := tallyprom.NewReporter(tallyprom.Options{
		Registerer:       reg,
		Gatherer:         reg,
		DefaultTimerType: tallyprom.HistogramTimerType,
		OnRegisterError: func(err error) {
			slog.Warn("a Temporal SDK metric could not be registered", "err", err)
		},
	})
	scope, closer := tally.NewRootScope(tally.ScopeOptions{
		CachedReporter:  reporter,
		Separator:       tallyprom.DefaultSeparator,
		SanitizeOptions: &sdktally.PrometheusSanitizeOptions,
		// tally's own bookkeeping (tally_internal_*) says nothing about the service.
		OmitCardinalityMetrics: true,
	}, sdkReportInterval)
	return sdktally.NewMetricsHandler(sdktally.NewPrometheusNamingScope(scope)), closer
}
