package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"agencyhub/activities/egress"
	"agencyhub/activities/llm"
)

// provider is a local OpenAI-compatible server: it records what it was asked and answers
// with what the test gives it.
type provider struct {
	*httptest.Server
	// asked is the last request: its method, path, Authorization header and JSON body.
	method, path, auth string
	body               map[string]any
	calls              int
	answer             http.HandlerFunc
}

func newProvider(t *testing.T, answer http.HandlerFunc) *provider {
	t.Helper()
	p := &provider{answer: answer}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.method, p.path, p.auth, p.body = r.Method, r.URL.Path, r.Header.Get("Authorization"), nil
		p.calls++
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &p.body)
		p.answer(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

// client calls p through the egress client, with loopback allowed as tests allow it.
func (p *provider) client(t *testing.T, key string) *llm.Client {
	t.Helper()
	policy, err := egress.ParsePolicy("127.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	return &llm.Client{HTTP: egress.NewClient(policy, 0), BaseURL: p.URL + "/v1/", APIKey: key}
}

func events(w http.ResponseWriter, chunks ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, c := range chunks {
		fmt.Fprintf(w, "data: %s\n\n", c)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func TestChatStreamsTextAndJoinsToolCallPieces(t *testing.T) {
	p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) {
		events(w,
			`{"model":"m-1","choices":[{"index":0,"delta":{"content":"Looking "}}]}`,
			`{"model":"m-1","choices":[{"index":0,"delta":{"content":"it up."}}]}`,
			`{"model":"m-1","choices":[{"index":0,"delta":{"tool_calls":[`+
				`{"index":0,"id":"call_a","type":"function","function":{"name":"get_run","arguments":"{\"workflow_"}},`+
				`{"index":1,"id":"call_b","type":"function","function":{"name":"list_runs","arguments":""}}]}}]}`,
			`{"model":"m-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"run_id\":\"r1\"}"}}]}}]}`,
			`{"model":"m-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}}]}`,
			`{"model":"m-1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
	})
	req := llm.Request{
		Model: "m-1",
		Messages: []llm.Message{
			{Role: "system", Content: "You help."},
			{Role: "user", Content: "What happened to r1?"},
			{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "call_0", Name: "get_run", Arguments: `{"workflow_run_id":"r0"}`}}},
			{Role: "tool", ToolCallID: "call_0", Content: `{"status":"ok"}`},
		},
		Tools: []llm.Tool{{Name: "get_run", Description: "Read a run.", Parameters: map[string]any{"type": "object"}}},
	}
	var deltas []string
	reply, err := p.client(t, "sk-test").Chat(context.Background(), req, func(d string) error {
		deltas = append(deltas, d)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.method != http.MethodPost || p.path != "/v1/chat/completions" || p.auth != "Bearer sk-test" || p.body["stream"] != true {
		t.Fatalf("asked %s %s (%q) stream=%v", p.method, p.path, p.auth, p.body["stream"])
	}
	sent, _ := json.Marshal(map[string]any{"model": p.body["model"], "messages": p.body["messages"], "tools": p.body["tools"]})
	for _, want := range []string{
		`"model":"m-1"`,
		`{"content":"You help.","role":"system"}`,
		`"tool_calls":[{"function":{"arguments":"{\"workflow_run_id\":\"r0\"}","name":"get_run"},"id":"call_0","type":"function"}]`,
		`{"content":"{\"status\":\"ok\"}","role":"tool","tool_call_id":"call_0"}`,
		`"tools":[{"function":{"description":"Read a run.","name":"get_run","parameters":{"type":"object"}},"type":"function"}]`,
	} {
		if !strings.Contains(string(sent), want) {
			t.Errorf("request %s lacks %s", sent, want)
		}
	}
	if strings.Join(deltas, "|") != "Looking |it up." || reply.Content != "Looking it up." || reply.Model != "m-1" {
		t.Fatalf("deltas %q, reply %+v", deltas, reply)
	}
	want := []llm.ToolCall{{ID: "call_a", Name: "get_run", Arguments: `{"workflow_run_id":"r1"}`}, {ID: "call_b", Name: "list_runs", Arguments: "{}"}}
	if fmt.Sprint(reply.ToolCalls) != fmt.Sprint(want) {
		t.Fatalf("tool calls %+v, want %+v", reply.ToolCalls, want)
	}
}

func TestChatReadsAnAnswerThatIsNotStreamed(t *testing.T) {
	p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"model":"m-2","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"On it.",`+
			`"tool_calls":[{"id":"call_x","type":"function","function":{"name":"get_run","arguments":"{}"}}]}}]}`)
	})
	reply, err := p.client(t, "sk-test").Chat(context.Background(), llm.Request{Model: "m-2"}, func(string) error {
		t.Fatal("a whole answer has no deltas")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != "On it." || reply.Model != "m-2" || len(reply.ToolCalls) != 1 || reply.ToolCalls[0] != (llm.ToolCall{ID: "call_x", Name: "get_run", Arguments: "{}"}) {
		t.Fatalf("reply %+v", reply)
	}
}

func TestChatAsksForJSONMatchingTheOutputSchema(t *testing.T) {
	p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) {
		events(w, `{"choices":[{"index":0,"delta":{"content":"{}"}}]}`)
	})
	schema := map[string]any{"type": "object", "required": []any{"status"}}
	if _, err := p.client(t, "").Chat(context.Background(), llm.Request{Model: "m", OutputSchema: schema}, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(p.body["response_format"])
	if string(got) != `{"json_schema":{"name":"output","schema":{"required":["status"],"type":"object"}},"type":"json_schema"}` {
		t.Fatalf("response_format %s", got)
	}
	if p.auth != "" {
		t.Fatalf("Authorization %q sent without a key", p.auth)
	}
}

func TestChatStopsWhenTheCallerRefusesADelta(t *testing.T) {
	p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) {
		events(w, `{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":"b"}}]}`)
	})
	stop := errors.New("stop")
	n := 0
	_, err := p.client(t, "").Chat(context.Background(), llm.Request{Model: "m"}, func(string) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("error %v after %d deltas, want the caller's after one", err, n)
	}
}

func TestProviderFailuresCarryTheStatusAndTheProvidersWords(t *testing.T) {
	long := strings.Repeat("x", 400)
	cases := []struct {
		name    string
		status  int
		header  http.Header
		body    string
		message string
		wait    time.Duration
	}{
		{"a refused key", http.StatusUnauthorized, nil, `{"error":{"message":"bad key","type":"invalid_request_error"}}`, "bad key", 0},
		{"a rate limit, with its wait", http.StatusTooManyRequests, http.Header{"Retry-After": {"7"}}, `{"error":{"message":"slow down"}}`, "slow down", 7 * time.Second},
		{"a proxy's page for a provider that is down", http.StatusBadGateway, http.Header{"Content-Type": {"text/html"}}, "<h1>Bad gateway</h1>", "<h1>Bad gateway</h1>", 0},
		{"an error that is a string", http.StatusBadRequest, nil, `{"error":"no such model"}`, `{"error":"no such model"}`, 0},
		{"a long text, cut", http.StatusInternalServerError, nil, long, long[:300], 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) {
				for k, v := range tc.header {
					w.Header()[k] = v
				}
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			})
			_, chatErr := p.client(t, "sk-test").Chat(context.Background(), llm.Request{Model: "m"}, nil)
			_, listErr := p.client(t, "sk-test").Models(context.Background())
			if p.calls != 2 {
				t.Fatalf("%d calls for one chat and one list: the workflow retries, not the client", p.calls)
			}
			for _, err := range []error{chatErr, listErr} {
				var le *llm.Error
				if !errors.As(err, &le) || le.StatusCode != tc.status || le.Message != tc.message || le.RetryAfter != tc.wait || le.Refused() {
					t.Fatalf("error %#v, want status %d with %q", err, tc.status, tc.message)
				}
				if want := fmt.Sprintf("the model provider answered %d %s: %s", tc.status, http.StatusText(tc.status), tc.message); err.Error() != want {
					t.Fatalf("says %q, want %q", err, want)
				}
			}
		})
	}
}

func TestAProviderThatCannotBeReachedHasNoStatus(t *testing.T) {
	p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) { t.Error("the refused address was called") })
	refused := &llm.Client{HTTP: egress.NewClient(egress.Policy{}, 0), BaseURL: p.URL + "/v1", APIKey: "sk-test"}
	_, chatErr := refused.Chat(context.Background(), llm.Request{Model: "m"}, nil)
	_, listErr := refused.Models(context.Background())
	for _, err := range []error{chatErr, listErr} {
		var le *llm.Error
		if !errors.As(err, &le) || le.StatusCode != 0 || !le.Refused() || !strings.HasPrefix(err.Error(), "the model provider could not be reached: ") {
			t.Fatalf("through a policy refusing loopback: %v, want a refusal", err)
		}
	}

	gone := newProvider(t, nil)
	client := gone.client(t, "sk-test")
	gone.Close()
	_, err := client.Chat(context.Background(), llm.Request{Model: "m"}, nil)
	var le *llm.Error
	if !errors.As(err, &le) || le.StatusCode != 0 || le.Refused() || err.Error() != "the model provider could not be reached: connection refused" {
		t.Fatalf("a closed port: %v", err)
	}
}

func TestARedirectToAnotherHostIsNotFollowed(t *testing.T) {
	elsewhere := newProvider(t, func(w http.ResponseWriter, _ *http.Request) { t.Error("the key was taken to another host") })
	p := newProvider(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
	})
	_, err := p.client(t, "sk-test").Chat(context.Background(), llm.Request{Model: "m"}, nil)
	var le *llm.Error
	if !errors.As(err, &le) || le.StatusCode != 0 || elsewhere.calls != 0 {
		t.Fatalf("error %v, want the call unanswered", err)
	}
}

func TestAStreamThatIsNotTheProtocolsFails(t *testing.T) {
	p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) {
		events(w, `{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":`)
	})
	_, err := p.client(t, "").Chat(context.Background(), llm.Request{Model: "m"}, nil)
	var le *llm.Error
	if !errors.As(err, &le) || le.StatusCode != http.StatusOK || le.Message != "a streamed chunk is not JSON" {
		t.Fatalf("error %v", err)
	}
}

func TestAnErrorEventEndsTheStreamWithTheProvidersWords(t *testing.T) {
	p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) {
		events(w, `{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"error":{"message":"the model is overloaded"}}`)
	})
	_, err := p.client(t, "").Chat(context.Background(), llm.Request{Model: "m"}, nil)
	var le *llm.Error
	if !errors.As(err, &le) || le.StatusCode != http.StatusOK || le.Message != "the model is overloaded" {
		t.Fatalf("error %v, want the provider's words", err)
	}
}

func TestTheServersOpenAIEnvironmentReachesNoProvider(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-server")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1/")
	t.Setenv("OPENAI_ORG_ID", "org-server")
	p := newProvider(t, func(w http.ResponseWriter, r *http.Request) {
		if org := r.Header.Get("OpenAI-Organization"); org != "" {
			t.Errorf("organization %q sent", org)
		}
		events(w, `{"choices":[{"index":0,"delta":{"content":"hi"}}]}`)
	})
	reply, err := p.client(t, "").Chat(context.Background(), llm.Request{Model: "m"}, nil)
	if err != nil || reply.Content != "hi" || p.auth != "" {
		t.Fatalf("reply %+v, error %v, Authorization %q: want the integration's provider, without a key", reply, err, p.auth)
	}
}

func TestModelsListsTheProvidersModels(t *testing.T) {
	p := newProvider(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[{"id":"m-1","object":"model","owned_by":"local"},{"id":"m-2","owned_by":"lab"}]}`)
	})
	list, err := p.client(t, "sk-test").Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if p.method != http.MethodGet || p.path != "/v1/models" || p.auth != "Bearer sk-test" {
		t.Fatalf("asked %s %s (%q)", p.method, p.path, p.auth)
	}
	if fmt.Sprint(list) != "[{m-1 local} {m-2 lab}]" {
		t.Fatalf("models %+v", list)
	}
}
