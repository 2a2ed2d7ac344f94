package messenger

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"agencyhub/activities/egress"
)

const tokenA, tokenB = "4242:secret-A", "secret-B"

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// loopback is the egress client with loopback allow-listed.
func loopback(t *testing.T) *http.Client {
	t.Helper()
	p, err := egress.ParsePolicy("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c := egress.NewClient(p, 0)
	c.Timeout = 5 * time.Second
	return c
}

func startServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func TestClientAGetMeReturnsTheBot(t *testing.T) {
	srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/bot"+tokenA+"/getMe" {
			writeJSON(w, 404, map[string]any{"ok": false, "error_code": 404, "description": "Not Found"})
			return
		}
		writeJSON(w, 200, map[string]any{"ok": true, "result": map[string]any{"id": 4242, "is_bot": true, "username": "agency_bot"}})
	})
	c, err := NewClientA(loopback(t), srv.URL, tokenA)
	if err != nil {
		t.Fatal(err)
	}
	me, err := c.GetMe(context.Background())
	if err != nil || me["username"] != "agency_bot" {
		t.Fatalf("GetMe = %v, %v", me, err)
	}
}

func TestClientAGetUpdatesPollsFromTheOffset(t *testing.T) {
	var query string
	srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		writeJSON(w, 200, map[string]any{"ok": true, "result": []any{
			map[string]any{"update_id": 11, "message": map[string]any{"text": "/start"}},
			map[string]any{"update_id": 12, "message": map[string]any{"text": "hi"}},
		}})
	})
	c, _ := NewClientA(loopback(t), srv.URL, tokenA)
	updates, err := c.GetUpdates(context.Background(), UpdatesRequest{Offset: 11, Timeout: 25 * time.Second, AllowedUpdates: []string{"message"}})
	if err != nil {
		t.Fatalf("GetUpdates: %v", err)
	}
	if query != "allowed_updates=%5B%22message%22%5D&offset=11&timeout=25" {
		t.Errorf("query = %s", query)
	}
	if len(updates) != 2 || updates[0].ID != 11 || updates[1].ID != 12 || !strings.Contains(string(updates[1].Raw), `"hi"`) {
		t.Fatalf("updates = %+v", updates)
	}
}

func TestClientAReportsTheAPIsRefusal(t *testing.T) {
	srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 429, map[string]any{"ok": false, "error_code": 429, "description": "Too Many Requests: retry after 3", "parameters": map[string]any{"retry_after": 3}})
	})
	c, _ := NewClientA(loopback(t), srv.URL, tokenA)
	_, err := c.SendMessage(context.Background(), MessageA{ChatID: "1", Text: "x"})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *Error", err)
	}
	if !e.Sent || e.StatusCode != 429 || e.Code != "429" || e.RetryAfter != 3*time.Second || !strings.Contains(e.Description, "retry after 3") {
		t.Fatalf("error = %+v", e)
	}
}

func TestClientBMeAndSendMessageUseTheBearerToken(t *testing.T) {
	srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+tokenB {
			writeJSON(w, 401, map[string]any{"error": map[string]any{"code": "unauthorized", "message": "bad token"}})
			return
		}
		switch r.URL.Path {
		case "/v1/me":
			writeJSON(w, 200, map[string]any{"id": "bot-1", "name": "Agency"})
		case "/v1/messages":
			writeJSON(w, 200, map[string]any{"message_id": 77})
		}
	})
	c, err := NewClientB(loopback(t), srv.URL+"/", tokenB)
	if err != nil {
		t.Fatal(err)
	}
	if me, err := c.Me(context.Background()); err != nil || me["id"] != "bot-1" {
		t.Fatalf("Me = %v, %v", me, err)
	}
	if sent, err := c.SendMessage(context.Background(), MessageB{ChatID: "c", Text: "t"}); err != nil || sent.MessageID != "77" {
		t.Fatalf("SendMessage = %+v, %v", sent, err)
	}
	wrong, _ := NewClientB(loopback(t), srv.URL, "other")
	_, err = wrong.Me(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 401 || e.Code != "unauthorized" || e.Description != "bad token" {
		t.Fatalf("Me with a wrong token = %v", err)
	}
}

func TestErrorsNeverRepeatTheToken(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()

	t.Run("a call that cannot connect", func(t *testing.T) {
		c, _ := NewClientA(loopback(t), closed, tokenA)
		_, err := c.SendMessage(context.Background(), MessageA{ChatID: "1", Text: "x"})
		var e *Error
		if !errors.As(err, &e) || e.Sent || strings.Contains(err.Error(), "secret") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a refused egress", func(t *testing.T) {
		c, _ := NewClientA(egress.NewClient(egress.Policy{}, 0), closed, tokenA)
		_, err := c.GetMe(context.Background())
		if !egress.IsRefused(err) || strings.Contains(err.Error(), "secret") {
			t.Fatalf("err = %v, want a refusal without the token", err)
		}
	})
	t.Run("an API description that quotes the token", func(t *testing.T) {
		srv := startServer(t, func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 400, map[string]any{"ok": false, "error_code": 400, "description": "bad path " + r.URL.Path})
		})
		c, _ := NewClientA(loopback(t), srv.URL, tokenA)
		_, err := c.GetMe(context.Background())
		if err == nil || strings.Contains(err.Error(), "secret") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a token or base URL the client refuses", func(t *testing.T) {
		for _, tt := range []struct{ base, token string }{{"ftp://x", tokenA}, {"https://x", "secret/../x"}, {"https://x", "secret token"}} {
			if _, err := NewClientA(nil, tt.base, tt.token); err == nil || strings.Contains(err.Error(), "secret") {
				t.Fatalf("NewClientA(%q, token) = %v", tt.base, err)
			}
		}
	})
}
