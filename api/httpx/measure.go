package httpx

import (
	"time"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/contrib/instrumentation/github.com/gin-gonic/gin/otelgin"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"agencyhub/platform/metrics"
)

// Measure counts every request and observes its latency, by method, route template and
// status, into m. It runs first, so the time covers every other middleware too.
func Measure(m *metrics.Metrics) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		m.ObserveRequest(c.Request.Method, c.FullPath(), c.Writer.Status(), time.Since(start))
	}
}

// Trace opens a server span for every request on tp, continuing the caller's trace when
// a W3C traceparent header names one, and puts the span in the request's context, where
// Log (and every log line written with that context) finds its trace id. It must run
// before Log: the span's context is the request's only until Trace returns.
func Trace(tp trace.TracerProvider) gin.HandlerFunc {
	return otelgin.Middleware("agencyhub",
		otelgin.WithTracerProvider(tp),
		otelgin.WithPropagators(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})),
		// The request metrics are Prometheus's (Measure); otelgin's own would go nowhere.
		otelgin.WithMeterProvider(noop.NewMeterProvider()),
	)
}
