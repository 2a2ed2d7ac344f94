package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

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
		t.Run("the widget's panel opening and closing is whether the chat is open", func(t *testing.T) {
			panel := func(event string) bool {
				e.do(first.as(req{method: "POST", path: "/api/v1/public/site-chat/events", body: map[string]any{"public_key": site.publicKey,
					"visitor_id": first.visitorID, "visit_session_id": first.sessionID, "events": []any{map[string]any{"event_type": event}}}})).
					expect(t, http.StatusAccepted)
				return visit(site.owner.token, first.sessionID).expect(t, http.StatusOK).json["chat_open"] == true
			}
			if !panel("chat.opened") || panel("chat.closed") {
				t.Fatal("chat_open does not follow the panel")
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

func TestSiteChatConversationsOfAnotherCompanyAreNotFound(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		v := e.visitor(site.publicKey, "victim-0123456789abcdef")
		e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/messages", body: map[string]any{"body": "my address is secret"}})).
			expect(t, http.StatusCreated)
		intruder := e.chatSite("Eve")
		conv := "/api/v1/site-chat-conversations/" + v.conversationID
		for _, r := range []req{
			{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-chat-conversations"},
			{method: "GET", path: conv},
			{method: "POST", path: conv + "/read"},
			{method: "PATCH", path: conv, body: map[string]any{"status": "closed"}},
		} {
			t.Run(r.method+" "+r.path+" is not found", func(t *testing.T) {
				r.token = intruder.owner.token
				e.do(r).expect(t, http.StatusNotFound)
			})
		}
		t.Run("the intruder's own list holds none of it", func(t *testing.T) {
			got := e.do(req{method: "GET", path: "/api/v1/projects/" + intruder.projectID + "/site-chat-conversations", token: intruder.owner.token}).
				expect(t, http.StatusOK)
			if len(got.items()) != 0 || got.json["unread_conversations"] != 0.0 {
				t.Fatalf("intruder's conversations: %s", got.Body)
			}
		})
		t.Run("the conversation is still open and unread", func(t *testing.T) {
			got := e.do(req{method: "GET", path: conv, token: site.owner.token}).expect(t, http.StatusOK)
			if got.str("status") != "open" || got.json["unread_count"] != 1.0 {
				t.Fatalf("conversation: %s", got.Body)
			}
		})
	})
}

func TestSiteChatConversationList(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		colleague := e.memberOf(site.owner, site.company, "Bob", "member")
		list := func(token, query string) *response {
			return e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-chat-conversations" + query, token: token}).expect(t, http.StatusOK)
		}
		write := func(v chatVisitor, body string) {
			e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/messages", body: map[string]any{"body": body, "author_name": "Ann"}})).
				expect(t, http.StatusCreated)
		}
		first := e.visitor(site.publicKey, "first-0123456789abcdef")
		second := e.visitor(site.publicKey, "second-0123456789abcdef")
		write(first, "Hello")
		e.advance(time.Second)
		write(second, "Do you ship to Riga?")
		e.advance(time.Second)
		write(first, strings.Repeat("é", 250))
		ids := func(r *response) []string {
			var out []string
			for _, it := range r.items() {
				out = append(out, it["conversation_id"].(string))
			}
			return out
		}

		t.Run("the newest activity comes first, with the last message and the unread count", func(t *testing.T) {
			got := list(site.owner.token, "")
			items := got.items()
			if !slices.Equal(ids(got), []string{first.conversationID, second.conversationID}) || got.json["unread_conversations"] != 2.0 {
				t.Fatalf("list: %s", got.Body)
			}
			last := items[0]["last_message"].(map[string]any)
			if items[0]["unread_count"] != 2.0 || last["author_kind"] != "visitor" || len([]rune(last["body"].(string))) != 200 ||
				!strings.HasSuffix(last["body"].(string), "…") || items[0]["last_message_at"] != last["created_at"] || items[0]["visitor_name"] != "Ann" {
				t.Fatalf("first conversation: %v", items[0])
			}
		})
		t.Run("pages follow one another by the cursor", func(t *testing.T) {
			one := list(site.owner.token, "?limit=1")
			if next := one.str("next_cursor"); next == "" || !slices.Equal(ids(one), []string{first.conversationID}) {
				t.Fatalf("first page: %s", one.Body)
			}
			two := list(site.owner.token, "?limit=1&cursor="+one.str("next_cursor"))
			if two.str("next_cursor") != "" || !slices.Equal(ids(two), []string{second.conversationID}) {
				t.Fatalf("second page: %s", two.Body)
			}
			e.do(req{method: "GET", path: "/api/v1/projects/" + site.projectID + "/site-chat-conversations?cursor=garbage", token: site.owner.token}).
				expect(t, http.StatusBadRequest, "cursor")
		})
		t.Run("reading clears the reader's unread count only", func(t *testing.T) {
			read := e.do(req{method: "POST", path: "/api/v1/site-chat-conversations/" + first.conversationID + "/read", token: site.owner.token}).
				expect(t, http.StatusOK)
			if read.json["unread_count"] != 0.0 {
				t.Fatalf("read: %s", read.Body)
			}
			if got := list(site.owner.token, ""); got.json["unread_conversations"] != 1.0 || got.items()[0]["unread_count"] != 0.0 {
				t.Fatalf("the reader's list: %s", got.Body)
			}
			if got := list(colleague.token, ""); got.json["unread_conversations"] != 2.0 || got.items()[0]["unread_count"] != 2.0 {
				t.Fatalf("a colleague's list: %s", got.Body)
			}
		})
		t.Run("an operator's answer is no unread message; the visitor's next one is", func(t *testing.T) {
			e.do(req{method: "POST", path: "/api/v1/site-chat-conversations/" + first.conversationID + "/messages", token: site.owner.token,
				body: map[string]any{"body": "Hi Ann"}}).expect(t, http.StatusCreated)
			if got := e.do(req{method: "GET", path: "/api/v1/site-chat-conversations/" + first.conversationID, token: site.owner.token}).
				expect(t, http.StatusOK); got.json["unread_count"] != 0.0 || got.json["last_message"].(map[string]any)["author_kind"] != "operator" {
				t.Fatalf("after the answer: %s", got.Body)
			}
			e.advance(time.Second)
			write(first, "Thanks")
			if got := e.do(req{method: "GET", path: "/api/v1/site-chat-conversations/" + first.conversationID, token: site.owner.token}).
				expect(t, http.StatusOK); got.json["unread_count"] != 1.0 {
				t.Fatalf("after the visitor's next message: %s", got.Body)
			}
		})
		t.Run("closing moves the conversation to the closed ones; the visitor's next message opens a new one", func(t *testing.T) {
			conv := "/api/v1/site-chat-conversations/" + second.conversationID
			closed := e.do(req{method: "PATCH", path: conv, token: site.owner.token, body: map[string]any{"status": "closed"}}).expect(t, http.StatusOK)
			if closed.str("status") != "closed" {
				t.Fatalf("closed: %s", closed.Body)
			}
			if got := list(site.owner.token, "?status=closed"); !slices.Equal(ids(got), []string{second.conversationID}) {
				t.Fatalf("closed ones: %s", got.Body)
			}
			if got := list(site.owner.token, "?status=open"); !slices.Equal(ids(got), []string{first.conversationID}) {
				t.Fatalf("open ones: %s", got.Body)
			}
			e.do(req{method: "POST", path: conv + "/messages", token: site.owner.token, body: map[string]any{"body": "late"}}).
				expect(t, http.StatusConflict, "conversation_id")
			e.advance(time.Second)
			write(second, "Still there?")
			open := list(site.owner.token, "?status=open")
			if len(open.items()) != 2 || ids(open)[0] == second.conversationID {
				t.Fatalf("open ones after the visitor wrote again: %s", open.Body)
			}
			e.do(req{method: "PATCH", path: conv, token: site.owner.token, body: map[string]any{"status": "open"}}).
				expect(t, http.StatusConflict, "status")
		})
		t.Run("a viewer reads and marks read but does not close", func(t *testing.T) {
			viewer := e.memberOf(site.owner, site.company, "Vic", "viewer")
			conv := "/api/v1/site-chat-conversations/" + first.conversationID
			e.do(req{method: "POST", path: conv + "/read", token: viewer.token}).expect(t, http.StatusOK)
			e.do(req{method: "PATCH", path: conv, token: viewer.token, body: map[string]any{"status": "closed"}}).expect(t, http.StatusForbidden)
		})
	})
}
