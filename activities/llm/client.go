package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"agencyhub/activities/egress"
)

// Client calls one provider.
type Client struct {
	HTTP    *http.Client
	BaseURL string
	APIKey  string
}

// Message is one chat message. An assistant message may carry ToolCalls; a tool message
// answers the call ToolCallID.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a function call the model asked for; Arguments is JSON text.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

type wireToolCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// MarshalJSON writes the protocol's shape.
func (t ToolCall) MarshalJSON() ([]byte, error) {
	w := wireToolCall{ID: t.ID, Type: "function"}
	w.Function.Name, w.Function.Arguments = t.Name, t.Arguments
	return json.Marshal(w)
}

// Tool is a function the model may call; Parameters is its input's JSON Schema.
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// MarshalJSON writes the protocol's shape.
func (t Tool) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"type": "function", "function": map[string]any{
		"name": t.Name, "description": t.Description, "parameters": t.Parameters}})
}

// Request is one chat completion.
type Request struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools,omitempty"`
	Stream   bool      `json:"stream"`
	// ResponseFormat asks for JSON matching a schema ({"type": "json_schema", ...}), which
	// OpenAI, llama.cpp, vLLM and Ollama honour; the answer is still checked.
	ResponseFormat map[string]any `json:"response_format,omitempty"`
}

// Reply is the model's answer: text, tool calls, or both.
type Reply struct {
	Model        string
	Content      string
	ToolCalls    []ToolCall
	FinishReason string
	Usage        map[string]any
}

// Error is a provider call that failed: StatusCode 0 when it never answered.
type Error struct {
	StatusCode int
	Message    string
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	if e.StatusCode == 0 {
		return "the model provider could not be reached: " + egress.Reason(e.Err)
	}
	return fmt.Sprintf("the model provider answered %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Refused reports whether the egress policy refused the provider's address.
func (e *Error) Refused() bool { return e.StatusCode == 0 && egress.IsRefused(e.Err) }

func (c *Client) url(path string) string { return strings.TrimRight(c.BaseURL, "/") + path }

func (c *Client) do(ctx context.Context, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.url(path), rd)
	if err != nil {
		return nil, &Error{Err: err}
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, &Error{Err: err}
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		e := &Error{StatusCode: resp.StatusCode, Message: errorMessage(raw)}
		if wait, ok := egress.RetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			e.RetryAfter = wait
		}
		return nil, e
	}
	return resp, nil
}

// errorMessage reads the protocol's {"error": {"message": ...}} or gives the text.
func errorMessage(raw []byte) string {
	var body struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &body) == nil && body.Error.Message != "" {
		return body.Error.Message
	}
	text := strings.TrimSpace(string(raw))
	if len(text) > 300 {
		text = text[:300]
	}
	return text
}

// Model is one entry of the provider's model list.
type Model struct {
	ID      string `json:"id"`
	OwnedBy string `json:"owned_by"`
}

// Models answers the provider's model list.
func (c *Client) Models(ctx context.Context) ([]Model, error) {
	resp, err := c.do(ctx, http.MethodGet, "/models", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body struct {
		Data []Model `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, &Error{StatusCode: resp.StatusCode, Message: "the model list is not the protocol's JSON", Err: err}
	}
	return body.Data, nil
}

// Chat asks for one completion and streams it: onDelta gets each piece of text as it
// arrives (nil ignores them). A provider that answers without streaming is read whole.
func (c *Client) Chat(ctx context.Context, req Request, onDelta func(string) error) (Reply, error) {
	req.Stream = true
	resp, err := c.do(ctx, http.MethodPost, "/chat/completions", req)
	if err != nil {
		return Reply{}, err
	}
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return readWhole(resp)
	}
	return readStream(resp, onDelta)
}

type choice struct {
	Message      wireMessage `json:"message"`
	Delta        wireMessage `json:"delta"`
	FinishReason string      `json:"finish_reason"`
}

type wireMessage struct {
	Content   string         `json:"content"`
	ToolCalls []wireToolCall `json:"tool_calls"`
}

type completion struct {
	Model   string         `json:"model"`
	Choices []choice       `json:"choices"`
	Usage   map[string]any `json:"usage"`
}

func readWhole(resp *http.Response) (Reply, error) {
	var body completion
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || len(body.Choices) == 0 {
		return Reply{}, &Error{StatusCode: resp.StatusCode, Message: "the answer is not a chat completion", Err: err}
	}
	ch := body.Choices[0]
	r := Reply{Model: body.Model, Content: ch.Message.Content, FinishReason: ch.FinishReason, Usage: body.Usage}
	for _, tc := range ch.Message.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return r, nil
}

// readStream assembles a streamed completion: text deltas are joined, and tool call
// pieces are joined per index.
func readStream(resp *http.Response, onDelta func(string) error) (Reply, error) {
	var r Reply
	var text strings.Builder
	var calls []ToolCall
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		data, ok := strings.CutPrefix(line, "data:")
		if !ok {
			continue
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			break
		}
		var chunk completion
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return Reply{}, &Error{StatusCode: resp.StatusCode, Message: "a streamed chunk is not JSON", Err: err}
		}
		if chunk.Model != "" {
			r.Model = chunk.Model
		}
		if chunk.Usage != nil {
			r.Usage = chunk.Usage
		}
		for _, ch := range chunk.Choices {
			if ch.FinishReason != "" {
				r.FinishReason = ch.FinishReason
			}
			if d := ch.Delta.Content; d != "" {
				text.WriteString(d)
				if onDelta != nil {
					if err := onDelta(d); err != nil {
						return Reply{}, err
					}
				}
			}
			for _, tc := range ch.Delta.ToolCalls {
				i := len(calls)
				if tc.Index != nil {
					i = *tc.Index
				}
				for len(calls) <= i {
					calls = append(calls, ToolCall{})
				}
				if tc.ID != "" {
					calls[i].ID = tc.ID
				}
				calls[i].Name += tc.Function.Name
				calls[i].Arguments += tc.Function.Arguments
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return Reply{}, err
		}
		return Reply{}, &Error{Err: err}
	}
	r.Content, r.ToolCalls = text.String(), calls
	return r, nil
}
