package api_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
)

// snippetSample is the trigger's sample payload: a quote and non-ASCII text, which each
// language must carry into the body unchanged.
var snippetSample = map[string]any{"order_id": "S-1", "note": "it's «ready»", "customer": map[string]any{"email": "ada@example.com"}}

// curlAssign matches a shell variable the curl snippet sets.
var curlAssign = regexp.MustCompile(`(?m)^([A-Z_]+)=(.*)$`)

// runCurlInGo carries out a curl snippet the way bash would, in Go: it reads BODY, computes
// the variables the snippet computes (for hmac_standard the same Standard Webhooks
// signature, with Go's crypto instead of openssl), and sends the request the curl line
// describes through the router.
func runCurlInGo(t *testing.T, j *journey, code, secret string) *response {
	t.Helper()
	vars := map[string]string{"WEBHOOK_SECRET": secret}
	for _, m := range curlAssign.FindAllStringSubmatch(code, -1) {
		name, value := m[1], m[2]
		switch name {
		case "BODY":
			unquoted, ok := strings.CutPrefix(value, "'")
			if !ok || !strings.HasSuffix(unquoted, "'") {
				t.Fatalf("BODY is not single-quoted: %s", value)
			}
			vars[name] = strings.ReplaceAll(strings.TrimSuffix(unquoted, "'"), `'\''`, "'")
		case "MSG_ID":
			vars[name] = "msg_in_go"
		case "TIMESTAMP":
			vars[name] = strconv.FormatInt(j.now.Unix(), 10)
		case "DELIVERY_ID":
			vars[name] = "delivery-in-go"
		case "KEY_HEX":
			// The signature below uses the key itself.
		case "SIGNATURE":
			sig := signature(t, secret, vars["MSG_ID"], j.now.Unix(), vars["BODY"])
			vars[name] = strings.TrimPrefix(sig, "v1,")
		default:
			t.Fatalf("the curl snippet sets an unknown variable %s", name)
		}
	}
	expand := func(s string) string {
		return os.Expand(s, func(name string) string {
			if name == "WEBHOOK_SECRET#whsec_" {
				return strings.TrimPrefix(secret, "whsec_")
			}
			return vars[name]
		})
	}
	_, curl, ok := strings.Cut(code, " -X POST ")
	if !ok {
		t.Fatalf("no curl command in %s", code)
	}
	headers := map[string]string{}
	for _, line := range strings.Split(curl, "\n") {
		line = strings.TrimSuffix(strings.TrimSpace(line), " \\")
		switch {
		case strings.HasPrefix(line, "-H "):
			h := strings.Trim(strings.TrimPrefix(line, "-H "), `"'`)
			name, value, _ := strings.Cut(expand(h), ": ")
			headers[name] = value
		case strings.HasPrefix(line, "-u "):
			userPass := expand(strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(line, "-u "), `'`, ""), `"`, ""))
			headers["Authorization"] = "Basic " + base64.StdEncoding.EncodeToString([]byte(userPass))
		}
	}
	url := strings.Trim(strings.Fields(curl)[0], "'")
	return j.post(strings.TrimPrefix(url, "http://api.test"), vars["BODY"], headers)
}

// runSnippet executes a snippet with its own toolchain against a live server and answers
// its output; it skips when the machine lacks the tools.
func runSnippet(t *testing.T, language, code, secret string) string {
	t.Helper()
	dir := t.TempDir()
	var cmd *exec.Cmd
	need := map[string][]string{"curl": {"bash", "curl", "openssl", "od"}, "javascript": {"node"}, "python": {"python3"}, "go": {"go"}}
	for _, tool := range need[language] {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s snippet not executed: %s is not installed", language, tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	file := map[string]string{"curl": "send.sh", "javascript": "send.js", "python": "send.py", "go": "main.go"}[language]
	if err := os.WriteFile(filepath.Join(dir, file), []byte(code), 0o600); err != nil {
		t.Fatal(err)
	}
	switch language {
	case "curl":
		cmd = exec.CommandContext(ctx, "bash", file)
	case "javascript":
		cmd = exec.CommandContext(ctx, "node", file)
	case "python":
		if exec.Command("python3", "-c", "import requests").Run() != nil {
			t.Skip("python snippet not executed: the requests package is not installed")
		}
		cmd = exec.CommandContext(ctx, "python3", file)
	case "go":
		cmd = exec.CommandContext(ctx, "go", "run", file)
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOFLAGS=")
	}
	cmd.Dir = dir
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "WEBHOOK_SECRET="+secret)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the %s snippet failed: %v\n%s\n--- snippet:\n%s", language, err, out, code)
	}
	return string(out)
}

// TestWebhookSnippets checks the sender examples of each auth type: they hold no secret,
// send the trigger's sample, and are accepted, both carried out in Go as the curl snippet
// describes and executed for real with their own toolchains where the machine has them
// (on SQLite; the snippets do not depend on the database).
func TestWebhookSnippets(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		// The snippets sign with the real clock, so the service's clock is the real one.
		e.now = time.Now().UTC()
		u := e.signUp("Ada")
		j := &journey{env: e, u: u, projectID: e.projectIn(u, e.companyOf(u, "Northwind"), "Shop"), target: startTarget(t)}
		srv := httptest.NewServer(j.handler)
		t.Cleanup(srv.Close)
		wantBody, _ := json.Marshal(snippetSample)

		for _, auth := range []string{"hmac_standard", "shared_secret", "basic", "none"} {
			t.Run(auth, func(t *testing.T) {
				t.Parallel() // each its own endpoint; the snippets' interpreters take seconds
				jt := j.sub(t)
				key := "snip_" + auth
				hook := jt.endpoint(jt.hookWorkflow(key, map[string]any{"auth_type": auth, "sample_payload_json": snippetSample}),
					map[string]any{"endpoint_key": key, "basic_username": "shop"})
				sn := jt.do(req{method: "GET", path: "/api/v1/webhook-endpoints/" + hook.endpointID + "/snippets", token: j.u.token}).expect(t, http.StatusOK)
				if sn.str("url") != "http://api.test"+hook.path || sn.str("auth_type") != auth || sn.str("secret_env") != "WEBHOOK_SECRET" || sn.str("body") != string(wantBody) {
					t.Fatalf("snippets answered %s", sn.Body)
				}
				codes := map[string]string{}
				for _, raw := range sn.json["snippets"].([]any) {
					s := raw.(map[string]any)
					code := s["code"].(string)
					if strings.Contains(code, strings.TrimPrefix(hook.secret, "whsec_")) || !strings.Contains(code, "http://api.test"+hook.path) {
						t.Fatalf("the %s snippet holds the secret or lacks the url:\n%s", s["language"], code)
					}
					codes[s["language"].(string)] = code
				}
				if len(codes) != 4 || codes["curl"] == "" || codes["javascript"] == "" || codes["python"] == "" || codes["go"] == "" {
					t.Fatalf("snippets %v", codes)
				}

				accepted := runCurlInGo(t, jt, codes["curl"], hook.secret).expect(t, http.StatusAccepted)
				jt.receipt(receiptPath(accepted))
				ev := jt.do(req{method: "GET", path: "/api/v1/webhook-events/" + accepted.str("webhook_event_id"), token: j.u.token}).expect(t, http.StatusOK)
				if ev.str("body") != string(wantBody) {
					t.Fatalf("the curl snippet sent %q, want %q", ev.str("body"), wantBody)
				}

				sent := 1
				// The snippets are the same text on either database; their toolchains, which
				// take seconds each, run them on one.
				executed := []string{"curl", "javascript", "python", "go"}
				if db.Dialect != models.SQLite {
					executed = nil
				}
				for _, language := range executed {
					t.Run(language+" executed", func(t *testing.T) {
						live := strings.ReplaceAll(codes[language], "http://api.test", srv.URL)
						out := runSnippet(t, language, live, hook.secret)
						if !strings.Contains(out, "202") || !strings.Contains(out, `"workflow_run_id"`) {
							t.Fatalf("the %s snippet got %s", language, out)
						}
						sent++
					})
				}
				events := jt.hookEvents(hook.endpointID)
				if len(events) != sent {
					t.Fatalf("%d events after %d deliveries", len(events), sent)
				}
				for _, ev := range events {
					full := jt.do(req{method: "GET", path: "/api/v1/webhook-events/" + ev["webhook_event_id"].(string), token: j.u.token}).expect(t, http.StatusOK)
					var got map[string]any
					if err := json.Unmarshal([]byte(full.str("body")), &got); err != nil || got["note"] != snippetSample["note"] {
						t.Fatalf("a snippet sent %q", full.str("body"))
					}
				}
			})
		}
	})
}
