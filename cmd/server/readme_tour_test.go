package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReadmeTour runs the README's tour, as written, against a fresh server on the embedded
// defaults, and checks what it promises: the run succeeded down the condition's true
// branch, and the Temporal Web UI answers the link it prints.
func TestReadmeTour(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq", "openssl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the README tour needs %s, which this machine lacks", tool)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	script := tourScript(t, string(readme))
	// A fixed port rather than 0: the receipt_url the tour follows is built on the address.
	ports := freePorts(t, 2)
	addr, uiPort := "127.0.0.1:"+strconv.Itoa(ports[0]), strconv.Itoa(ports[1])
	env := map[string]string{"APP_DATA_DIR": t.TempDir(), "TEMPORAL_PORT": "0", "TEMPORAL_UI_PORT": uiPort}
	m := &Main{}
	if err := m.ParseFlags([]string{"-addr", addr}, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Env = append(os.Environ(), "BASE=http://"+m.Addr(), "UI=http://127.0.0.1:"+uiPort)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the tour failed: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	printed := strings.TrimSpace(string(out))
	cut := strings.LastIndex(printed, "\n")
	var receipt struct {
		Status  string `json:"status"`
		Actions []struct {
			ActionKey string `json:"action_key"`
			Status    string `json:"status"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(printed[:cut]), &receipt); err != nil {
		t.Fatalf("the tour printed no receipt: %v\n%s", err, printed)
	}
	statuses := map[string]string{}
	for _, a := range receipt.Actions {
		statuses[a.ActionKey] = a.Status
	}
	if receipt.Status != "succeeded" || statuses["big"] != "succeeded" || statuses["vip"] != "succeeded" || statuses["usual"] != "skipped" {
		t.Fatalf("the receipt is not the one the README promises:\n%s", printed)
	}
	link := printed[cut+1:]
	if !strings.Contains(link, "/namespaces/agencyhub/workflows") {
		t.Fatalf("the last line is no Web UI link: %q", link)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(link)
	if err != nil {
		t.Fatalf("the Web UI link: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the Web UI answered %d to %s", resp.StatusCode, link)
	}
}

// tourScript is the sh block between the README's tour markers.
func tourScript(t *testing.T, readme string) string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "<!-- tour:begin -->")
	section, _, ok2 := strings.Cut(rest, "<!-- tour:end -->")
	_, code, ok3 := strings.Cut(section, "```sh\n")
	code, _, ok4 := strings.Cut(code, "```")
	if !ok || !ok2 || !ok3 || !ok4 {
		t.Fatal("README.md has no sh block between <!-- tour:begin --> and <!-- tour:end -->")
	}
	return code
}
