package api_test

import (
	"net/http"
	"testing"

	"agencyhub/migrations/dbtest"
)

// The operations the operator's desk added (docs/site-chat.md, "The desk's operations").

func TestSiteChatVisitSession(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		other := e.chatSite("Eve")
		first := e.visitor(site.publicKey, "returning-0123456789abcdef")
		visit := func(token, id string) *response {
			return e.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + id, token: token})
		}
		t.Run("another company's visit is not found", func(t *testing.T) {
			visit(other.owner.token, first.sessionID).expect(t, http.StatusNotFound)
		})
		t.Run("a visitor's first visit says so, with the page and when it began", func(t *testing.T) {
			v := visit(site.owner.token, first.sessionID).expect(t, http.StatusOK)
			if v.json["is_first_visit"] != true || v.str("current_title") != "Pricing" || v.str("conversation_id") != first.conversationID || v.str("started_at") == "" {
				t.Fatalf("visit: %s", v.Body)
			}
		})
		t.Run("the same browser's next visit is a returning one", func(t *testing.T) {
			again := e.visitor(site.publicKey, first.anonymousID)
			if again.sessionID == first.sessionID || again.visitorID != first.visitorID {
				t.Fatalf("a second visit of the visitor: %+v after %+v", again, first)
			}
			if v := visit(site.owner.token, again.sessionID).expect(t, http.StatusOK); v.json["is_first_visit"] != false {
				t.Fatalf("second visit: %s", v.Body)
			}
			active := e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-visitors/active", token: site.owner.token}).expect(t, http.StatusOK).items()
			firsts := map[string]any{}
			for _, a := range active {
				firsts[a["visit_session_id"].(string)] = a["is_first_visit"]
			}
			if firsts[first.sessionID] != true || firsts[again.sessionID] != false {
				t.Fatalf("active visitors' first visits: %v", firsts)
			}
		})
	})
}
