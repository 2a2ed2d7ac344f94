package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
)

func TestSiteChatCallStateMachine(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		v := e.visitor(site.publicKey, "caller-0123456789abcdef")
		operator := func(callID, move string) req {
			return req{method: "POST", path: "/api/v1/site-chat/calls/" + callID + "/" + move, token: site.owner.token, body: map[string]any{}}
		}
		visitor := func(callID, move string, body map[string]any) req {
			r := req{method: "POST", path: "/api/v1/public/site-chat/calls/" + callID + "/" + move}
			if body != nil {
				r.body = body
			}
			return v.as(r)
		}
		consent := map[string]any{"privacy_consent_accepted": true}
		offer := func() string {
			return e.do(req{method: "POST", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/call-offer", token: site.owner.token,
				body: map[string]any{"media_kind": "video", "recording_enabled": true}}).expect(t, http.StatusCreated).str("call_session_id")
		}
		request := func() string {
			return e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/calls/request", body: consent})).expect(t, http.StatusCreated).str("call_session_id")
		}
		status := func(r req, code int) string {
			t.Helper()
			return e.do(r).expect(t, code).str("status")
		}

		t.Run("an operator's offer: only the visitor answers, and needs the privacy consent", func(t *testing.T) {
			call := offer()
			e.do(req{method: "POST", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/call-offer", token: site.owner.token}).expect(t, http.StatusConflict, "visit_session_id")
			e.do(operator(call, "accept")).expect(t, http.StatusConflict, "call_session_id")
			e.do(operator(call, "reject")).expect(t, http.StatusConflict, "call_session_id")
			e.do(visitor(call, "end", nil)).expect(t, http.StatusConflict, "call_session_id")
			e.do(visitor(call, "accept", map[string]any{})).expect(t, http.StatusBadRequest, "privacy_consent_accepted")
			accepted := e.do(visitor(call, "accept", map[string]any{"privacy_consent_accepted": true, "recording_consent_accepted": true})).expect(t, http.StatusOK)
			if accepted.str("status") != "accepted" || accepted.json["recording_enabled"] != true || accepted.str("privacy_consent_accepted_at") == "" ||
				accepted.str("recording_consent_accepted_at") == "" || accepted.str("started_at") == "" || accepted.str("direction") != "operator_to_visitor" {
				t.Fatalf("accepted: %s", accepted.Body)
			}
			for _, r := range []req{operator(call, "accept"), operator(call, "reject"), visitor(call, "accept", consent), visitor(call, "reject", nil)} {
				e.do(r).expect(t, http.StatusConflict, "call_session_id")
			}
			ended := e.do(operator(call, "end")).expect(t, http.StatusOK)
			if ended.str("status") != "ended" || ended.str("ended_at") == "" {
				t.Fatalf("ended: %s", ended.Body)
			}
			for _, r := range []req{operator(call, "end"), visitor(call, "end", nil), operator(call, "accept"), visitor(call, "reject", nil)} {
				e.do(r).expect(t, http.StatusConflict, "call_session_id")
			}
		})
		t.Run("a recording needs both consents and an answered call", func(t *testing.T) {
			calls := e.do(req{method: "POST", path: "/api/v1/site-visit-sessions/" + v.sessionID + "/call-offer", token: site.owner.token,
				body: map[string]any{"recording_enabled": true}}).expect(t, http.StatusCreated).str("call_session_id")
			webm := append([]byte("\x1a\x45\xdf\xa3"), make([]byte, 600)...)
			path := "/api/v1/site-chat/calls/" + calls + "/recordings"
			e.uploadChatFile(req{path: path, token: site.owner.token}, "call.webm", webm).expect(t, http.StatusConflict, "call_session_id")
			// Privacy consent alone: the call goes on without recording.
			if on := e.do(visitor(calls, "accept", consent)).expect(t, http.StatusOK).json["recording_enabled"]; on != false {
				t.Fatalf("recording_enabled %v without the recording consent", on)
			}
			e.uploadChatFile(req{path: path, token: site.owner.token}, "call.webm", webm).expect(t, http.StatusConflict, "call_session_id")
			status(visitor(calls, "end", nil), http.StatusOK)
		})
		t.Run("recordings of a consented call are stored and listed", func(t *testing.T) {
			call := offer()
			status(visitor(call, "accept", map[string]any{"privacy_consent_accepted": true, "recording_consent_accepted": true}), http.StatusOK)
			path := "/api/v1/site-chat/calls/" + call + "/recordings"
			e.uploadChatFile(req{path: path, token: site.owner.token}, "call.exe", append([]byte("MZ\x90\x00"), make([]byte, 600)...)).expect(t, http.StatusBadRequest, "file")
			rec := e.uploadChatFile(req{path: path, token: site.owner.token}, "call.webm", append([]byte("\x1a\x45\xdf\xa3"), make([]byte, 600)...)).expect(t, http.StatusCreated)
			if rec.str("content_type") != "video/webm" || rec.str("call_session_id") != call {
				t.Fatalf("recording: %s", rec.Body)
			}
			items := e.do(req{method: "GET", path: path, token: site.owner.token}).expect(t, http.StatusOK).items()
			if len(items) != 1 || items[0]["recording_id"] != rec.str("recording_id") {
				t.Fatalf("recordings: %v", items)
			}
			status(operator(call, "end"), http.StatusOK)
		})
		t.Run("a visitor's request: only an operator answers; the visitor cancels before", func(t *testing.T) {
			call := request()
			e.do(visitor(call, "accept", consent)).expect(t, http.StatusConflict, "call_session_id")
			e.do(visitor(call, "reject", nil)).expect(t, http.StatusConflict, "call_session_id")
			e.do(operator(call, "end")).expect(t, http.StatusConflict, "call_session_id")
			if s := status(visitor(call, "end", map[string]any{"end_reason": "changed my mind"}), http.StatusOK); s != "cancelled" {
				t.Fatalf("cancelled: %s", s)
			}
			e.do(operator(call, "accept")).expect(t, http.StatusConflict, "call_session_id")
			call = request()
			if s := status(operator(call, "reject"), http.StatusOK); s != "rejected" {
				t.Fatalf("rejected: %s", s)
			}
			e.do(visitor(call, "end", nil)).expect(t, http.StatusConflict, "call_session_id")
			call = request()
			if s := status(operator(call, "accept"), http.StatusOK); s != "accepted" {
				t.Fatalf("accepted: %s", s)
			}
			if s := status(visitor(call, "end", nil), http.StatusOK); s != "ended" {
				t.Fatalf("ended: %s", s)
			}
		})
		t.Run("ringing is a waiting state; a call unanswered for 45 s is missed", func(t *testing.T) {
			call := offer()
			access := e.visitorAccess(v)
			c, err := e.server.SiteChat.VisitorCall(context.Background(), access, mustUUID(t, call))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.server.SiteChat.RingCall(context.Background(), c, sitechatVisitor()); err != nil {
				t.Fatal(err)
			}
			e.advance(44 * time.Second)
			e.do(operator(call, "accept")).expect(t, http.StatusConflict, "call_session_id")
			e.advance(time.Second)
			e.do(visitor(call, "accept", consent)).expect(t, http.StatusConflict, "call_session_id")
			e.do(visitor(call, "reject", nil)).expect(t, http.StatusConflict, "call_session_id")
			// A new call is not blocked by the missed one.
			call2 := offer()
			e.advance(46 * time.Second)
			if n, err := e.server.SiteChat.ExpireMissedCalls(context.Background()); err != nil || n != 1 {
				t.Fatalf("janitor missed %d calls, err %v", n, err)
			}
			e.do(visitor(call2, "accept", consent)).expect(t, http.StatusConflict, "call_session_id")
			got, err := e.server.SiteChat.VisitorCall(context.Background(), access, mustUUID(t, call))
			if err != nil || got.Status != "missed" || got.EndReason != "no_answer" {
				t.Fatalf("call after 45 s: %+v %v", got, err)
			}
		})
		t.Run("another visit's call is not the visitor's", func(t *testing.T) {
			other := e.visitor(site.publicKey, "other-caller-0123456789")
			call := request()
			e.do(other.as(req{method: "POST", path: "/api/v1/public/site-chat/calls/" + call + "/end"})).expect(t, http.StatusUnauthorized, "X-Visitor-Token")
			status(visitor(call, "end", nil), http.StatusOK)
		})
	})
}

func TestSiteChatVisitCallsAreListed(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		site := e.chatSite("Ada")
		v := e.visitor(site.publicKey, "listed-caller-0123456789")
		other := e.visitor(site.publicKey, "another-caller-0123456789")
		calls := "/api/v1/site-visit-sessions/" + v.sessionID + "/calls"
		offer := func(visit chatVisitor, media string) string {
			return e.do(req{method: "POST", path: "/api/v1/site-visit-sessions/" + visit.sessionID + "/call-offer", token: site.owner.token,
				body: map[string]any{"media_kind": media, "recording_enabled": true}}).expect(t, http.StatusCreated).str("call_session_id")
		}
		first := offer(v, "audio")
		e.do(v.as(req{method: "POST", path: "/api/v1/public/site-chat/calls/" + first + "/reject", body: map[string]any{}})).expect(t, http.StatusOK)
		second := offer(v, "video")
		offer(other, "audio")

		t.Run("a visit's calls, oldest first or newest first, not another visit's", func(t *testing.T) {
			items := e.do(req{method: "GET", path: calls, token: site.owner.token}).expect(t, http.StatusOK).items()
			if len(items) != 2 || items[0]["call_session_id"] != first || items[0]["status"] != "rejected" ||
				items[1]["call_session_id"] != second || items[1]["status"] != "offered" || items[1]["media_kind"] != "video" {
				t.Fatalf("calls: %v", items)
			}
			newest := e.do(req{method: "GET", path: calls + "?order=desc&limit=1", token: site.owner.token}).expect(t, http.StatusOK)
			if items := newest.items(); len(items) != 1 || items[0]["call_session_id"] != second || newest.str("next_cursor") == "" {
				t.Fatalf("newest first: %s", newest.Body)
			}
			rest := e.do(req{method: "GET", path: calls + "?order=desc&limit=1&cursor=" + newest.str("next_cursor"), token: site.owner.token}).
				expect(t, http.StatusOK)
			if items := rest.items(); len(items) != 1 || items[0]["call_session_id"] != first || rest.str("next_cursor") != "" {
				t.Fatalf("the next page: %s", rest.Body)
			}
		})
		t.Run("a viewer reads them; another company does not find the visit", func(t *testing.T) {
			viewer := e.signUp("Vera")
			e.addToCompany(site.owner, site.company, viewer, "viewer")
			if items := e.do(req{method: "GET", path: calls, token: viewer.token}).expect(t, http.StatusOK).items(); len(items) != 2 {
				t.Fatalf("the viewer read %d calls", len(items))
			}
			stranger := e.chatSite("Mallory")
			e.do(req{method: "GET", path: calls, token: stranger.owner.token}).expect(t, http.StatusNotFound)
		})
	})
}
