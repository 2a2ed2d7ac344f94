package api_test

import (
	"net/http"
	"slices"
	"testing"
)

// draftOf is the workflow's draft as the API holds it: its action keys, and its
// connections as "from -branch-> to".
func (s *consoleSite) draftOf(u user, workflowID string) (actions, connections []string) {
	s.t.Helper()
	draft, _ := s.do(req{method: "GET", path: "/api/v1/workflows/" + workflowID, token: u.token}).
		expect(s.t, http.StatusOK).json["draft"].(map[string]any)
	for _, a := range draft["actions"].([]any) {
		actions = append(actions, a.(map[string]any)["action_key"].(string))
	}
	for _, c := range draft["connections"].([]any) {
		c := c.(map[string]any)
		branch, _ := c["branch"].(string)
		connections = append(connections, c["from"].(string)+" -"+branch+"-> "+c["to"].(string))
	}
	slices.Sort(actions)
	return actions, connections
}

// newWorkflow creates an empty workflow in the project through the API.
func (s *consoleSite) newWorkflow(u user, projectID, name string) string {
	s.t.Helper()
	return s.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/workflows", token: u.token,
		body: map[string]any{"name": name}}).expect(s.t, http.StatusCreated).str("workflow_id")
}

// TestConsoleSecondTabsSaveIsDetected: two tabs edit the same draft; the first saves, and
// the second's save shows the conflict banner instead of overwriting it.
func TestConsoleSecondTabsSaveIsDetected(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.newWorkflow(ada, projectID, "Orders")
	first := site.tab(t)
	first.open("/sign-in")
	first.signIn(ada)
	first.at("/workflows")
	first.open("/workflows/" + id)
	second := site.tab(t)
	second.open("/workflows/" + id)
	second.seeHeading("Actions")

	first.click("Manual start")
	first.click("Save")
	first.see("Saved")
	if actions, _ := site.draftOf(ada, id); !slices.Equal(actions, []string{"manual_trigger"}) {
		first.fail("the first tab saved %v", actions)
	}

	second.click("Stop")
	second.click("Save")
	second.see("The draft was changed in another tab or by someone else.")
	if a := second.answer("/api/v1/workflows/" + id + "/draft"); a.status != http.StatusConflict {
		second.fail("the second tab's save was answered %d, want 409", a.status)
	}
	if actions, _ := site.draftOf(ada, id); !slices.Equal(actions, []string{"manual_trigger"}) {
		second.fail("the second tab overwrote the draft: %v", actions)
	}
	second.click("Load theirs")
	second.waitJS("the first tab's action in the second", `!!document.querySelector('[data-action-key="manual_trigger"]') && !document.querySelector('[data-action-key="stop"]')`)
}
