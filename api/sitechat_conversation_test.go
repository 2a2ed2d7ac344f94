package api_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

func TestSiteChatConversation(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		v := e.visitor(site.publicKey, "visitor-0123456789abcdef")
		first := e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/messages",
			body: map[string]any{"body": "Do you ship to Kazan?", "author_name": "Ivan", "visitor_contact": "ivan@example.com", "visit_session_id": v.sessionID}})).
			expect(t, http.StatusCreated)
		t.Run("the first visitor message opens the reserved conversation", func(t *testing.T) {
			if first.str("conversation_id") != v.conversationID || first.str("author_kind") != "visitor" || first.str("author_name") != "Ivan" {
				t.Fatalf("message: %s", first.Body)
			}
			again := e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/conversations"})).expect(t, http.StatusOK)
			if again.str("conversation_id") != v.conversationID || again.str("status") != "open" || again.str("visitor_name") != "Ivan" ||
				again.str("visitor_contact") != "ivan@example.com" {
				t.Fatalf("conversation: %s", again.Body)
			}
		})
		t.Run("an explicit open of a new visitor's conversation creates it", func(t *testing.T) {
			other := e.visitor(site.publicKey, "visitor-explicit-0123456789")
			c := e.do(other.as(req{method: "POST", path: "/api/v1/public/site-chat/conversations", body: map[string]any{"visitor_id": other.visitorID}})).
				expect(t, http.StatusCreated)
			if c.str("conversation_id") != other.conversationID || c.str("visit_session_id") != other.sessionID {
				t.Fatalf("opened: %s", c.Body)
			}
		})
		t.Run("an operator answers under their name, and both sides read the thread in order", func(t *testing.T) {
			answer := e.do(req{method: "POST", path: "/api/v1/site-chat-conversations/" + v.conversationID + "/messages", token: site.owner.token,
				body: map[string]any{"body": "Yes, in 3 days."}}).expect(t, http.StatusCreated)
			if answer.str("author_kind") != "operator" || answer.str("author_name") != "Ada" || answer.str("author_user_id") != site.owner.id {
				t.Fatalf("answer: %s", answer.Body)
			}
			for _, r := range []req{
				v.as(req{method: "GET", path: "/api/v1/public/site-chat/conversations/" + v.conversationID + "/messages"}),
				{method: "GET", path: "/api/v1/site-chat-conversations/" + v.conversationID + "/messages", token: site.owner.token},
			} {
				items := e.do(r).expect(t, http.StatusOK).items()
				if len(items) != 2 || items[0]["body"] != "Do you ship to Kazan?" || items[1]["body"] != "Yes, in 3 days." {
					t.Fatalf("%s: %v", r.path, items)
				}
			}
		})
		t.Run("messages are checked", func(t *testing.T) {
			e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/messages", body: map[string]any{"body": "   "}})).expect(t, http.StatusBadRequest, "body")
			e.do(req{method: "POST", path: "/api/v1/site-chat-conversations/" + v.conversationID + "/messages", token: site.owner.token,
				body: map[string]any{"body": strings.Repeat("x", 10001)}}).expect(t, http.StatusBadRequest, "body")
		})
		png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
		var attachmentID, token string
		t.Run("a visitor's file is a message carrying the attachment, downloaded by its link", func(t *testing.T) {
			m := e.uploadChatFile(v.as(req{path: "/api/v1/public/site-chat/conversations/" + v.conversationID + "/attachments"}), `C:\shots\screen 1.png`, png).
				expect(t, http.StatusCreated)
			if m.str("body") != "screen 1.png" || m.str("author_kind") != "visitor" {
				t.Fatalf("attachment message: %s", m.Body)
			}
			attachmentID, token = attachmentLink(t, m)
			got := e.do(req{method: "GET", path: "/api/v1/site-chat/attachments/" + attachmentID + "/" + token}).expect(t, http.StatusOK)
			h := got.Header()
			if !bytes.Equal(got.Body.Bytes(), png) || h.Get("Content-Type") != "image/png" || h.Get("X-Content-Type-Options") != "nosniff" ||
				!strings.HasPrefix(h.Get("Content-Disposition"), "attachment;") || !strings.Contains(h.Get("Content-Disposition"), "screen%201.png") {
				t.Fatalf("download: %v %q", h, got.Body)
			}
		})
		t.Run("a download token is for one attachment and expires after 15 minutes", func(t *testing.T) {
			op := e.uploadChatFile(req{path: "/api/v1/site-chat-conversations/" + v.conversationID + "/attachments", token: site.owner.token}, "price.txt", []byte("Price list\n")).
				expect(t, http.StatusCreated)
			otherID, otherToken := attachmentLink(t, op)
			e.do(req{method: "GET", path: "/api/v1/site-chat/attachments/" + otherID + "/" + token}).expect(t, http.StatusNotFound)
			e.do(req{method: "GET", path: "/api/v1/site-chat/attachments/" + attachmentID + "/" + token + "x"}).expect(t, http.StatusNotFound)
			e.advance(14 * time.Minute)
			e.do(req{method: "GET", path: "/api/v1/site-chat/attachments/" + otherID + "/" + otherToken}).expect(t, http.StatusOK)
			e.advance(time.Minute + time.Second)
			e.do(req{method: "GET", path: "/api/v1/site-chat/attachments/" + otherID + "/" + otherToken}).expect(t, http.StatusNotFound)
			// Reading the message again signs a fresh link (the operator signs in again: access tokens last 15 minutes too).
			site.owner.token = e.signInAgain(site.owner)
			items := e.do(req{method: "GET", path: "/api/v1/site-chat-conversations/" + v.conversationID + "/messages", token: site.owner.token}).expect(t, http.StatusOK).items()
			fresh := items[len(items)-1]["attachments"].([]any)[0].(map[string]any)["download_url"].(string)
			e.do(req{method: "GET", path: strings.TrimPrefix(fresh, "http://api.test")}).expect(t, http.StatusOK)
		})
		t.Run("refused uploads store nothing", func(t *testing.T) {
			path := "/api/v1/site-chat-conversations/" + v.conversationID + "/attachments"
			e.uploadChatFile(req{path: path, token: site.owner.token}, "page.html", []byte("<!DOCTYPE html><script>alert(1)</script>")).expect(t, http.StatusBadRequest, "file")
			e.uploadChatFile(req{path: path, token: site.owner.token}, "big.png", append(png, make([]byte, 10<<20)...)).expect(t, http.StatusRequestEntityTooLarge)
			e.do(req{method: "POST", path: path, token: site.owner.token, body: map[string]any{"file": "x"}}).expect(t, http.StatusUnsupportedMediaType, "body")
			items := e.do(req{method: "GET", path: "/api/v1/site-chat-conversations/" + v.conversationID + "/messages", token: site.owner.token}).expect(t, http.StatusOK).items()
			if len(items) != 4 {
				t.Fatalf("%d messages after refused uploads", len(items))
			}
		})
	})
}
