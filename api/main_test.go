package api_test

import (
	"flag"
	"io"
	"log/slog"
	"os"
	"testing"
)

// TestMain keeps the request log out of test output unless -v asks for it, and stops the
// embedded Temporal server and the chromium the tests share.
func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	code := m.Run()
	stopSharedBrowser()
	stopSharedTemporal()
	os.Exit(code)
}
