package devserver

import (
	"io"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uber-go/tally/v4"
	tallyprom "github.com/uber-go/tally/v4/prometheus"
	sdktally "go.temporal.io/sdk/contrib/tally"
	"go.temporal.io/server/common/metrics"
)

// serverMetrics is the embedded server's metrics handler over reg: the series a Temporal
// server exports with its default Prometheus reporter (service_requests,
// service_latency, persistence_requests, task_schedule_to_start_latency, ...; those of the
// SDK clients of its own system workers among them), under the same names, so that
// Temporal's dashboards read them. Timers are histograms in seconds; histograms of counts,
// bytes and milliseconds get Temporal's default buckets. Closing the closer reports what
// is left and stops the reporting loop.
func serverMetrics(reg *prometheus.Registry) (metrics.Handler, io.Closer) {
	reporter := tallyprom.NewReporter(tallyprom.Options{
		Registerer:       reg,
		Gatherer:         reg,
		DefaultTimerType: tallyprom.HistogramTimerType,
		OnRegisterError: func(err error) {
			slog.Warn("an embedded Temporal server metric could not be registered", "err", err)
		},
	})
	scope, closer := tally.NewRootScope(tally.ScopeOptions{
		CachedReporter:         reporter,
		Separator:              tallyprom.DefaultSeparator,
		SanitizeOptions:        &sdktally.PrometheusSanitizeOptions,
		OmitCardinalityMetrics: true,
	}, time.Second)
	bounds := map[string][]float64{
		string(metrics.Dimensionless): oneTwoFive(1, 100_000),
		string(metrics.Milliseconds):  oneTwoFive(1, 1_000_000),
		string(metrics.Bytes):         tally.MustMakeExponentialValueBuckets(1024, 2, 15).AsValues(),
	}
	return metrics.NewTallyMetricsHandler(metrics.ClientConfig{PerUnitHistogramBoundaries: bounds}, scope), closer
}

// oneTwoFive are the bounds 1, 2, 5, 10, 20, 50, ... from first up to last.
func oneTwoFive(first, last float64) []float64 {
	var out []float64
	for decade := first; decade <= last; decade *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if b := decade * m; b <= last {
				out = append(out, b)
			}
		}
	}
	return out
}
