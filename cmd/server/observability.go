package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"agencyhub/models/outbox"
	"agencyhub/platform/metrics"
)

// tracing tells whether the service traces: OTEL_EXPORTER_OTLP_ENDPOINT names a collector,
// or the embedding program gave Main a SpanExporter.
func (m *Main) tracing() bool { return m.Config.OTLPEndpoint != "" || m.SpanExporter != nil }

// startTracing exports spans to the OpenTelemetry collector at OTEL_EXPORTER_OTLP_ENDPOINT
// over OTLP/HTTP (protobuf), or to m.SpanExporter, batched. The exporter reads its other
// standard variables (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _CERTIFICATE, ...) from the
// environment, and the provider the sampler (OTEL_TRACES_SAMPLER); the service is named
// agencyhub unless OTEL_SERVICE_NAME names it. Nothing is set globally but OTel's error
// handler, which logs as the service does.
func (m *Main) startTracing(ctx context.Context) error {
	exporter := m.SpanExporter
	if exporter == nil {
		otlp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(strings.TrimRight(m.Config.OTLPEndpoint, "/")+"/v1/traces"))
		if err != nil {
			return fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT: %w", err)
		}
		exporter = otlp
	}
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", "agencyhub")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return fmt.Errorf("tracing resource: %w", err)
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { slog.Warn("opentelemetry", "err", err) }))
	m.tracer = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	return nil
}

// traceIDs adds the trace and span ids of the span in a record's context to every record
// logged with one (slog.InfoContext and the like; the request log line is), so that a log
// line leads to its trace. Installed only when tracing is on.
type traceIDs struct{ slog.Handler }

func (h traceIDs) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return h.Handler.Handle(ctx, r)
}

func (h traceIDs) WithAttrs(attrs []slog.Attr) slog.Handler {
	return traceIDs{h.Handler.WithAttrs(attrs)}
}

func (h traceIDs) WithGroup(name string) slog.Handler { return traceIDs{h.Handler.WithGroup(name)} }

// serveMetrics serves /metrics on APP_METRICS_ADDR, a listener of its own: the metrics are
// for the operator's scraper, never on the public API port. The outbox backlog is counted
// at each scrape. When Temporal is embedded (no TEMPORAL_ADDRESS), the server's own metrics
// are served beside them, at /metrics/temporal-server: a registry of their own, since the
// server's system workers report SDK series under the names our worker's have.
func (m *Main) serveMetrics() error {
	m.metrics.WatchOutbox(func(ctx context.Context) (int64, error) { return outbox.Backlog(ctx, m.db) })
	ln, err := net.Listen("tcp", m.Config.MetricsAddr)
	if err != nil {
		return fmt.Errorf("APP_METRICS_ADDR: %w", err)
	}
	m.metricsLn = ln
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.metrics.Handler())
	if m.Config.TemporalAddress == "" {
		m.serverMetrics = prometheus.NewRegistry()
		mux.Handle("GET /metrics/temporal-server", metrics.GathererHandler(m.serverMetrics))
	}
	m.metricsHTTP = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := m.metricsHTTP.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("metrics server stopped", "err", err)
		}
	}()
	slog.Info("serving metrics", "addr", ln.Addr().String())
	return nil
}

// MetricsAddr is the address /metrics listens on; empty when APP_METRICS_ADDR is not set.
func (m *Main) MetricsAddr() string {
	if m.metricsLn == nil {
		return ""
	}
	return m.metricsLn.Addr().String()
}

// newMetrics is the service's metrics when APP_METRICS_ADDR is set, and Discard when not,
// so that nothing is recorded that nobody can read.
func (m *Main) newMetrics() *metrics.Metrics {
	if m.Config.MetricsAddr == "" {
		return metrics.Discard()
	}
	return metrics.New()
}
