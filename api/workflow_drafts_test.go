package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestAHugeInvalidDraftAnswersAShortProblem: publishing a draft of 499 broken actions
// names the first 100 fields in the Problem and at most 1 KB of them in X-App-Validate,
// each list ending in a count of the rest, so that no proxy refuses the answer.
func TestAHugeInvalidDraftAnswersAShortProblem(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		const broken = 499 // a draft holds 500 actions at most
		actions := []any{act("start", "manual.trigger", map[string]any{})}
		for i := range broken {
			actions = append(actions, act(fmt.Sprintf("step_%d", i), "no.such_type", map[string]any{}))
		}
		wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
			body: map[string]any{"name": "Huge"}}).expect(t, http.StatusCreated).str("workflow_id")
		j.putDraft(wfID, draft(actions, edge("start", "step_0", "")))

		refused := j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: j.u.token, body: map[string]any{}})
		if refused.Code != http.StatusBadRequest {
			t.Fatalf("publish answered %d %s", refused.Code, refused.Body)
		}
		header := refused.Header().Get("X-App-Validate")
		if len(header) > 1024 || !strings.HasPrefix(header, "actions.step_0.action_type_key,") {
			t.Fatalf("X-App-Validate is %d bytes: %.200s", len(header), header)
		}
		names := strings.Split(refused.str("validate"), ",")
		more := 0
		if len(names) != 101 || !strings.HasPrefix(names[0], "actions.step_0.") {
			t.Fatalf("validate names %d fields, starting %q", len(names), names[0])
		}
		if _, err := fmt.Sscanf(names[100], "+%d more", &more); err != nil || more < broken-100 {
			t.Fatalf("validate ends in %q, want a count of at least %d more", names[100], broken-100)
		}
	})
}

// TestADraftNamingAnotherTenantsRecordsDoesNotPublish: an integration and a template of
// another company are unknown references, reported by validation and refused by publish
// naming the config fields, as an integration of the wrong type is.
func TestADraftNamingAnotherTenantsRecordsDoesNotPublish(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		eve := j.signUp("Eve")
		eveProject := j.projectIn(eve, j.companyOf(eve, "Rival"), "Theirs")
		foreignAuth := j.do(req{method: "POST", path: "/api/v1/projects/" + eveProject + "/action-dependencies", token: eve.token, body: map[string]any{
			"dependency_type_key": "http.auth", "name": "Their API", "auth": map[string]any{"scheme": "bearer", "token": "their-token-123"},
		}}).expect(t, http.StatusCreated).str("action_dependency_id")
		foreignTemplate := j.do(req{method: "POST", path: "/api/v1/projects/" + eveProject + "/email-templates", token: eve.token, body: map[string]any{
			"name": "Theirs", "subject": "Hi", "body": "Hello",
		}}).expect(t, http.StatusCreated).str("email_template_id")
		ownMail := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/action-dependencies", token: j.u.token, body: map[string]any{
			"dependency_type_key": "smtp.server", "name": "Mail",
			"metadata": map[string]any{"host": "127.0.0.1", "port": 2525, "from": "noreply@northwind.test"},
			"auth":     map[string]any{"username": "mailer", "password": "mail-password"},
		}}).expect(t, http.StatusCreated).str("action_dependency_id")

		wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
			body: map[string]any{"name": "Borrowed"}}).expect(t, http.StatusCreated).str("workflow_id")
		saved := j.putDraft(wfID, draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("call", "http.request", map[string]any{"url": j.target.URL + "/echo", "auth_dependency_id": foreignAuth}),
			act("mail", "email.send", map[string]any{"smtp_action_dependency_id": ownMail, "to": []any{"a@example.com"}, "email_template_id": foreignTemplate}),
			act("mistyped", "email.send", map[string]any{"smtp_action_dependency_id": foreignAuth, "to": []any{"a@example.com"}, "body": "Hi"}),
		}, edge("start", "call", ""), edge("call", "mail", ""), edge("mail", "mistyped", "")))
		want := []string{"call config.auth_dependency_id integration_not_found", "mail config.email_template_id template_not_found",
			"mistyped config.smtp_action_dependency_id integration_not_found"}
		if got := diagnosticsOf(saved); !slices.Equal(got, want) {
			t.Fatalf("the saved draft's diagnostics are %v, want %v", got, want)
		}
		valid := j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/validate", token: j.u.token}).expect(t, http.StatusOK)
		if got := diagnosticsOf(valid); valid.json["valid"] != false || !slices.Equal(got, want) {
			t.Fatalf("validate answered %s", valid.Body)
		}
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: j.u.token, body: map[string]any{}}).expect(t, http.StatusBadRequest,
			"actions.call.config.auth_dependency_id", "actions.mail.config.email_template_id", "actions.mistyped.config.smtp_action_dependency_id")
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/test-runs", token: j.u.token, body: map[string]any{}}).expect(t, http.StatusBadRequest,
			"actions.call.config.auth_dependency_id", "actions.mail.config.email_template_id", "actions.mistyped.config.smtp_action_dependency_id")

		// The same ids of the project itself: the wrong type is still named.
		ownAuth := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/action-dependencies", token: j.u.token, body: map[string]any{
			"dependency_type_key": "http.auth", "name": "Our API", "auth": map[string]any{"scheme": "bearer", "token": "our-token-1234"},
		}}).expect(t, http.StatusCreated).str("action_dependency_id")
		saved = j.putDraft(wfID, draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("mistyped", "email.send", map[string]any{"smtp_action_dependency_id": ownAuth, "to": []any{"a@example.com"}, "body": "Hi"}),
		}, edge("start", "mistyped", "")))
		if got := diagnosticsOf(saved); !slices.Equal(got, []string{"mistyped config.smtp_action_dependency_id integration_wrong_type"}) {
			t.Fatalf("the saved draft's diagnostics are %v", got)
		}
	})
}

// diagnosticsOf lists a workflow's or a validation's diagnostics as "action field code".
func diagnosticsOf(r *response) []string {
	var out []string
	for _, d := range r.json["diagnostics"].([]any) {
		d := d.(map[string]any)
		out = append(out, fmt.Sprint(d["action_key"], " ", d["field"], " ", d["code"]))
	}
	return out
}

// TestABadActionKeyIsNamedAsActions: an action key that breaks the key rules (here with
// letters a header cannot carry) is not repeated in validate, which names actions instead.
func TestABadActionKeyIsNamedAsActions(t *testing.T) {
	j := newJourney(t, dbtest.SQLite(t))
	wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
		body: map[string]any{"name": "Keys"}}).expect(t, http.StatusCreated).str("workflow_id")
	j.putDraft(wfID, draft([]any{act("start", "manual.trigger", map[string]any{}), act("шаг,2", "stop", map[string]any{})},
		edge("start", "шаг,2", "")))
	j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: j.u.token, body: map[string]any{}}).
		expect(t, http.StatusBadRequest, "actions")
}

// TestADraftCallingAnAddressTheEgressPolicyRefusesDoesNotPublish: an http.request whose
// host, as written, the egress policy refuses (here a cloud metadata address, link-local,
// which the tests' allow-list leaves out) is an error on its url, in the reader's language
// and naming the setting that allows it; a templated host is left to the run.
func TestADraftCallingAnAddressTheEgressPolicyRefusesDoesNotPublish(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
			body: map[string]any{"name": "Metadata"}}).expect(t, http.StatusCreated).str("workflow_id")
		saved := j.putDraft(wfID, draft([]any{
			act("start", "manual.trigger", map[string]any{}),
			act("fetch", "http.request", map[string]any{"url": "http://169.254.169.254/latest/meta-data"}),
			act("later", "http.request", map[string]any{"url": "http://{{ start.host }}/x"}),
		}, edge("start", "fetch", ""), edge("fetch", "later", "")))
		want := []string{"fetch config.url egress_refused"}
		if got := diagnosticsOf(saved); !slices.Equal(got, want) {
			t.Fatalf("the saved draft's diagnostics are %v, want %v", got, want)
		}
		valid := j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/validate", token: j.u.token,
			header: map[string]string{"Accept-Language": "ru"}}).expect(t, http.StatusOK)
		if got := diagnosticsOf(valid); valid.json["valid"] != false || !slices.Equal(got, want) {
			t.Fatalf("validate answered %s", valid.Body)
		}
		message := valid.json["diagnostics"].([]any)[0].(map[string]any)["message"].(string)
		if !strings.Contains(message, "169.254.169.254") || !strings.Contains(message, "APP_EGRESS_ALLOW") || !strings.Contains(message, "Политика") {
			t.Fatalf("the diagnostic in Russian says %q", message)
		}
		j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/publish", token: j.u.token, body: map[string]any{}}).
			expect(t, http.StatusBadRequest, "actions.fetch.config.url")
	})
}

// TestADraftsDiagnosticsAreWordedForEachReader: the same saved draft read by a reader of
// English and one of Russian tells each its problems in their language; nothing stored
// fixes the language.
func TestADraftsDiagnosticsAreWordedForEachReader(t *testing.T) {
	j := newJourney(t, dbtest.SQLite(t))
	wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
		body: map[string]any{"name": "Words"}}).expect(t, http.StatusCreated).str("workflow_id")
	j.putDraft(wfID, draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		act("fetch", "http.request", map[string]any{"url": "http://169.254.169.254/x"}),
		act("alone", "stop", map[string]any{"reason": "{{ steps.nowhere.id }}"}),
	}, edge("start", "fetch", "")))
	read := func(lang string) map[string]string {
		resp := j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: j.u.token, header: map[string]string{"Accept-Language": lang}}).
			expect(t, http.StatusOK)
		out := map[string]string{}
		for _, d := range resp.json["diagnostics"].([]any) {
			d := d.(map[string]any)
			out[d["code"].(string)] = d["message"].(string)
		}
		return out
	}
	en, ru := read("en"), read("ru")
	want := map[string][2]string{
		"unreachable_action":    {"no trigger leads to action alone", "Ни один триггер не ведёт к действию alone: соедините его"},
		"unresolvable_template": {"template {{ steps.nowhere.id }} cannot resolve here", "Шаблону {{ steps.nowhere.id }} здесь неоткуда взять значение"},
	}
	for code, w := range want {
		if en[code] != w[0] || ru[code] != w[1] {
			t.Errorf("%s: en %q, ru %q; want %q and %q", code, en[code], ru[code], w[0], w[1])
		}
	}
	if !strings.Contains(en["egress_refused"], "a link-local address") || !strings.Contains(ru["egress_refused"], "это локальный адрес канала (link-local)") {
		t.Errorf("the egress refusal: en %q, ru %q", en["egress_refused"], ru["egress_refused"])
	}
}
