package messenger

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// ClientB speaks messenger_b's REST protocol: the token goes in Authorization: Bearer;
// errors are an HTTP status with {"error": {"code": "...", "message": "..."}}.
type ClientB struct {
	api
}

// NewClientB returns a client for the bot with token at baseURL, calling through hc (the
// egress client; nil means one with the zero Policy). Its error never repeats the token.
func NewClientB(hc *http.Client, baseURL, token string) (*ClientB, error) {
	a, err := newAPI(ProviderB, hc, baseURL, token)
	if err != nil {
		return nil, err
	}
	return &ClientB{a}, nil
}

// MessageB is a text message to send.
type MessageB struct {
	ChatID string `json:"chat_id"`
	Text   string `json:"text"`
}

// SentB is a message the API accepted.
type SentB struct {
	MessageID string
	// Response is the API's whole answer.
	Response map[string]any
}

// SendMessage sends m with POST /v1/messages. Sending is not idempotent: an *Error with
// Sent and no answer means the message may have been delivered.
func (c *ClientB) SendMessage(ctx context.Context, m MessageB) (SentB, error) {
	raw, err := c.call(ctx, http.MethodPost, "/v1/messages", "messages", m)
	if err != nil {
		return SentB{}, err
	}
	var id string
	switch v := raw["message_id"].(type) {
	case string:
		id = v
	case float64:
		id = strconv.FormatFloat(v, 'f', -1, 64)
	}
	if id == "" {
		return SentB{}, &Error{Provider: ProviderB, Method: "messages", Sent: true, StatusCode: http.StatusOK,
			Description: "the answer has no message_id", Response: raw}
	}
	return SentB{MessageID: id, Response: raw}, nil
}

// Me returns the bot's own profile (GET /v1/me); it is how an integration's token is tested.
func (c *ClientB) Me(ctx context.Context) (map[string]any, error) {
	return c.call(ctx, http.MethodGet, "/v1/me", "me", nil)
}

// call sends payload as JSON (none when nil) to path and returns the JSON answer.
func (c *ClientB) call(ctx context.Context, httpMethod, path, method string, payload any) (map[string]any, error) {
	var body *bytes.Reader
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encode request: %w", ProviderB, method, err)
		}
		body = bytes.NewReader(b)
	} else {
		body = bytes.NewReader(nil)
	}
	req, err := http.NewRequestWithContext(ctx, httpMethod, c.base+path, body)
	if err != nil {
		return nil, &Error{Provider: ProviderB, Method: method, cause: redact(err, c.token)}
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	ans, err := c.do(ctx, method, req)
	if err != nil {
		return nil, err
	}

	var raw map[string]any
	jsonErr := json.Unmarshal(ans.body, &raw)
	raw, _ = redactValue(raw, c.token).(map[string]any)
	if ans.status >= 400 {
		e := &Error{Provider: ProviderB, Method: method, Sent: true, StatusCode: ans.status, RetryAfter: ans.retryAfter(0), Response: raw}
		if apiErr, ok := raw["error"].(map[string]any); ok {
			e.Code, _ = apiErr["code"].(string)
			msg, _ := apiErr["message"].(string)
			e.Description = redactString(msg, c.token)
		}
		return nil, e
	}
	if jsonErr != nil {
		return nil, &Error{
			Provider:    ProviderB,
			Method:      method,
			Sent:        true,
			StatusCode:  ans.status,
			Description: "the answer is not a JSON object",
		}
	}
	return raw, nil
}
