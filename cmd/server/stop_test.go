package main

import (
	"bufio"
	"bytes"
	"os"
	"regexp"
	"syscall"
	"testing"
	"time"
)

// warningOrError matches a log line of level warn or error, in our JSON log (WARN) or the
// embedded Temporal server's (warn).
var warningOrError = regexp.MustCompile(`(?i)"level":"(warn|error|dpanic|panic|fatal)"`)

// TestACleanStopLogsNothingAlarming: Ctrl-C on a server that has run a workflow stops it
// with exit code 0, and nothing it logs from the signal on is a warning or an error.
func TestACleanStopLogsNothingAlarming(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server binary")
	}
	t.Parallel()
	env := newChildEnv(t)
	server := env.start(t)
	client, project := signUp(t, "http://"+env.addr)
	runID := client.publishAndRun(t, project, []map[string]any{manualTrigger("start"), stop("done")})
	client.waitFor(t, runID, 30*time.Second, "the run to succeed", func(run map[string]any, _ map[string]map[string]any) bool {
		return run["status"] == "succeeded"
	})

	before, err := os.ReadFile(server.log)
	if err != nil {
		t.Fatal(err)
	}
	if err := server.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-server.exited:
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not stop within a minute of Ctrl-C")
	}
	if server.err != nil {
		t.Errorf("the server exited with %v", server.err)
	}
	after, err := os.ReadFile(server.log)
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(bytes.NewReader(after[len(before):]))
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		if warningOrError.Match(lines.Bytes()) {
			t.Errorf("logged while stopping: %s", lines.Text())
		}
	}
}
