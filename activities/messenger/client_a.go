package messenger

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ClientA speaks messenger_a's Bot-API-style protocol: every method is
// {base}/bot{token}/{method}, answering {"ok": true, "result": ...} or {"ok": false,
// "error_code": N, "description": "...", "parameters": {"retry_after": N}}.
type ClientA struct {
	api
}

// NewClientA returns a client for the bot with token at baseURL, calling through hc (the
// egress client; nil means one with the zero Policy). It refuses a base URL that is not absolute http(s) and a token that could
// not be a path segment; its error never repeats the token.
func NewClientA(hc *http.Client, baseURL, token string) (*ClientA, error) {
	a, err := newAPI(ProviderA, hc, baseURL, token)
	if err != nil {
		return nil, err
	}
	return &ClientA{a}, nil
}

// MessageA is a text message to send. ChatID is a numeric chat id or an @channel name.
type MessageA struct {
	ChatID    string `json:"chat_id"`
	Text      string `json:"text"`
	ParseMode string `json:"parse_mode,omitempty"`
}

// SentA is a message the API accepted.
type SentA struct {
	MessageID int64
	// ChatID is the chat as the API reports it (a number or an @name), spelled as text.
	ChatID string
	// Response is the API's whole answer.
	Response map[string]any
}

// SendMessage sends m with POST sendMessage. Sending is not idempotent: an *Error with Sent
// and no answer means the message may have been delivered.
func (c *ClientA) SendMessage(ctx context.Context, m MessageA) (SentA, error) {
	var result struct {
		MessageID int64 `json:"message_id"`
		Chat      struct {
			ID json.RawMessage `json:"id"`
		} `json:"chat"`
	}
	raw, err := c.call(ctx, http.MethodPost, "sendMessage", nil, m, &result)
	if err != nil {
		return SentA{}, err
	}
	if result.MessageID == 0 {
		return SentA{}, &Error{Provider: ProviderA, Method: "sendMessage", Sent: true, StatusCode: http.StatusOK,
			Description: "the answer has no message_id", Response: raw}
	}
	return SentA{MessageID: result.MessageID, ChatID: strings.Trim(string(result.Chat.ID), `"`), Response: raw}, nil
}

// GetMe returns the bot's own user object; it is how an integration's token is tested.
func (c *ClientA) GetMe(ctx context.Context) (map[string]any, error) {
	var me map[string]any
	if _, err := c.call(ctx, http.MethodGet, "getMe", nil, nil, &me); err != nil {
		return nil, err
	}
	return me, nil
}

// UpdatesRequest selects updates for GetUpdates.
type UpdatesRequest struct {
	// Offset is one more than the last update id already handled; 0 returns the oldest.
	Offset int64
	// Timeout is how long the API may hold the call open waiting for updates (long
	// polling); the HTTP client's own timeout must be longer.
	Timeout time.Duration
	// AllowedUpdates limits the update types; empty keeps the bot's setting.
	AllowedUpdates []string
}

// Update is one bot update: its id and the update object as the API sent it.
type Update struct {
	ID  int64
	Raw json.RawMessage
}

// GetUpdates long-polls GET getUpdates for updates after r.Offset.
func (c *ClientA) GetUpdates(ctx context.Context, r UpdatesRequest) ([]Update, error) {
	q := url.Values{}
	if r.Offset != 0 {
		q.Set("offset", strconv.FormatInt(r.Offset, 10))
	}
	q.Set("timeout", strconv.Itoa(int(r.Timeout/time.Second)))
	if len(r.AllowedUpdates) > 0 {
		b, _ := json.Marshal(r.AllowedUpdates)
		q.Set("allowed_updates", string(b))
	}
	var raws []json.RawMessage
	if _, err := c.call(ctx, http.MethodGet, "getUpdates", q, nil, &raws); err != nil {
		return nil, err
	}
	updates := make([]Update, 0, len(raws))
	for _, raw := range raws {
		var head struct {
			UpdateID int64 `json:"update_id"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, &Error{Provider: ProviderA, Method: "getUpdates", Sent: true, StatusCode: http.StatusOK,
				Description: "an update is not an object with update_id"}
		}
		updates = append(updates, Update{ID: head.UpdateID, Raw: raw})
	}
	return updates, nil
}

// envelopeA is the frame of every messenger_a answer.
type envelopeA struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// call invokes one API method with payload as JSON (none when nil) and decodes the result
// into out. It returns the whole answer as a map for diagnostics.
func (c *ClientA) call(ctx context.Context, httpMethod, method string, query url.Values, payload, out any) (map[string]any, error) {
	endpoint := c.base + "/bot" + c.token + "/" + method
	if len(query) > 0 {
		endpoint += "?" + query.Encode()
	}
	var body *bytes.Reader
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encode request: %w", ProviderA, method, err)
		}
		body = bytes.NewReader(b)
	} else {
		body = bytes.NewReader(nil)
	}
	req, err := http.NewRequestWithContext(ctx, httpMethod, endpoint, body)
	if err != nil {
		return nil, &Error{Provider: ProviderA, Method: method, cause: redact(err, c.token)}
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	ans, err := c.do(ctx, method, req)
	if err != nil {
		return nil, err
	}

	var env envelopeA
	var raw map[string]any
	if json.Unmarshal(ans.body, &env) != nil || json.Unmarshal(ans.body, &raw) != nil {
		e := &Error{Provider: ProviderA, Method: method, Sent: true, StatusCode: ans.status, RetryAfter: ans.retryAfter(0)}
		if ans.status < 400 {
			e.Description = "the answer is not JSON"
		}
		return nil, e
	}
	raw, _ = redactValue(raw, c.token).(map[string]any)
	if !env.OK {
		status := ans.status
		if status < 400 && env.ErrorCode >= 400 {
			status = env.ErrorCode
		}
		if status < 400 {
			status = http.StatusBadGateway // "ok": false under a success status is a broken gateway
		}
		e := &Error{Provider: ProviderA, Method: method, Sent: true, StatusCode: status,
			Description: redactString(env.Description, c.token), RetryAfter: ans.retryAfter(env.Parameters.RetryAfter), Response: raw}
		if env.ErrorCode != 0 {
			e.Code = strconv.Itoa(env.ErrorCode)
		}
		return nil, e
	}
	if out != nil && json.Unmarshal(env.Result, out) != nil {
		return nil, &Error{Provider: ProviderA, Method: method, Sent: true, StatusCode: ans.status,
			Description: "the result is not what " + method + " returns", Response: raw}
	}
	return raw, nil
}
