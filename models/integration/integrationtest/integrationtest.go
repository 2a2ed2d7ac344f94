// Package integrationtest gives tests local servers that speak the providers' protocols, so
// connection tests and workflow runs use the real clients over real sockets: a messenger_a
// Bot API and a messenger_b bot API (the SMTP server is activities/mailer/smtptest). It is a
// test helper, so it sits beside the package whose tests use it.
package integrationtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BotAPI is a local bot API server that knows one bot: its token and name.
type BotAPI struct {
	URL      string
	Token    string
	Username string

	mu    sync.Mutex
	calls int
	sent  []map[string]any
	// updates are what getUpdates hands out; arrived is closed (and replaced) when one is
	// added, waking long polls.
	updates []map[string]any
	arrived chan struct{}
}

// AddUpdate queues a bot update for getUpdates, numbered after the last one (from 1) unless
// it has an update_id, and answers its id.
func (b *BotAPI) AddUpdate(update map[string]any) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	id, ok := update["update_id"].(int64)
	if !ok {
		id = int64(len(b.updates) + 1)
		update["update_id"] = id
	}
	b.updates = append(b.updates, update)
	close(b.arrived)
	b.arrived = make(chan struct{})
	return id
}

// pendingUpdates answers the updates from offset on, or the channel that tells when more
// arrive.
func (b *BotAPI) pendingUpdates(offset int64) ([]map[string]any, chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, u := range b.updates {
		if u["update_id"].(int64) >= offset {
			out = append(out, u)
		}
	}
	return out, b.arrived
}

// Calls is how many requests the server has received.
func (b *BotAPI) Calls() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls
}

// Sent returns the bodies of the messages the server accepted, in order.
func (b *BotAPI) Sent() []map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]map[string]any(nil), b.sent...)
}

// accept records a sent message and answers its message id, counting from 101.
func (b *BotAPI) accept(message map[string]any) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent = append(b.sent, message)
	return 100 + len(b.sent)
}

func (b *BotAPI) count() {
	b.mu.Lock()
	b.calls++
	b.mu.Unlock()
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// StartMessengerA serves messenger_a's Bot API at {URL}/bot{token}/{method}: getMe answers
// the bot's user, sendMessage (POST, a JSON body) records the message and answers it with a
// message id, getUpdates long-polls the updates AddUpdate queued from its offset on; any
// other token is 401 Unauthorized and any other method 404, in the API's error frame.
func StartMessengerA(t testing.TB, token, username string) *BotAPI {
	t.Helper()
	b := &BotAPI{Token: token, Username: username, arrived: make(chan struct{})}
	fail := func(w http.ResponseWriter, code int, description string) {
		writeJSON(w, code, map[string]any{"ok": false, "error_code": code, "description": description})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.count()
		switch r.URL.Path {
		case "/bot" + b.Token + "/getMe":
			writeJSON(w, http.StatusOK, map[string]any{"ok": true, "result": map[string]any{
				"id": 4242, "is_bot": true, "first_name": "Agency bot", "username": b.Username,
			}})
		case "/bot" + b.Token + "/getUpdates":
			offset, _ := strconv.ParseInt(r.URL.Query().Get("offset"), 10, 64)
			timeout, _ := strconv.Atoi(r.URL.Query().Get("timeout"))
			deadline := time.After(time.Duration(timeout) * time.Second)
			for {
				updates, arrived := b.pendingUpdates(offset)
				if len(updates) > 0 {
					writeJSON(w, http.StatusOK, map[string]any{"ok": true, "result": updates})
					return
				}
				select {
				case <-arrived:
				case <-deadline:
					writeJSON(w, http.StatusOK, map[string]any{"ok": true, "result": []any{}})
					return
				case <-r.Context().Done():
					return
				}
			}
		case "/bot" + b.Token + "/sendMessage":
			var message map[string]any
			if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&message) != nil {
				fail(w, http.StatusBadRequest, "Bad Request: the body is not a JSON object")
				return
			}
			chat, _ := message["chat_id"].(string)
			var chatID any = chat
			if n, err := strconv.ParseInt(chat, 10, 64); err == nil {
				chatID = n
			}
			writeJSON(w, http.StatusOK, map[string]any{"ok": true, "result": map[string]any{
				"message_id": b.accept(message), "chat": map[string]any{"id": chatID}, "text": message["text"],
			}})
		default:
			if !strings.HasPrefix(r.URL.Path, "/bot"+b.Token+"/") {
				fail(w, http.StatusUnauthorized, "Unauthorized")
				return
			}
			fail(w, http.StatusNotFound, "Not Found")
		}
	}))
	t.Cleanup(srv.Close)
	b.URL = srv.URL
	return b
}

// StartMessengerB serves messenger_b's GET /v1/me: the bot's profile for the known bearer
// token, 401 with the API's error object for any other.
func StartMessengerB(t testing.TB, token, name string) *BotAPI {
	t.Helper()
	b := &BotAPI{Token: token, Username: name}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.count()
		if r.Header.Get("Authorization") != "Bearer "+b.Token {
			writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{"code": "unauthorized", "message": "invalid token"}})
			return
		}
		if r.URL.Path != "/v1/me" {
			writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": "not_found", "message": "no such method"}})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": "bot-1", "name": b.Username})
	}))
	t.Cleanup(srv.Close)
	b.URL = srv.URL
	return b
}
