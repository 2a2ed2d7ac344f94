package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"

	"agencyhub/activities/egress"
)

// Client calls one provider.
type Client struct {
	HTTP    *http.Client
	BaseURL string
	APIKey  string
}

// Message is one chat message: Role is system, user, assistant or tool. An assistant
// message may carry ToolCalls; a tool message answers the call ToolCallID.
type Message struct {
	Role       string
	Content    string
	ToolCalls  []ToolCall
	ToolCallID string
}

// ToolCall is a function call the model asked for; Arguments is JSON text.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Tool is a function the model may call; Parameters is its input's JSON Schema.
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// Request is one chat completion.
type Request struct {
	Model    string
	Messages []Message
	Tools    []Tool
	// OutputSchema, when set, asks for an answer that is JSON matching it (the protocol's
	// json_schema response format, which OpenAI, llama.cpp, vLLM and Ollama honour); the
	// answer is still checked.
	OutputSchema map[string]any
}

// Reply is the model's answer: text, tool calls, or both.
type Reply struct {
	Model     string
	Content   string
	ToolCalls []ToolCall
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

// options configure the SDK for this provider alone: its services are built from these
// options rather than by openai.NewClient, which would add OPENAI_* settings from the
// server's environment (a key, a base URL) to calls to a user's host. The SDK does not
// retry: the workflow's retry policy does, by the class of the failure.
func (c *Client) options() []option.RequestOption {
	opts := []option.RequestOption{
		option.WithHTTPClient(c.HTTP),
		option.WithBaseURL(c.BaseURL),
		option.WithMaxRetries(0),
		option.WithMiddleware(answered),
	}
	if c.APIKey != "" {
		opts = append(opts, option.WithAPIKey(c.APIKey))
	}
	return opts
}

// answered turns an answer with a status of 300 or more into *Error, with the provider's
// words and the wait it asked for, before the SDK reads it. A successful answer that is
// not an event stream is the protocol's JSON, which local servers do not always label.
func answered(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 300 {
		if !isEventStream(resp) {
			resp.Header.Set("Content-Type", "application/json")
		}
		return resp, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	e := &Error{StatusCode: resp.StatusCode, Message: errorMessage(raw)}
	if wait, ok := egress.RetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = wait
	}
	return nil, e
}

func isEventStream(resp *http.Response) bool {
	return strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
}

// unanswered is the *Error of a call that failed before an answer: the one answered
// made, or one without a status.
func unanswered(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Err: err}
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
	ID      string
	OwnedBy string
}

// Models answers the provider's model list (GET {base_url}/models).
func (c *Client) Models(ctx context.Context) ([]Model, error) {
	var resp *http.Response
	service := openai.NewModelService(c.options()...)
	page, err := service.List(ctx, option.WithResponseInto(&resp))
	if err != nil && resp != nil {
		return nil, &Error{StatusCode: resp.StatusCode, Message: "the model list is not the protocol's JSON", Err: err}
	}
	if err != nil {
		return nil, unanswered(err)
	}
	out := make([]Model, len(page.Data))
	for i, m := range page.Data {
		out[i] = Model{ID: m.ID, OwnedBy: m.OwnedBy}
	}
	return out, nil
}

// Chat asks for one completion and streams it (POST {base_url}/chat/completions): onDelta
// gets each piece of text as it arrives (nil ignores them). A provider that answers
// without streaming is read whole.
func (c *Client) Chat(ctx context.Context, req Request, onDelta func(string) error) (Reply, error) {
	params, err := req.params()
	if err != nil {
		return Reply{}, err
	}
	var resp *http.Response
	service := openai.NewChatCompletionService(c.options()...)
	stream := service.NewStreaming(ctx, params, option.WithResponseInto(&resp))
	defer stream.Close()
	if err := stream.Err(); err != nil {
		return Reply{}, unanswered(err)
	}
	if !isEventStream(resp) {
		return readWhole(resp)
	}
	return readStream(resp, stream, onDelta)
}

// params is the request in the SDK's terms.
func (req Request) params() (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: req.Model}
	for _, m := range req.Messages {
		msg, err := m.param()
		if err != nil {
			return p, err
		}
		p.Messages = append(p.Messages, msg)
	}
	for _, t := range req.Tools {
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: openai.String(t.Description),
			Parameters:  t.Parameters,
		}))
	}
	if req.OutputSchema != nil {
		p.ResponseFormat.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "output", Schema: req.OutputSchema},
		}
	}
	return p, nil
}

func (m Message) param() (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case "system":
		return openai.SystemMessage(m.Content), nil
	case "user":
		return openai.UserMessage(m.Content), nil
	case "tool":
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	case "assistant":
		a := &openai.ChatCompletionAssistantMessageParam{}
		if m.Content != "" {
			a.Content.OfString = openai.String(m.Content)
		}
		for _, tc := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       tc.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: a}, nil
	}
	return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("llm: message role %q is none of system, user, assistant, tool", m.Role)
}

func readWhole(resp *http.Response) (Reply, error) {
	var body openai.ChatCompletion
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || len(body.Choices) == 0 {
		return Reply{}, &Error{StatusCode: resp.StatusCode, Message: "the answer is not a chat completion", Err: err}
	}
	msg := body.Choices[0].Message
	r := Reply{Model: body.Model, Content: msg.Content}
	for _, tc := range msg.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return r, nil
}

// readStream assembles a streamed completion: text deltas are joined, and tool call
// pieces are joined per index (a piece without one starts a new call).
func readStream(resp *http.Response, stream *ssestream.Stream[openai.ChatCompletionChunk], onDelta func(string) error) (Reply, error) {
	var r Reply
	var text strings.Builder
	for stream.Next() {
		chunk := stream.Current()
		if chunk.Model != "" {
			r.Model = chunk.Model
		}
		for _, ch := range chunk.Choices {
			if d := ch.Delta.Content; d != "" {
				text.WriteString(d)
				if onDelta != nil {
					if err := onDelta(d); err != nil {
						return Reply{}, err
					}
				}
			}
			for _, tc := range ch.Delta.ToolCalls {
				i := len(r.ToolCalls)
				if tc.JSON.Index.Valid() {
					i = int(tc.Index)
				}
				for len(r.ToolCalls) <= i {
					r.ToolCalls = append(r.ToolCalls, ToolCall{})
				}
				if tc.ID != "" {
					r.ToolCalls[i].ID = tc.ID
				}
				r.ToolCalls[i].Name += tc.Function.Name
				r.ToolCalls[i].Arguments += tc.Function.Arguments
			}
		}
	}
	if err := streamFailure(resp, stream.Err()); err != nil {
		return Reply{}, err
	}
	r.Content = text.String()
	return r, nil
}

// streamFailure maps what ended a stream early: the caller's cancellation as it is, an
// error event with the provider's words, a chunk that is not JSON, or a broken read.
func streamFailure(resp *http.Response, err error) error {
	var (
		event    *ssestream.StreamError
		syntax   *json.SyntaxError
		mistyped *json.UnmarshalTypeError
	)
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &event):
		return &Error{StatusCode: resp.StatusCode, Message: errorMessage(event.Event.Data), Err: err}
	case errors.As(err, &syntax), errors.As(err, &mistyped):
		return &Error{StatusCode: resp.StatusCode, Message: "a streamed chunk is not JSON", Err: err}
	}
	return &Error{Err: err}
}
