package api_test

import (
	"net/http"
	"sort"
	"sync"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestADraftSavedOnAStaleRevisionIsRefused: every save of the draft counts a revision,
// answered as ETag; a save with If-Match of a revision that is no longer the draft's is
// refused with 409 naming If-Match and changes nothing, and one without If-Match saves as
// it always did.
func TestADraftSavedOnAStaleRevisionIsRefused(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
			body: map[string]any{"name": "Edited twice"}}).expect(t, http.StatusCreated).str("workflow_id")
		path := "/api/v1/workflows/" + wfID
		loaded := j.do(req{method: "GET", path: path, token: j.u.token}).expect(t, http.StatusOK)
		if etag := loaded.Header().Get("ETag"); etag != `"1"` || revisionOf(loaded) != 1 {
			t.Fatalf("a new workflow has ETag %s and revision %v", etag, revisionOf(loaded))
		}
		mine := draft([]any{act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("start", "done", ""))
		theirs := map[string]any{"actions": []any{act("begin", "manual.trigger", map[string]any{})}, "connections": []any{}}

		saved := j.do(req{method: "PUT", path: path + "/draft", token: j.u.token, body: theirs, header: map[string]string{"If-Match": `"1"`}}).expect(t, http.StatusOK)
		if etag := saved.Header().Get("ETag"); etag != `"2"` || revisionOf(saved) != 2 {
			t.Fatalf("the save answered ETag %s and revision %v", etag, revisionOf(saved))
		}
		stale := j.do(req{method: "PUT", path: path + "/draft", token: j.u.token, body: mine, header: map[string]string{"If-Match": `"1"`}}).
			expect(t, http.StatusConflict, "If-Match")
		if stale.str("status") != "fix_required" || stale.str("detail") == "" {
			t.Fatalf("the stale save answered %s", stale.Body)
		}
		ru := j.do(req{method: "PUT", path: path + "/draft", token: j.u.token, body: mine,
			header: map[string]string{"If-Match": `"1"`, "Accept-Language": "ru"}}).expect(t, http.StatusConflict, "If-Match")
		if ru.str("detail") == stale.str("detail") || ru.Header().Get("Content-Language") != "ru" {
			t.Fatalf("the stale save in Russian answered %s", ru.Body)
		}
		after := j.do(req{method: "GET", path: path, token: j.u.token}).expect(t, http.StatusOK)
		if keys := actionKeys(after.json["draft"].(map[string]any)); revisionOf(after) != 2 || len(keys) != 1 || keys[0] != "begin" {
			t.Fatalf("after the refused save the draft is at revision %v with %v", revisionOf(after), keys)
		}

		for i, ifMatch := range []string{`W/"2"`, "3", `"7", "4"`, "*", ""} {
			header := map[string]string{}
			if ifMatch != "" {
				header["If-Match"] = ifMatch
			}
			r := j.do(req{method: "PUT", path: path + "/draft", token: j.u.token, body: mine, header: header}).expect(t, http.StatusOK)
			if want := 3 + i; revisionOf(r) != want {
				t.Fatalf("If-Match %q saved revision %v, want %d", ifMatch, revisionOf(r), want)
			}
		}
		for _, bad := range []string{`"abc"`, "0", `"-3"`} {
			j.do(req{method: "PUT", path: path + "/draft", token: j.u.token, body: mine, header: map[string]string{"If-Match": bad}}).
				expect(t, http.StatusBadRequest, "If-Match")
		}
	})
}

// TestTwoSavesOfTheSameRevisionOneWins: editors that loaded the same revision save at once;
// exactly one save applies, the other is refused, and the draft is the winner's.
func TestTwoSavesOfTheSameRevisionOneWins(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
			body: map[string]any{"name": "Raced"}}).expect(t, http.StatusCreated).str("workflow_id")
		const editors = 4
		codes := make([]int, editors)
		var wg sync.WaitGroup
		for i := range editors {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := draft([]any{act("start", "manual.trigger", map[string]any{}), act("step", "stop", map[string]any{})}, edge("start", "step", ""))
				codes[i] = j.do(req{method: "PUT", path: "/api/v1/workflows/" + wfID + "/draft", token: j.u.token, body: body,
					header: map[string]string{"If-Match": `"1"`}}).Code
			}()
		}
		wg.Wait()
		sort.Ints(codes)
		if codes[0] != http.StatusOK || codes[1] != http.StatusConflict || codes[editors-1] != http.StatusConflict {
			t.Fatalf("concurrent saves of revision 1 answered %v, want one 200 and the rest 409", codes)
		}
		if got := revisionOf(j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: j.u.token}).expect(t, http.StatusOK)); got != 2 {
			t.Fatalf("the draft is at revision %v, want 2", got)
		}
	})
}

// TestRestoringAVersionCountsADraftRevision: restore writes the draft, so a save on the
// revision loaded before it is refused.
func TestRestoringAVersionCountsADraftRevision(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		j := newJourney(t, db)
		graph := draft([]any{act("start", "manual.trigger", map[string]any{}), act("done", "stop", map[string]any{})}, edge("start", "done", ""))
		wfID := j.create("Restored", graph)
		v1 := j.publish(wfID, 1)
		restored := j.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/versions/" + v1 + "/restore", token: j.u.token}).expect(t, http.StatusOK)
		if revisionOf(restored) != 3 {
			t.Fatalf("after a save and a restore the revision is %v, want 3", revisionOf(restored))
		}
		j.do(req{method: "PUT", path: "/api/v1/workflows/" + wfID + "/draft", token: j.u.token, body: graph, header: map[string]string{"If-Match": `"2"`}}).
			expect(t, http.StatusConflict, "If-Match")
	})
}

// TestAnotherCompanysDraftIsNotFound: If-Match changes nothing about tenancy.
func TestAnotherCompanysDraftIsNotFound(t *testing.T) {
	j := newJourney(t, dbtest.SQLite(t))
	wfID := j.do(req{method: "POST", path: "/api/v1/projects/" + j.projectID + "/workflows", token: j.u.token,
		body: map[string]any{"name": "Ours"}}).expect(t, http.StatusCreated).str("workflow_id")
	eve := j.signUp("Eve")
	j.companyOf(eve, "Rival")
	for _, ifMatch := range []string{`"1"`, `"9"`} {
		j.do(req{method: "PUT", path: "/api/v1/workflows/" + wfID + "/draft", token: eve.token, body: map[string]any{"actions": []any{}, "connections": []any{}},
			header: map[string]string{"If-Match": ifMatch}}).expect(t, http.StatusNotFound)
	}
	j.do(req{method: "GET", path: "/api/v1/workflows/" + wfID, token: eve.token}).expect(t, http.StatusNotFound)
}

// revisionOf is draft.revision of a WorkflowView.
func revisionOf(r *response) int {
	d, _ := r.json["draft"].(map[string]any)
	n, _ := d["revision"].(float64)
	return int(n)
}
