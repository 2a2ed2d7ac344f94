package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"agencyhub/activities/mailer/smtptest"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/integration/integrationtest"
)

// The workflow journeys: what a new user does with workflows, only through the HTTP API,
// on the embedded Temporal server, with local stand-ins for everything the actions reach:
// an HTTP endpoint, a bot API speaking messenger_a's protocol and an SMTP server.

// customers are what the local target answers at GET /customers/{id}.
var customers = map[string]map[string]any{
	"1": {"vip": true, "name": "Ada Lovelace"},
	"2": {"vip": false, "name": "Grace Hopper"},
}

// target is the local HTTP endpoint of http.request actions: GET /customers/{id} answers a
// customer, any other path a small JSON receipt (201 to a POST). It counts the requests to
// each path and answers a failure status on the paths a test breaks.
type target struct {
	*httptest.Server

	mu     sync.Mutex
	hits   map[string]int
	bodies map[string][]string
	broken map[string]int
}

func startTarget(t *testing.T) *target {
	t.Helper()
	tg := &target{hits: map[string]int{}, bodies: map[string][]string{}, broken: map[string]int{}}
	tg.Server = httptest.NewServer(http.HandlerFunc(tg.serve))
	t.Cleanup(tg.Close)
	return tg
}

func (tg *target) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	tg.mu.Lock()
	tg.hits[r.URL.Path]++
	tg.bodies[r.URL.Path] = append(tg.bodies[r.URL.Path], string(body))
	status := tg.broken[r.URL.Path]
	tg.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	answer := func(status int, v any) {
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	if status != 0 {
		answer(status, map[string]any{"error": http.StatusText(status)})
		return
	}
	if r.URL.Path == "/echo" { // a debugging endpoint: it repeats the credentials it got
		answer(http.StatusOK, map[string]any{"authorization": r.Header.Get("Authorization")})
		return
	}
	if id, ok := strings.CutPrefix(r.URL.Path, "/customers/"); ok {
		if c, found := customers[id]; found {
			answer(http.StatusOK, c)
			return
		}
		answer(http.StatusNotFound, map[string]any{"error": "no such customer"})
		return
	}
	status = http.StatusOK
	if r.Method == http.MethodPost {
		status = http.StatusCreated
	}
	answer(status, map[string]any{"received": r.URL.Path})
}

// breakPath makes the target answer status on path; 0 heals it.
func (tg *target) breakPath(path string, status int) {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	tg.broken[path] = status
}

// hitsOf is how many requests reached path.
func (tg *target) hitsOf(path string) int {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	return tg.hits[path]
}

// bodiesOf are the request bodies path received, in order.
func (tg *target) bodiesOf(path string) []string {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	return slices.Clone(tg.bodies[path])
}

// journey is a signed-in user with a company and a project, and the local target.
type journey struct {
	*env
	u         user
	projectID string
	target    *target
}

func newJourney(t *testing.T, db *dbtest.DB) *journey {
	t.Helper()
	e := newEnv(t, db)
	u := e.signUp("Ada")
	companyID := e.companyOf(u, "Northwind")
	return &journey{env: e, u: u, projectID: e.projectIn(u, companyID, "Shop"), target: startTarget(t)}
}

// act is an action of a draft.
func act(key, typeKey string, config map[string]any) map[string]any {
	return map[string]any{"action_key": key, "label": key, "action_type_key": typeKey, "config": config}
}

// edge is a connection of a draft; branch is "" except after condition.branch.
func edge(from, to, branch string) map[string]any {
	return map[string]any{"from": from, "to": to, "branch": branch}
}

// draft is a draft request body.
func draft(actions []any, connections ...any) map[string]any {
	return map[string]any{"actions": actions, "connections": connections}
}

// create creates a workflow with the draft given, which must be valid, and answers its id.
func (j *journey) create(name string, body map[string]any) string {
	j.t.Helper()
	id := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
		body: map[string]any{"name": name}}).expect(j.t, http.StatusCreated).str("workflow_id")
	saved := j.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: j.u.token, body: body}).expect(j.t, http.StatusOK)
	if ds, _ := saved.json["diagnostics"].([]any); len(ds) != 0 {
		j.t.Fatalf("the draft of %s has problems: %v", name, ds)
	}
	return id
}

// putDraft replaces a workflow's draft.
func (j *journey) putDraft(workflowID string, body map[string]any) *response {
	j.t.Helper()
	return j.do(req{method: "PUT", path: "/api/v1/workflows/" + workflowID + "/draft", token: j.u.token, body: body}).expect(j.t, http.StatusOK)
}

// publish publishes the draft as version number and answers the version's id.
func (j *journey) publish(workflowID string, number int) string {
	j.t.Helper()
	v := j.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/publish", token: j.u.token,
		body: map[string]any{"description": fmt.Sprintf("Version %d", number)}}).expect(j.t, http.StatusCreated)
	if v.json["version_number"] != float64(number) || v.json["is_current"] != true || v.str("workflow_id") != workflowID {
		j.t.Fatalf("publish answered %s, want version %d", v.Body, number)
	}
	return v.str("workflow_version_id")
}

// runManual starts a run of the current version with input and answers the new run.
func (j *journey) runManual(workflowID string, input map[string]any) *response {
	j.t.Helper()
	r := j.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: j.u.token,
		body: map[string]any{"input": input}}).expect(j.t, http.StatusAccepted)
	if r.str("trigger_type") != "manual" || r.json["terminal"] != false || !reflect.DeepEqual(r.json["input_json"], input) {
		j.t.Fatalf("manual run answered %s", r.Body)
	}
	return r
}

// finish waits for a run to end and fails unless it ended with status.
func (j *journey) finish(runID, status string) *response {
	j.t.Helper()
	r := j.waitRun(j.u, runID)
	if r.str("status") != status {
		j.t.Fatalf("run %s ended %s, want %s: %s\nevents: %v", runID, r.str("status"), status, r.Body, trail(j.events(runID)))
	}
	return r
}

// waitStatus waits until a run has status, failing if it ends first.
func (j *journey) waitStatus(runID, status string) *response {
	j.t.Helper()
	r := j.awaitRun(j.u, runID, 10*time.Second, status, func(r *response) bool { return r.str("status") == status || r.json["terminal"] == true })
	if r.str("status") != status {
		j.t.Fatalf("run %s ended %s while waiting for %s: %s", runID, r.str("status"), status, r.Body)
	}
	return r
}

// actions are GET /runs/{id}/actions by action key; keys lists them in the order answered.
func (j *journey) actions(runID string) (byKey map[string]map[string]any, keys []string) {
	j.t.Helper()
	byKey = map[string]map[string]any{}
	for _, a := range j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: j.u.token}).expect(j.t, http.StatusOK).items() {
		key, _ := a["action_key"].(string)
		byKey[key] = a
		keys = append(keys, key)
	}
	return byKey, keys
}

// graphStatuses are the action statuses GET /runs/{id}/graph shows, as key=status in graph order.
func (j *journey) graphStatuses(runID string) []string {
	j.t.Helper()
	g := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/graph", token: j.u.token}).expect(j.t, http.StatusOK)
	raw, _ := g.json["actions"].([]any)
	out := make([]string, len(raw))
	for i, a := range raw {
		m, _ := a.(map[string]any)
		out[i] = fmt.Sprintf("%v=%v", m["action_key"], m["status"])
	}
	return out
}

// events are all of a run's events, GET /runs/{id}/events page by page.
func (j *journey) events(runID string) []map[string]any {
	j.t.Helper()
	var out []map[string]any
	cursor := ""
	for {
		page := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/events?limit=100&cursor=" + cursor, token: j.u.token}).expect(j.t, http.StatusOK)
		out = append(out, page.items()...)
		if cursor = page.str("next_cursor"); cursor == "" {
			return out
		}
	}
}

// trail spells events as "sequence event_type action_key".
func trail(events []map[string]any) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = strings.TrimSpace(fmt.Sprintf("%v %v %v", e["sequence"], e["event_type"], e["action_key"]))
	}
	return out
}

// sseMessage is one Server-Sent Events message.
type sseMessage struct {
	id, event, data string
}

// stream reads a run's event stream over a real connection, from after lastEventID when
// given, until the stream's end event, and answers every message including the end.
func (j *journey) stream(srv *httptest.Server, runID, lastEventID string) []sseMessage {
	j.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1/runs/"+runID+"/events/stream", nil)
	if err != nil {
		j.t.Fatal(err)
	}
	hr.Header.Set("Authorization", "Bearer "+j.u.token)
	hr.Header.Set("Accept", "text/event-stream")
	if lastEventID != "" {
		hr.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := srv.Client().Do(hr)
	if err != nil {
		j.t.Fatalf("open the stream: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") ||
		resp.Header.Get("X-App-Result") != "ok" || resp.Header.Get("X-Request-Id") == "" {
		j.t.Fatalf("the stream answered %d with headers %v", resp.StatusCode, resp.Header)
	}
	var (
		out []sseMessage
		cur sseMessage
	)
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		line := lines.Text()
		switch {
		case line == "":
			if cur == (sseMessage{}) {
				continue
			}
			out = append(out, cur)
			if cur.event == "end" {
				return out
			}
			cur = sseMessage{}
		case strings.HasPrefix(line, ":"): // a comment, such as keep-alive
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "id":
				cur.id = value
			case "event":
				cur.event = value
			case "data":
				cur.data += value
			default:
				j.t.Fatalf("the stream sent an unknown field: %q", line)
			}
		}
	}
	j.t.Fatalf("the stream closed without an end event (%v) after %v", lines.Err(), out)
	return nil
}

// sameAsEvents fails unless the stream messages are exactly events, each with id =
// sequence, event = event_type and data = the event as GET /events shows it, followed by
// the end event with the run's status.
func (j *journey) sameAsEvents(messages []sseMessage, events []map[string]any, status string) {
	j.t.Helper()
	if len(messages) != len(events)+1 {
		j.t.Fatalf("the stream sent %d messages for %d events: %v", len(messages), len(events), messages)
	}
	for i, e := range events {
		m := messages[i]
		var data map[string]any
		if err := json.Unmarshal([]byte(m.data), &data); err != nil {
			j.t.Fatalf("message %d data is not JSON: %q", i, m.data)
		}
		if m.id != fmt.Sprint(e["sequence"]) || m.event != e["event_type"] || !reflect.DeepEqual(data, e) {
			j.t.Fatalf("stream message %d = %+v, want event %v", i, m, e)
		}
	}
	end := messages[len(messages)-1]
	var data map[string]any
	if err := json.Unmarshal([]byte(end.data), &data); err != nil || end.event != "end" || end.id != "" || data["status"] != status {
		j.t.Fatalf("the stream ended with %+v, want end with status %s", end, status)
	}
}

// sequences fails unless events are numbered 1, 2, 3... without gaps.
func sequences(t *testing.T, events []map[string]any) {
	t.Helper()
	for i, e := range events {
		if e["sequence"] != float64(i+1) {
			t.Fatalf("event %d has sequence %v: %v", i, e["sequence"], trail(events))
		}
	}
}

const journeyBotToken = "777000:AAF-journey_bot_token"

// TestWorkflowJourney builds, publishes and runs a workflow that fetches a customer, then
// messages a chat about VIPs and mails the others, and inspects its runs as a user does.
func TestWorkflowJourney(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		bot := integrationtest.StartMessengerA(t, journeyBotToken, "northwind_bot")
		smtp := smtptest.Start(t, smtptest.RequireAuth("mailer@northwind.test", "mail-password"))
		deps := "/api/v1/projects/" + j.projectID + "/action-dependencies"

		botID := j.do(req{method: "POST", path: deps, token: j.u.token, body: map[string]any{
			"dependency_type_key": "messenger_a.bot", "name": "Sales bot",
			"metadata": map[string]any{"api_base_url": bot.URL}, "auth": map[string]any{"bot_token": journeyBotToken},
		}}).expect(t, http.StatusCreated).str("action_dependency_id")
		mailID := j.do(req{method: "POST", path: deps, token: j.u.token, body: map[string]any{
			"dependency_type_key": "smtp.server", "name": "Mail",
			"metadata": map[string]any{"host": smtp.Host, "port": smtp.Port, "from": "noreply@northwind.test"},
			"auth":     map[string]any{"username": "mailer@northwind.test", "password": "mail-password"},
		}}).expect(t, http.StatusCreated).str("action_dependency_id")
		for _, id := range []string{botID, mailID} {
			if r := j.do(req{method: "POST", path: deps + "/" + id + "/test", token: j.u.token}).expect(t, http.StatusOK); r.str("status") != "ok" {
				t.Fatalf("the integration test answered %s", r.Body)
			}
		}

		wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
			body: map[string]any{"name": "VIP order follow-up"}}).expect(t, http.StatusCreated).str("workflow_id")
		saved := j.putDraft(wfID, draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("fetch", "http.request", map[string]any{"method": "GET", "url": j.target.URL + "/customers/{{ start.customer_id }}"}),
			act("is_vip", "condition.branch", map[string]any{"text": "steps.fetch.json.vip == true"}),
			act("notify", "messenger_a.send_message", map[string]any{"action_dependency_id": botID, "chat_id": "-100200300",
				"text": "{{ steps.fetch.json.name }} is a VIP: order for {{ start.customer }}"}),
			act("mail", "email.send", map[string]any{"smtp_action_dependency_id": mailID,
				"to":      []any{"sales@northwind.test", "{{ start.email }}"},
				"subject": "Order from {{ steps.fetch.json.name }}", "body": "{{ start.customer }} ordered; not a VIP."}),
		}, edge("start", "fetch", ""), edge("fetch", "is_vip", ""), edge("is_vip", "notify", "true"), edge("is_vip", "mail", "false")))
		if ds, _ := saved.json["diagnostics"].([]any); len(ds) != 0 || saved.str("status") != "draft" || saved.json["current_version_id"] != nil {
			t.Fatalf("the saved draft answered %s", saved.Body)
		}
		valid := j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/validate", token: j.u.token}).expect(t, http.StatusOK)
		if valid.json["valid"] != true || len(valid.json["diagnostics"].([]any)) != 0 {
			t.Fatalf("validate answered %s", valid.Body)
		}
		v1 := j.publish(wfID, 1)
		wf := j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: j.u.token}).expect(t, http.StatusOK)
		if wf.str("status") != "published" || wf.json["current_version_id"] != v1 {
			t.Fatalf("the published workflow is %s", wf.Body)
		}

		// A VIP: the true edge messages the chat, the mail is skipped. The stream is read
		// while the run goes on, and ends when it has finished.
		srv := httptest.NewServer(j.handler)
		t.Cleanup(srv.Close)
		input := map[string]any{"customer": "Ada", "customer_id": "1", "email": "ada@example.com"}
		started := j.runManual(wfID, input)
		runID := started.str("workflow_run_id")
		if started.json["workflow_version_id"] != v1 || started.json["is_test"] != false || started.str("trigger_action_key") != "start" ||
			started.json["replay_of_run_id"] != nil {
			t.Fatalf("the run started as %s", started.Body)
		}
		live := j.stream(srv, runID, "")
		run := j.finish(runID, "succeeded")
		if run.str("terminal_reason") != "all actions finished" || run.str("error") != "" || run.json["started_at"] == nil || run.json["finished_at"] == nil {
			t.Fatalf("the finished run is %s", run.Body)
		}

		if got, want := j.graphStatuses(runID), []string{"start=succeeded", "fetch=succeeded", "is_vip=succeeded", "notify=succeeded", "mail=skipped"}; !slices.Equal(got, want) {
			t.Fatalf("graph statuses %v, want %v", got, want)
		}

		actions, keys := j.actions(runID)
		if !slices.Equal(keys, []string{"start", "fetch", "is_vip", "notify", "mail"}) {
			t.Fatalf("actions in order %v", keys)
		}
		if start := actions["start"]; !reflect.DeepEqual(start["output_json"], input) || start["status"] != "succeeded" {
			t.Fatalf("start = %v", start)
		}
		fetch := actions["fetch"]
		out, _ := fetch["output_json"].(map[string]any)
		provider, _ := fetch["provider_response_json"].(map[string]any)
		in, _ := fetch["input_json"].(map[string]any)
		if fetch["attempt_count"] != 1.0 || fetch["max_attempts"] != 3.0 || fetch["error"] != nil || fetch["retry_class"] != nil ||
			out["status_code"] != 200.0 || !reflect.DeepEqual(out["json"], map[string]any{"vip": true, "name": "Ada Lovelace"}) ||
			provider["status_code"] != 200.0 || in["url"] != j.target.URL+"/customers/1" {
			t.Fatalf("fetch = %v", fetch)
		}
		if cond := actions["is_vip"]; !reflect.DeepEqual(cond["output_json"], map[string]any{"result": true}) {
			t.Fatalf("is_vip = %v", cond)
		}
		notify := actions["notify"]
		out, _ = notify["output_json"].(map[string]any)
		provider, _ = notify["provider_response_json"].(map[string]any)
		answer, _ := provider["body"].(map[string]any)
		in, _ = notify["input_json"].(map[string]any)
		const vipText = "Ada Lovelace is a VIP: order for Ada"
		if notify["status"] != "succeeded" || notify["attempt_count"] != 1.0 || notify["max_attempts"] != 3.0 ||
			out["message_id"] != 101.0 || answer["ok"] != true || in["text"] != vipText {
			t.Fatalf("notify = %v", notify)
		}
		if mail := actions["mail"]; mail["status"] != "skipped" || mail["attempt_count"] != 0.0 {
			t.Fatalf("mail = %v", mail)
		}
		if sent := bot.Sent(); len(sent) != 1 || sent[0]["chat_id"] != "-100200300" || sent[0]["text"] != vipText {
			t.Fatalf("the bot API received %v, want one message %q", sent, vipText)
		}
		if msgs := smtp.Messages(); len(msgs) != 0 {
			t.Fatalf("the SMTP server received %d messages on the VIP path", len(msgs))
		}

		events := j.events(runID)
		want := []string{"1 run.started start", "2 action.succeeded start", "3 action.started fetch", "4 action.succeeded fetch",
			"5 action.succeeded is_vip", "6 action.started notify", "7 action.skipped mail", "8 action.succeeded notify", "9 run.succeeded"}
		if got := trail(events); !slices.Equal(got, want) {
			t.Fatalf("events %v\nwant %v", got, want)
		}
		j.sameAsEvents(live, events, "succeeded")
		page := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/events?limit=4", token: j.u.token}).expect(t, http.StatusOK)
		if len(page.items()) != 4 || page.str("next_cursor") != "4" {
			t.Fatalf("the first page of 4 events is %s", page.Body)
		}
		rest := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/events?cursor=4", token: j.u.token}).expect(t, http.StatusOK).items()
		if !reflect.DeepEqual(rest, events[4:]) {
			t.Fatalf("events after cursor 4: %v", trail(rest))
		}
		// Reconnecting with Last-Event-ID resumes after that event.
		j.sameAsEvents(j.stream(srv, runID, "5"), events[5:], "succeeded")

		// Not a VIP: the false edge mails sales and the customer, the message is skipped.
		second := j.runManual(wfID, map[string]any{"customer": "Grace", "customer_id": "2", "email": "grace@example.com"}).str("workflow_run_id")
		j.finish(second, "succeeded")
		if got, want := j.graphStatuses(second), []string{"start=succeeded", "fetch=succeeded", "is_vip=succeeded", "notify=skipped", "mail=succeeded"}; !slices.Equal(got, want) {
			t.Fatalf("graph statuses %v, want %v", got, want)
		}
		actions, _ = j.actions(second)
		if mail := actions["mail"]; mail["attempt_count"] != 1.0 || mail["error"] != nil {
			t.Fatalf("mail = %v", mail)
		}
		if len(bot.Sent()) != 1 {
			t.Fatalf("the bot API received %d messages, want still 1", len(bot.Sent()))
		}
		msgs := smtp.Messages()
		if len(msgs) != 1 {
			t.Fatalf("the SMTP server received %d messages, want 1", len(msgs))
		}
		rcpt := slices.Sorted(slices.Values(msgs[0].To))
		if msgs[0].From != "noreply@northwind.test" || !slices.Equal(rcpt, []string{"grace@example.com", "sales@northwind.test"}) {
			t.Fatalf("envelope from %s to %v", msgs[0].From, msgs[0].To)
		}
		m, err := netmail.ReadMessage(bytes.NewReader(msgs[0].Data))
		if err != nil {
			t.Fatalf("the received mail does not parse: %v\n%s", err, msgs[0].Data)
		}
		body, _ := io.ReadAll(m.Body)
		to := m.Header.Get("To")
		if m.Header.Get("Subject") != "Order from Grace Hopper" || !strings.Contains(to, "sales@northwind.test") || !strings.Contains(to, "grace@example.com") ||
			!strings.Contains(string(body), "Grace ordered; not a VIP.") {
			t.Fatalf("the received mail is\n%s", msgs[0].Data)
		}
	})
}

// TestWorkflowJourneyCancel cancels a run while it waits on a delay: the delay it
// interrupted and the action it never let start are cancelled, not failed or skipped.
func TestWorkflowJourneyCancel(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.create("Follow up tomorrow", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("wait", "delay.wait", map[string]any{"seconds": 3600}),
			act("call", "http.request", map[string]any{"url": j.target.URL + "/follow-up"}),
		}, edge("start", "wait", ""), edge("wait", "call", "")))
		j.publish(wfID, 1)
		runID := j.runManual(wfID, map[string]any{"customer": "Ada"}).str("workflow_run_id")
		waiting := j.waitStatus(runID, "waiting")
		if waiting.json["terminal"] != false || waiting.json["finished_at"] != nil {
			t.Fatalf("the waiting run is %s", waiting.Body)
		}
		actions, _ := j.actions(runID)
		if w := actions["wait"]; w["status"] != "waiting" || w["started_at"] == nil {
			t.Fatalf("wait = %v", w)
		}

		cancelled := j.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/cancel", token: j.u.token}).expect(t, http.StatusAccepted)
		if cancelled.str("workflow_run_id") != runID {
			t.Fatalf("cancel answered %s", cancelled.Body)
		}
		run := j.finish(runID, "cancelled")
		if run.str("terminal_reason") != "the run was cancelled" || run.json["finished_at"] == nil {
			t.Fatalf("the cancelled run is %s", run.Body)
		}
		if got, want := j.graphStatuses(runID), []string{"start=succeeded", "wait=cancelled", "call=cancelled"}; !slices.Equal(got, want) {
			t.Fatalf("graph statuses %v, want %v", got, want)
		}
		actions, _ = j.actions(runID)
		if w := actions["wait"]; w["status"] != "cancelled" || w["retry_class"] != "canceled" || w["error"] == nil || w["finished_at"] == nil {
			t.Fatalf("wait = %v", w)
		}
		if c := actions["call"]; c["status"] != "cancelled" || c["attempt_count"] != 0.0 {
			t.Fatalf("call = %v", c)
		}
		events := j.events(runID)
		sequences(t, events)
		if last := events[len(events)-1]; last["event_type"] != "run.cancelled" {
			t.Fatalf("events %v end without run.cancelled", trail(events))
		}
		if n := j.target.hitsOf("/follow-up"); n != 0 {
			t.Fatalf("the target was called %d times after the cancellation", n)
		}
		j.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/cancel", token: j.u.token}).expect(t, http.StatusConflict, "workflow_run_id")
		j.do(req{method: "POST", path: "/api/v1/runs/" + runID + "/retry-action", token: j.u.token, body: map[string]any{"action_key": "wait"}}).
			expect(t, http.StatusConflict, "workflow_run_id")
	})
}

// TestARunNeverShowsTheCredentialItsActionsUsed: a target that echoes the Authorization it
// got puts the integration's token in the action's answer; the run's actions show it
// redacted, in the output and in the provider's response.
func TestARunNeverShowsTheCredentialItsActionsUsed(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		const token = "sk_live_0123456789abcdef"
		dep := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/action-dependencies", token: j.u.token, body: map[string]any{
			"dependency_type_key": "http.auth", "name": "Payments API", "auth": map[string]any{"scheme": "bearer", "token": token},
		}}).expect(t, http.StatusCreated).str("action_dependency_id")
		wfID := j.create("Echo", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("call", "http.request", map[string]any{"url": j.target.URL + "/echo", "auth_dependency_id": dep}),
		}, edge("start", "call", "")))
		j.publish(wfID, 1)
		runID := j.runManual(wfID, map[string]any{}).str("workflow_run_id")
		j.finish(runID, "succeeded")
		shown := j.do(req{method: "GET", path: "/api/v1/runs/" + runID + "/actions", token: j.u.token}).expect(t, http.StatusOK)
		if body := shown.Body.String(); strings.Contains(body, token) || !strings.Contains(body, "Bearer [redacted]") {
			t.Fatalf("the run's actions show %s", body)
		}
	})
}

// TestWorkflowJourneyRetryAction retries the failed action of a failed run once its target
// has recovered: the run continues from there and nothing that succeeded runs again. The run
// keeps the time it started; the retried action counts its attempts afresh, retry 1.
func TestWorkflowJourneyRetryAction(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.create("Place the order", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("lookup", "http.request", map[string]any{"url": j.target.URL + "/customers/{{ start.customer_id }}"}),
			act("submit", "http.request", map[string]any{"method": "POST", "url": j.target.URL + "/orders",
				"body": map[string]any{"customer": "{{ steps.lookup.json.name }}", "sku": "{{ start.sku }}"}}),
			act("confirm", "http.request", map[string]any{"url": j.target.URL + "/confirmations"}),
		}, edge("start", "lookup", ""), edge("lookup", "submit", ""), edge("submit", "confirm", "")))
		j.publish(wfID, 1)

		j.target.breakPath("/orders", http.StatusInternalServerError)
		runID := j.runManual(wfID, map[string]any{"customer_id": "1", "sku": "A-7"}).str("workflow_run_id")
		failed := j.finish(runID, "failed")
		if !strings.Contains(failed.str("error"), "submit") {
			t.Fatalf("the failed run is %s", failed.Body)
		}
		actions, _ := j.actions(runID)
		submit := actions["submit"]
		provider, _ := submit["provider_response_json"].(map[string]any)
		diag, _ := submit["diagnostics"].(map[string]any)
		// A POST answered 500 may have taken effect, so it is not retried on its own.
		if submit["status"] != "failed" || submit["attempt_count"] != 1.0 || submit["retry_class"] != "unknown_outcome" ||
			provider["status_code"] != 500.0 || diag["reason_code"] != "http_500" || submit["error"] == nil {
			t.Fatalf("submit = %v", submit)
		}
		if c := actions["confirm"]; c["status"] != "skipped" {
			t.Fatalf("confirm = %v", c)
		}
		if n := j.target.hitsOf("/orders"); n != 1 {
			t.Fatalf("/orders was called %d times, want 1", n)
		}
		failedEvents := j.events(runID)
		started := failed.str("started_at")

		retry := "/api/v1/runs/" + runID + "/retry-action"
		j.do(req{method: "POST", path: retry, token: j.u.token, body: map[string]any{"action_key": "lookup"}}).expect(t, http.StatusConflict, "action_key")
		j.do(req{method: "POST", path: retry, token: j.u.token, body: map[string]any{"action_key": "nope"}}).expect(t, http.StatusBadRequest, "action_key")

		j.target.breakPath("/orders", 0)
		reopened := j.do(req{method: "POST", path: retry, token: j.u.token, body: map[string]any{"action_key": "submit"}}).expect(t, http.StatusAccepted)
		if reopened.str("workflow_run_id") != runID || reopened.json["terminal"] != false || reopened.str("error") != "" {
			t.Fatalf("retry-action answered %s", reopened.Body)
		}
		run := j.finish(runID, "succeeded")
		if run.str("error") != "" || run.str("terminal_reason") != "all actions finished" || started == "" || run.str("started_at") != started {
			t.Fatalf("the retried run is %s; it started at %s", run.Body, started)
		}
		if got, want := j.graphStatuses(runID), []string{"start=succeeded", "lookup=succeeded", "submit=succeeded", "confirm=succeeded"}; !slices.Equal(got, want) {
			t.Fatalf("graph statuses %v, want %v", got, want)
		}
		actions, _ = j.actions(runID)
		submit = actions["submit"]
		out, _ := submit["output_json"].(map[string]any)
		if submit["attempt_count"] != 1.0 || submit["max_attempts"] != 3.0 || submit["retry_count"] != 1.0 ||
			submit["error"] != nil || submit["retry_class"] != nil || out["status_code"] != 201.0 {
			t.Fatalf("the retried submit = %v", submit)
		}
		if diag, _ := submit["diagnostics"].(map[string]any); len(diag) != 0 {
			t.Fatalf("the retried submit still shows the failure's diagnostics %v", diag)
		}
		if lookup := actions["lookup"]; lookup["attempt_count"] != 1.0 || lookup["retry_count"] != 0.0 {
			t.Fatalf("lookup = %v", lookup)
		}
		hits := map[string]int{"lookup": j.target.hitsOf("/customers/1"), "submit": j.target.hitsOf("/orders"), "confirm": j.target.hitsOf("/confirmations")}
		if !reflect.DeepEqual(hits, map[string]int{"lookup": 1, "submit": 2, "confirm": 1}) {
			t.Fatalf("target hits %v", hits)
		}
		// The retried request carries what the first execution's lookup answered.
		if bodies := j.target.bodiesOf("/orders"); len(bodies) != 2 || bodies[1] != `{"customer":"Ada Lovelace","sku":"A-7"}` {
			t.Fatalf("/orders received %q", bodies)
		}

		events := j.events(runID)
		sequences(t, events)
		if !reflect.DeepEqual(events[:len(failedEvents)], failedEvents) {
			t.Fatalf("the retry changed earlier events: %v", trail(events))
		}
		got := trail(events[len(failedEvents)-1:])
		n := len(failedEvents)
		want := []string{fmt.Sprintf("%d run.failed", n), fmt.Sprintf("%d run.resumed submit", n+1)}
		if !slices.Equal(got[:2], want) || got[len(got)-1] != fmt.Sprintf("%d run.succeeded", len(events)) {
			t.Fatalf("events after the failure %v", got)
		}

		j.do(req{method: "POST", path: retry, token: j.u.token, body: map[string]any{"action_key": "submit"}}).expect(t, http.StatusConflict, "workflow_run_id")
	})
}

// TestWorkflowJourneyReplay replays a finished run: a new run of the same version and
// input, even after a newer version was published.
func TestWorkflowJourneyReplay(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		graph := func(path string) map[string]any {
			return draft([]any{
				act("start", "manual.trigger", map[string]any{}),
				act("ping", "http.request", map[string]any{"method": "POST", "url": j.target.URL + path, "body": "{{ start.note }}"}),
			}, edge("start", "ping", ""))
		}
		wfID := j.create("Ping", graph("/v1"))
		v1 := j.publish(wfID, 1)
		input := map[string]any{"note": "hello"}
		original := j.runManual(wfID, input).str("workflow_run_id")
		j.finish(original, "succeeded")
		j.putDraft(wfID, graph("/v2"))
		j.publish(wfID, 2)

		replay := j.do(req{method: "POST", path: "/api/v1/runs/" + original + "/replay", token: j.u.token}).expect(t, http.StatusAccepted)
		replayID := replay.str("workflow_run_id")
		if replayID == original || replay.json["replay_of_run_id"] != original || replay.json["workflow_version_id"] != v1 ||
			replay.str("trigger_type") != "replay" || replay.str("trigger_action_key") != "start" || replay.json["is_test"] != false ||
			!reflect.DeepEqual(replay.json["input_json"], input) {
			t.Fatalf("replay answered %s", replay.Body)
		}
		j.finish(replayID, "succeeded")
		if got := j.target.bodiesOf("/v1"); !slices.Equal(got, []string{"hello", "hello"}) || j.target.hitsOf("/v2") != 0 {
			t.Fatalf("/v1 received %q, /v2 %d requests", got, j.target.hitsOf("/v2"))
		}
		events := j.events(replayID)
		sequences(t, events)
		if got := trail(events); got[0] != "1 run.started start" || got[len(got)-1] != fmt.Sprintf("%d run.succeeded", len(got)) {
			t.Fatalf("the replay's events %v", got)
		}
		runs := j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID + "/runs", token: j.u.token}).expect(t, http.StatusOK).items()
		if len(runs) != 2 {
			t.Fatalf("the workflow has %d runs, want 2", len(runs))
		}
	})
}

// TestWorkflowJourneyRestore restores an older version: it becomes the draft and the
// version new runs use, while earlier runs keep theirs.
func TestWorkflowJourneyRestore(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.create("Ping", draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("ping", "http.request", map[string]any{"url": j.target.URL + "/v1"}),
		}, edge("start", "ping", "")))
		v1 := j.publish(wfID, 1)
		onV1 := j.runManual(wfID, map[string]any{}).str("workflow_run_id")
		j.finish(onV1, "succeeded")

		j.putDraft(wfID, draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("ping", "http.request", map[string]any{"url": j.target.URL + "/v2"}),
			act("done", "stop", map[string]any{}),
		}, edge("start", "ping", ""), edge("ping", "done", "")))
		v2 := j.publish(wfID, 2)
		onV2 := j.runManual(wfID, map[string]any{}).str("workflow_run_id")
		j.finish(onV2, "succeeded")
		if got := j.graphStatuses(onV2); !slices.Equal(got, []string{"start=succeeded", "ping=succeeded", "done=succeeded"}) {
			t.Fatalf("the v2 run's graph %v", got)
		}

		restored := j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/versions/" + v1 + "/restore", token: j.u.token}).expect(t, http.StatusOK)
		version := j.do(req{method: "GET", path: "/api/v1/workflow-versions/" + v1, token: j.u.token}).expect(t, http.StatusOK)
		d, _ := restored.json["draft"].(map[string]any)
		if restored.json["current_version_id"] != v1 || restored.str("status") != "published" ||
			!reflect.DeepEqual(d["actions"], version.json["actions"]) || !reflect.DeepEqual(d["connections"], version.json["connections"]) ||
			d["change_description"] != "Restored version 1" {
			t.Fatalf("restore answered %s\nversion 1 is %s", restored.Body, version.Body)
		}
		if version.json["is_current"] != true {
			t.Fatalf("version 1 after the restore: %s", version.Body)
		}
		got := j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: j.u.token}).expect(t, http.StatusOK)
		if !reflect.DeepEqual(got.json["draft"].(map[string]any)["actions"], version.json["actions"]) || got.json["current_version_id"] != v1 {
			t.Fatalf("the workflow after the restore is %s", got.Body)
		}
		versions := j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID + "/versions", token: j.u.token}).expect(t, http.StatusOK).items()
		if len(versions) != 2 || versions[0]["workflow_version_id"] != v1 || versions[0]["is_current"] != true || versions[1]["is_current"] != false {
			t.Fatalf("versions after the restore: %v", versions)
		}

		now := j.runManual(wfID, map[string]any{}).str("workflow_run_id")
		if r := j.finish(now, "succeeded"); r.json["workflow_version_id"] != v1 {
			t.Fatalf("a run after the restore uses %v, want version 1 %s", r.json["workflow_version_id"], v1)
		}
		if got := j.graphStatuses(now); !slices.Equal(got, []string{"start=succeeded", "ping=succeeded"}) {
			t.Fatalf("the run after the restore has graph %v", got)
		}
		if j.target.hitsOf("/v1") != 2 || j.target.hitsOf("/v2") != 1 {
			t.Fatalf("target hits: /v1 %d, /v2 %d", j.target.hitsOf("/v1"), j.target.hitsOf("/v2"))
		}
		for run, version := range map[string]string{onV1: v1, onV2: v2} {
			r := j.do(req{method: "GET", path: "/api/v1/runs/" + run, token: j.u.token}).expect(t, http.StatusOK)
			if r.json["workflow_version_id"] != version {
				t.Fatalf("run %s now has version %v, want %s", run, r.json["workflow_version_id"], version)
			}
		}
	})
}

// TestWorkflowJourneyTestRuns runs the draft as a test, and refuses a draft with problems.
func TestWorkflowJourneyTestRuns(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		body := func(url, condition string) map[string]any {
			fetch := map[string]any{}
			if url != "" {
				fetch["url"] = url
			}
			d := draft([]any{
				act("start", "manual.trigger", map[string]any{}),
				act("fetch", "http.request", fetch),
				act("is_vip", "condition.branch", map[string]any{"text": condition}),
				act("vip", "stop", map[string]any{}),
				act("regular", "stop", map[string]any{}),
			}, edge("start", "fetch", ""), edge("fetch", "is_vip", ""), edge("is_vip", "vip", "true"), edge("is_vip", "regular", "false"))
			d["test_input_json"] = map[string]any{"customer_id": "1"}
			return d
		}
		wfID := j.create("Sort customers", body(j.target.URL+"/customers/{{ start.customer_id }}", "steps.fetch.json.vip == true"))
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/runs/manual", token: j.u.token}).expect(t, http.StatusBadRequest, "workflow_id")
		testRuns := "/api/v1/workflows/" + wfID + "/test-runs"

		for _, tc := range []struct {
			name  string
			body  any
			input map[string]any
			graph []string
		}{
			{"without input, the draft's test input", nil, map[string]any{"customer_id": "1"},
				[]string{"start=succeeded", "fetch=succeeded", "is_vip=succeeded", "vip=succeeded", "regular=skipped"}},
			{"with input, that input", map[string]any{"input": map[string]any{"customer_id": "2"}}, map[string]any{"customer_id": "2"},
				[]string{"start=succeeded", "fetch=succeeded", "is_vip=succeeded", "vip=skipped", "regular=succeeded"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := j.asSubtest(t)
				r := e.do(req{method: "POST", path: testRuns, token: j.u.token, body: tc.body}).expect(t, http.StatusAccepted)
				if r.json["is_test"] != true || r.json["workflow_version_id"] != nil || r.str("trigger_type") != "test" ||
					r.str("trigger_action_key") != "start" || !reflect.DeepEqual(r.json["input_json"], tc.input) {
					t.Fatalf("test-runs answered %s", r.Body)
				}
				runID := r.str("workflow_run_id")
				if done := e.waitRun(j.u, runID); done.str("status") != "succeeded" || done.json["is_test"] != true || done.json["workflow_version_id"] != nil {
					t.Fatalf("the test run ended as %s", done.Body)
				}
				jt := &journey{env: e, u: j.u, projectID: j.projectID, target: j.target}
				if got := jt.graphStatuses(runID); !slices.Equal(got, tc.graph) {
					t.Fatalf("graph statuses %v, want %v", got, tc.graph)
				}
			})
		}

		runs := func() int {
			return len(j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID + "/runs", token: j.u.token}).expect(t, http.StatusOK).items())
		}
		before, hits := runs(), j.target.hitsOf("/customers/1")+j.target.hitsOf("/customers/2")
		saved := j.putDraft(wfID, body("", "steps.fetch.json.vip =="))
		diagnostics, _ := saved.json["diagnostics"].([]any)
		fields := []string{}
		for _, d := range diagnostics {
			m, _ := d.(map[string]any)
			fields = append(fields, fmt.Sprintf("%v %v %v", m["action_key"], m["field"], m["code"]))
		}
		if want := []string{"fetch config.url invalid_config", "is_vip config.text invalid_expression"}; !slices.Equal(fields, want) {
			t.Fatalf("diagnostics %v, want %v", fields, want)
		}
		valid := j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/validate", token: j.u.token}).expect(t, http.StatusOK)
		if valid.json["valid"] != false || len(valid.json["diagnostics"].([]any)) != 2 {
			t.Fatalf("validate answered %s", valid.Body)
		}
		j.do(req{method: "POST", path: testRuns, token: j.u.token}).expect(t, http.StatusBadRequest, "actions.fetch.config.url", "actions.is_vip.config.text")
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: j.u.token}).
			expect(t, http.StatusBadRequest, "actions.fetch.config.url", "actions.is_vip.config.text")
		if after := runs(); after != before {
			t.Fatalf("the refused test run left %d runs, want %d", after, before)
		}
		if got := j.target.hitsOf("/customers/1") + j.target.hitsOf("/customers/2"); got != hits {
			t.Fatalf("the target got %d requests after the refusal", got-hits)
		}
	})
}

// TestRunsCanBeFoundInTemporalBySearchAttributes: an operator filtering runs in Temporal by
// project and status (the runs' search attributes) finds a run that succeeded.
func TestRunsCanBeFoundInTemporalBySearchAttributes(t *testing.T) {
	j := newJourney(t, dbtest.SQLite(t))
	wfID := j.create("Searchable", draft([]any{
		act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{}),
	}, edge("start", "done", "")))
	j.publish(wfID, 1)
	runID := j.runManual(wfID, map[string]any{}).str("workflow_run_id")
	j.finish(runID, "succeeded")
	query := fmt.Sprintf("AgencyProjectId = '%s' AND AgencyWorkflowId = '%s' AND AgencyTriggerType = 'manual' AND AgencyRunStatus = 'succeeded'", j.projectID, wfID)
	deadline := time.Now().Add(20 * time.Second)
	for {
		found, err := sharedTemporal(t).ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Namespace: "api-test", Query: query})
		if err != nil {
			t.Fatal(err)
		}
		if ids := found.GetExecutions(); len(ids) == 1 && ids[0].GetExecution().GetWorkflowId() == runID {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Temporal's visibility lists %v for %s", found.GetExecutions(), query)
		}
		time.Sleep(100 * time.Millisecond) // visibility is written after the run closes
	}
}
