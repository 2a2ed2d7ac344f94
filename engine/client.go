package engine

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	sdklog "go.temporal.io/sdk/log"
)

// ClientOptions say where the Temporal cluster is.
type ClientOptions struct {
	Address   string
	Namespace string
	// TLS is set for clusters that require it (TEMPORAL_TLS_* settings).
	TLS *tls.Config
	// MetricsHandler receives the SDK's metrics (SDKMetrics); nil drops them.
	MetricsHandler client.MetricsHandler
	// TracerProvider, when set, makes workflow starts, runs and activities spans of its
	// traces (TracingInterceptor), on the client and on the workers built on it; nil traces
	// nothing and installs no interceptor.
	TracerProvider trace.TracerProvider
}

// Dial connects to Temporal, waiting up to a minute for the cluster to answer (an
// embedded server answers within a second; a cluster may still be starting).
func Dial(ctx context.Context, opts ClientOptions) (client.Client, error) {
	var interceptors []interceptor.ClientInterceptor
	if opts.TracerProvider != nil {
		tracing, err := TracingInterceptor(opts.TracerProvider)
		if err != nil {
			return nil, fmt.Errorf("Temporal tracing: %w", err)
		}
		interceptors = append(interceptors, tracing)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var lastErr error
	for {
		c, err := client.DialContext(ctx, client.Options{
			HostPort:          opts.Address,
			Namespace:         opts.Namespace,
			Logger:            sdklog.NewStructuredLogger(slog.Default().With("component", "temporal-sdk")),
			ConnectionOptions: client.ConnectionOptions{TLS: opts.TLS},
			MetricsHandler:    opts.MetricsHandler,
			Interceptors:      interceptors,
		})
		if err == nil {
			return c, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connect to Temporal at %s: %w", opts.Address, lastErr)
		case <-time.After(500 * time.Millisecond):
		}
	}
}
