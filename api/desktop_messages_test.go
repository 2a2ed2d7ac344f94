package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models/desktop"
)

// tell posts a desktop message to u in companyID, as the product's own events do, and
// answers its dedupe key.
func (e *env) tell(u user, companyID, title string) string {
	e.t.Helper()
	key := "test:" + title
	err := e.server.Desktop.Post(context.Background(), desktop.Notice{CompanyID: uuid.MustParse(companyID), UserID: uuid.MustParse(u.id),
		Kind: desktop.KindTaskAssigned, Title: title, SubjectType: "task", SubjectID: uuid.NewString(), DedupeKey: key})
	if err != nil {
		e.t.Fatal(err)
	}
	return key
}

// addDesktopIDs gives the fixture's owner a desktop message and records its id.
func (e *env) addDesktopIDs(u user, ids map[string]string) {
	e.t.Helper()
	e.tell(u, ids["company_id"], "Fixture message")
	items := e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: u.token}).expect(e.t, http.StatusOK).items()
	ids["desktop_message_id"] = items[0]["desktop_message_id"].(string)
}

// inbox answers the titles of u's desktop messages as one page of the list shows them.
func (e *env) inbox(t *testing.T, u user, query string) (titles []string, resp *response) {
	t.Helper()
	resp = e.do(req{method: "GET", path: "/api/v1/desktop/messages" + query, token: u.token}).expect(t, http.StatusOK)
	for _, m := range resp.items() {
		titles = append(titles, m["title"].(string))
	}
	return titles, resp
}

func messageIDs(resp *response) map[string]string {
	ids := map[string]string{}
	for _, m := range resp.items() {
		ids[m["title"].(string)] = m["desktop_message_id"].(string)
	}
	return ids
}

func TestDesktopInbox(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		company := e.companyOf(ada, "Northwind")
		for _, title := range []string{"first", "second", "third"} {
			e.tell(ada, company, title)
		}

		t.Run("a notice posted again with the same key is stored once", func(t *testing.T) {
			e.tell(ada, company, "second")
			if titles, resp := e.inbox(t, ada, ""); strings.Join(titles, ",") != "third,second,first" || resp.json["unread_count"] != 3.0 {
				t.Fatalf("inbox %v: %s", titles, resp.Body)
			}
		})
		ids := messageIDs(e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: ada.token}).expect(t, http.StatusOK))

		t.Run("an acknowledged message moves below the unread ones, and acknowledging again changes nothing", func(t *testing.T) {
			first := e.do(req{method: "POST", path: "/api/v1/desktop/messages/" + ids["third"] + "/ack", token: ada.token}).expect(t, http.StatusOK)
			e.advance(time.Minute)
			again := e.do(req{method: "POST", path: "/api/v1/desktop/messages/" + ids["third"] + "/ack", token: ada.token}).expect(t, http.StatusOK)
			if first.json["acked_at"] == nil || again.json["acked_at"] != first.json["acked_at"] {
				t.Fatalf("acks answered %s then %s", first.Body, again.Body)
			}
			if titles, resp := e.inbox(t, ada, ""); strings.Join(titles, ",") != "second,first,third" || resp.json["unread_count"] != 2.0 {
				t.Fatalf("inbox %v: %s", titles, resp.Body)
			}
			if titles, _ := e.inbox(t, ada, "?unread=true"); strings.Join(titles, ",") != "second,first" {
				t.Fatalf("unread %v", titles)
			}
		})

		t.Run("pages walk unread then read messages without repeats", func(t *testing.T) {
			var walked []string
			for _, page := range e.pagesOf(t, ada.token, "/api/v1/desktop/messages", "1") {
				for _, m := range page {
					walked = append(walked, m["title"].(string))
				}
			}
			if strings.Join(walked, ",") != "second,first,third" {
				t.Fatalf("pages walked %v", walked)
			}
		})

		t.Run("another user sees none of them and cannot acknowledge them", func(t *testing.T) {
			bob := e.signUp("Bob")
			e.companyOf(bob, "Contoso")
			if titles, _ := e.inbox(t, bob, ""); len(titles) != 0 {
				t.Fatalf("bob sees %v", titles)
			}
			e.do(req{method: "POST", path: "/api/v1/desktop/messages/" + ids["first"] + "/ack", token: bob.token}).expect(t, http.StatusNotFound)
			if _, resp := e.inbox(t, ada, ""); resp.json["unread_count"] != 2.0 {
				t.Fatalf("ada's inbox after bob's attempt: %s", resp.Body)
			}
		})

		t.Run("a member who leaves the company no longer sees its messages", func(t *testing.T) {
			carol := e.signUp("Carol")
			e.addToCompany(ada, company, carol, "member")
			e.tell(carol, company, "for carol")
			carolIDs := messageIDs(e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: carol.token}).expect(t, http.StatusOK))
			e.do(req{method: "DELETE", path: "/api/v1/companies/" + company + "/members/" + carol.id, token: ada.token}).expect(t, http.StatusNoContent)
			if titles, _ := e.inbox(t, carol, ""); len(titles) != 0 {
				t.Fatalf("carol still sees %v", titles)
			}
			e.do(req{method: "POST", path: "/api/v1/desktop/messages/" + carolIDs["for carol"] + "/ack", token: carol.token}).expect(t, http.StatusNotFound)
		})

		t.Run("bad filters and cursors are refused naming the parameter", func(t *testing.T) {
			e.do(req{method: "GET", path: "/api/v1/desktop/messages?unread=maybe", token: ada.token}).expect(t, http.StatusBadRequest, "unread")
			e.do(req{method: "GET", path: "/api/v1/desktop/messages?cursor=nonsense", token: ada.token}).expect(t, http.StatusBadRequest, "cursor")
			e.do(req{method: "GET", path: "/api/v1/desktop/messages/stream?cursor=-1", token: ada.token}).expect(t, http.StatusBadRequest, "cursor")
		})
	})
}

// desktopStream is an open desktop message stream read over a real connection.
type desktopStream struct {
	messages chan sseMessage
	cancel   context.CancelFunc
}

func openDesktopStream(t *testing.T, srv *httptest.Server, u user, lastEventID string) *desktopStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	hr, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1/desktop/messages/stream", nil)
	hr.Header.Set("Authorization", "Bearer "+u.token)
	if lastEventID != "" {
		hr.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := srv.Client().Do(hr)
	if err != nil {
		cancel()
		t.Fatalf("open the stream: %v", err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		t.Fatalf("the stream answered %d with headers %v", resp.StatusCode, resp.Header)
	}
	s := &desktopStream{messages: make(chan sseMessage, 16), cancel: cancel}
	go func() {
		defer resp.Body.Close()
		defer close(s.messages)
		var cur sseMessage
		lines := bufio.NewScanner(resp.Body)
		for lines.Scan() {
			field, value, _ := strings.Cut(lines.Text(), ": ")
			switch field {
			case "id":
				cur.id = value
			case "event":
				cur.event = value
			case "data":
				cur.data = value
			case "":
				if cur.event != "" {
					s.messages <- cur
				}
				cur = sseMessage{}
			}
		}
	}()
	t.Cleanup(cancel)
	return s
}

// next answers the stream's next message, failing unless it comes within wait.
func (s *desktopStream) next(t *testing.T, wait time.Duration) sseMessage {
	t.Helper()
	select {
	case m, open := <-s.messages:
		if !open {
			t.Fatal("the stream closed")
		}
		return m
	case <-time.After(wait):
		t.Fatalf("no message within %v", wait)
		return sseMessage{}
	}
}

func titleOf(t *testing.T, m sseMessage) string {
	t.Helper()
	var view map[string]any
	if err := json.Unmarshal([]byte(m.data), &view); err != nil || m.event != "desktop.message" {
		t.Fatalf("stream message %+v: %v", m, err)
	}
	if m.id != fmt.Sprint(view["sequence"]) {
		t.Fatalf("event id %s is not the message's sequence %v", m.id, view["sequence"])
	}
	return view["title"].(string)
}

func TestDesktopStream(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		srv := httptest.NewServer(e.handler)
		t.Cleanup(srv.Close)
		ada := e.signUp("Ada")
		company := e.companyOf(ada, "Northwind")
		e.tell(ada, company, "before the stream")

		stream := openDesktopStream(t, srv, ada, "")
		// The subscription is taken before the answer's headers, so a message posted now
		// is one the stream must deliver, not one it started after.
		e.tell(ada, company, "while streaming")
		got := stream.next(t, time.Second)
		if titleOf(t, got) != "while streaming" {
			t.Fatalf("the stream began with %+v, want the new message only", got)
		}
		stream.cancel()

		e.tell(ada, company, "missed one")
		e.tell(ada, company, "missed two")
		resumed := openDesktopStream(t, srv, ada, got.id)
		for _, want := range []string{"missed one", "missed two"} {
			if title := titleOf(t, resumed.next(t, time.Second)); title != want {
				t.Fatalf("the resumed stream sent %q, want %q", title, want)
			}
		}
		bob := e.signUp("Bob")
		e.tell(bob, e.companyOf(bob, "Contoso"), "for bob")
		e.tell(ada, company, "after bob's")
		if title := titleOf(t, resumed.next(t, time.Second)); title != "after bob's" {
			t.Fatalf("ada's stream sent %q", title)
		}
	})
}

func TestFailedRunsAndDuePaymentsReachTheDesktopInbox(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db) // the server's clock says 21 November 2026
		f := e.billingFixture("Ada")

		t.Run("a failed run tells the workflow's owner", func(t *testing.T) {
			target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "no such order", http.StatusNotFound)
			}))
			t.Cleanup(target.Close)
			wfID := e.publishGraph(f.owner, f.projectID, "Orders", map[string]any{
				"actions": []any{
					map[string]any{"action_key": "start", "action_type_key": "manual.trigger", "config": map[string]any{}},
					map[string]any{"action_key": "fetch", "action_type_key": "http.request", "config": map[string]any{"url": target.URL + "/orders/1"}},
				},
				"connections": []any{map[string]any{"from": "start", "to": "fetch"}},
			})
			runID := e.do(req{method: "POST", path: "/api/v1/workflows/" + wfID + "/runs/manual", token: f.owner.token}).expect(t, http.StatusAccepted).str("workflow_run_id")
			if run := e.waitRun(f.owner, runID); run.str("status") != "failed" {
				t.Fatalf("run %s", run.Body)
			}
			e.notified()
			items := e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: f.owner.token}).expect(t, http.StatusOK).items()
			if len(items) != 1 || items[0]["kind"] != "run.failed" || items[0]["title"] != "A run of Orders failed" ||
				items[0]["subject_id"] != runID || items[0]["project_id"] != f.projectID {
				t.Fatalf("inbox %v", items)
			}
		})

		t.Run("a due payment tells the client's responsibles, not the owner", func(t *testing.T) {
			carol := e.signUp("Carol")
			e.addToCompany(f.owner, f.companyID, carol, "member")
			e.do(req{method: "POST", path: "/api/v1/clients/" + f.clientID + "/responsibles", token: f.owner.token,
				body: map[string]any{"user_id": carol.id, "role": "accountant"}}).expect(t, http.StatusCreated)
			// Due today, it is billed and due as it is created, without waiting for the cycle.
			e.addService(f, map[string]any{"name": "Hosting", "amount": 1500, "next_due_date": "2026-11-21"})
			items := waitFor(t, func() ([]map[string]any, bool) {
				items := e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: carol.token}).expect(t, http.StatusOK).items()
				return items, len(items) > 0
			})
			if len(items) != 1 || items[0]["kind"] != "payment_action.due" || items[0]["title"] != "Payment due from Acme" ||
				!strings.HasPrefix(items[0]["body"].(string), "RUB\u00a01,500.00 due on November 21, 2026") {
				t.Fatalf("carol's inbox %v", items)
			}
			for _, m := range e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: f.owner.token}).expect(t, http.StatusOK).items() {
				if m["kind"] == "payment_action.due" {
					t.Fatalf("the owner was told too: %v", m)
				}
			}
		})
	})
}

func TestConcurrentPostsToOneUserAreAllStoredInOrder(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		ada := e.signUp("Ada")
		company := uuid.MustParse(e.companyOf(ada, "Northwind"))
		const posts = 30
		var wg sync.WaitGroup
		errs := make(chan error, posts)
		for i := range posts {
			wg.Go(func() {
				errs <- e.server.Desktop.Post(context.Background(), desktop.Notice{CompanyID: company, UserID: uuid.MustParse(ada.id),
					Kind: desktop.KindRunFailed, Title: fmt.Sprint("run ", i), DedupeKey: fmt.Sprint("run:", i)})
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		resp := e.do(req{method: "GET", path: "/api/v1/desktop/messages?limit=200", token: ada.token}).expect(t, http.StatusOK)
		items := resp.items()
		if len(items) != posts {
			t.Fatalf("%d messages stored, want %d", len(items), posts)
		}
		for i, m := range items { // newest first: sequences posts..1
			if m["sequence"] != float64(posts-i) {
				t.Fatalf("message %d has sequence %v, want %d", i, m["sequence"], posts-i)
			}
		}
	})
}

// TestANewConversationTellsTheOperators: a visitor's first message opens a conversation,
// and every member who may answer it (not a viewer) is told once, in their language, with
// the conversation as the subject; the visitor's next message tells nobody again.
func TestANewConversationTellsTheOperators(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		boris, vera := e.signUp("Boris"), e.signUp("Vera")
		e.addToCompany(site.owner, site.company, boris, "member")
		e.addToCompany(site.owner, site.company, vera, "viewer")
		e.do(req{method: "PATCH", path: "/api/v1/auth/profile", token: boris.token, body: map[string]any{"language": "ru"}}).expect(t, http.StatusOK)
		v := e.visitor(site.publicKey, "anon-"+strings.Repeat("b", 16))
		for _, body := range []string{"Hello", "Anyone there?"} {
			e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/messages", body: map[string]any{"body": body}})).expect(t, http.StatusCreated)
			e.notified()
		}

		inbox := func(u user) []map[string]any {
			return e.do(req{method: "GET", path: "/api/v1/desktop/messages", token: u.token}).expect(t, http.StatusOK).items()
		}
		for _, c := range []struct {
			who   user
			title string
		}{{site.owner, "A visitor started a conversation on Ada shop"}, {boris, "Посетитель начал разговор в виджете Ada shop"}} {
			items := inbox(c.who)
			if len(items) != 1 || items[0]["kind"] != "site_chat.conversation_opened" || items[0]["title"] != c.title ||
				items[0]["body"] != "Pricing" || items[0]["subject_type"] != "site_chat_conversation" ||
				items[0]["subject_id"] != v.conversationID || items[0]["project_id"] != site.projectID {
				t.Fatalf("%s's inbox %v", c.who.email, items)
			}
		}
		if items := inbox(vera); len(items) != 0 {
			t.Fatalf("a viewer was told: %v", items)
		}
	})
}
