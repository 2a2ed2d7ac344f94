package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"agencyhub/activities/egress"
	"agencyhub/models/integration"
)

// endpoint is a local HTTP server that records the requests it gets.
type endpoint struct {
	*httptest.Server
	mu       sync.Mutex
	requests []seenRequest
}

type seenRequest struct {
	Method string
	Path   string
	Header http.Header
	Body   string
}

func startEndpoint(t *testing.T, answer http.HandlerFunc) *endpoint {
	t.Helper()
	e := &endpoint{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.requests = append(e.requests, seenRequest{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: string(body)})
		e.mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *endpoint) seen() []seenRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]seenRequest(nil), e.requests...)
}

// answerWith replies with status, headers and body.
func answerWith(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}
}

func runHTTPRequest(t *testing.T, deps *projectDependencies, client *http.Client, config map[string]any) (Result, error) {
	t.Helper()
	return HTTPRequest{ActionDependencies: deps, Client: client}.Run(context.Background(), deps.request(ActionHTTPRequest, config))
}

func TestHTTPRequestReturnsTheAnswerWithParsedJSON(t *testing.T) {
	e := startEndpoint(t, answerWith(200, `{"id": 7, "tags": ["a"]}`, "Content-Type", "application/json; charset=utf-8", "X-Trace", "abc"))
	deps := newProjectDependencies()
	res, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{
		"url":          e.URL + "/things?x=1",
		"headers_json": `{"X-Custom": "yes", "Accept": "application/json"}`,
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := e.seen()
	if len(got) != 1 || got[0].Method != "GET" || got[0].Path != "/things?x=1" || got[0].Header.Get("X-Custom") != "yes" {
		t.Fatalf("the endpoint saw %+v, want GET /things?x=1 with X-Custom", got)
	}
	if res.Output["status_code"] != 200 || res.Output["body"] != `{"id": 7, "tags": ["a"]}` {
		t.Errorf("output = %v", res.Output)
	}
	if h := res.Output["headers"].(map[string]any); h["x-trace"] != "abc" || !strings.HasPrefix(h["content-type"].(string), "application/json") {
		t.Errorf("output headers = %v, want lower-case names with first values", h)
	}
	wantJSON := map[string]any{"id": float64(7), "tags": []any{"a"}}
	if !reflect.DeepEqual(res.Output["json"], wantJSON) {
		t.Errorf("output json = %#v, want %#v", res.Output["json"], wantJSON)
	}
	if res.ProviderResponse["status_code"] != 200 || res.ProviderResponse["body"] != `{"id": 7, "tags": ["a"]}` {
		t.Errorf("provider response = %v", res.ProviderResponse)
	}
}

func TestHTTPRequestSendsBodiesAsConfigured(t *testing.T) {
	e := startEndpoint(t, answerWith(201, "created", "Content-Type", "text/plain"))
	deps := newProjectDependencies()
	client := loopbackClient(t, 5*time.Second)
	tests := []struct {
		name, wantBody, wantType string
		config                   map[string]any
	}{
		{"an object body is sent as JSON", `{"n":2,"name":"Ann"}`, "application/json",
			map[string]any{"method": "post", "body": map[string]any{"name": "Ann", "n": 2}}},
		{"a text body is sent as it is, with the configured Content-Type", "a=1&b=2", "application/x-www-form-urlencoded",
			map[string]any{"method": "PUT", "body": "a=1&b=2", "headers_json": map[string]any{"Content-Type": "application/x-www-form-urlencoded"}}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.config["url"] = e.URL
			res, err := runHTTPRequest(t, deps, client, tt.config)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			seen := e.seen()[i]
			if seen.Body != tt.wantBody || seen.Header.Get("Content-Type") != tt.wantType {
				t.Errorf("the endpoint saw body %q type %q, want %q %q", seen.Body, seen.Header.Get("Content-Type"), tt.wantBody, tt.wantType)
			}
			if res.Output["status_code"] != 201 || res.Output["body"] != "created" || res.Output["json"] != nil {
				t.Errorf("output = %v, want 201, the text and no json", res.Output)
			}
		})
	}
}

// TestHTTPRequestCarriesOneIdempotencyKeyPerRunAndAction: every attempt of an action in a
// run sends the same Idempotency-Key, another action or run another, and a key the author
// set in headers_json is sent instead.
func TestHTTPRequestCarriesOneIdempotencyKeyPerRunAndAction(t *testing.T) {
	e := startEndpoint(t, answerWith(200, "ok"))
	deps := newProjectDependencies()
	client := loopbackClient(t, 5*time.Second)
	send := func(req Request) string {
		t.Helper()
		if _, err := (HTTPRequest{ActionDependencies: deps, Client: client}).Run(context.Background(), req); err != nil {
			t.Fatalf("Run: %v", err)
		}
		seen := e.seen()
		return seen[len(seen)-1].Header.Get("Idempotency-Key")
	}
	req := deps.request(ActionHTTPRequest, map[string]any{"method": "POST", "url": e.URL, "body": "x"})
	first := send(req)
	req.Attempt = 2
	if again := send(req); first == "" || again != first {
		t.Errorf("two attempts sent keys %q and %q, want one key", first, again)
	}
	other := req
	other.ActionKey = "lines[1]." + req.ActionKey
	if key := send(other); key == first || key != IdempotencyKey(other) {
		t.Errorf("the same action of a loop item sent %q, want its own key %q", key, IdempotencyKey(other))
	}
	own := deps.request(ActionHTTPRequest, map[string]any{"method": "POST", "url": e.URL, "body": "x",
		"headers_json": map[string]any{"Idempotency-Key": "order-A-1001"}})
	if key := send(own); key != "order-A-1001" {
		t.Errorf("a request whose headers set the key sent %q", key)
	}
}

func TestHTTPRequestAddsTheCredentialsOfItsAuthIntegration(t *testing.T) {
	e := startEndpoint(t, answerWith(200, "ok"))
	deps := newProjectDependencies()
	tests := []struct {
		name, header, want string
		auth               map[string]any
	}{
		{"bearer", "Authorization", "Bearer t0k3n", map[string]any{"scheme": "bearer", "token": "t0k3n"}},
		{"basic", "Authorization", "Basic dXNlcjpwYXNz", map[string]any{"scheme": "basic", "username": "user", "password": "pass"}},
		{"a custom header", "X-Api-Key", "k3y", map[string]any{"scheme": "header", "header_name": "X-Api-Key", "header_value": "k3y"}},
	}
	for i, tt := range tests {
		t.Run(tt.name+" credentials are sent", func(t *testing.T) {
			id := deps.add(integration.TypeHTTPAuth, nil, tt.auth)
			if _, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{"url": e.URL, "auth_dependency_id": id}); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := e.seen()[i].Header.Get(tt.header); got != tt.want {
				t.Errorf("%s = %q, want %q", tt.header, got, tt.want)
			}
		})
	}
}

func TestHTTPRequestDoesNotForwardACustomAuthHeaderToAnotherHost(t *testing.T) {
	other := startEndpoint(t, answerWith(200, "landed"))
	_, port, _ := net.SplitHostPort(other.Listener.Addr().String())
	front := startEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+port+"/landing", http.StatusFound)
	})
	deps := newProjectDependencies()
	id := deps.add(integration.TypeHTTPAuth, nil, map[string]any{"scheme": "header", "header_name": "X-Api-Key", "header_value": "k3y"})
	res, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{"url": front.URL, "auth_dependency_id": id})
	if err != nil || res.Output["body"] != "landed" {
		t.Fatalf("Run = %v, %v", res.Output, err)
	}
	if front.seen()[0].Header.Get("X-Api-Key") != "k3y" {
		t.Error("the first host did not get the key")
	}
	if got := other.seen()[0].Header.Get("X-Api-Key"); got != "" {
		t.Errorf("the redirect target got X-Api-Key %q", got)
	}
}

// TestHTTPRequestSendsACredentialOnlyToItsAllowedHosts is the attack of an editor who may
// use an admin's http.auth integration but should not be able to pull its token out: the
// request names another host, hides it behind user info or a query, or is redirected away.
func TestHTTPRequestSendsACredentialOnlyToItsAllowedHosts(t *testing.T) {
	e := startEndpoint(t, answerWith(200, "ok"))
	_, port, _ := net.SplitHostPort(e.Listener.Addr().String())
	deps := newProjectDependencies()
	bearer := map[string]any{"scheme": "bearer", "token": "s3cret-t0ken"}
	onlyAPI := deps.add(integration.TypeHTTPAuth, map[string]any{"allowed_hosts": []any{"api.example.com"}}, bearer)
	onlyOther := deps.add(integration.TypeHTTPAuth, map[string]any{"allowed_hosts": []any{"127.0.0.2"}}, bearer)
	for _, tt := range []struct {
		name, url, dep string
	}{
		{"a host that is not allowed", e.URL + "/x", onlyAPI},
		{"an allowed name as user info before another host", "http://api.example.com@127.0.0.1:" + port + "/x", onlyAPI},
		{"an allowed name in the query", e.URL + "/x?h=api.example.com", onlyAPI},
		{"a neighbouring address", e.URL + "/x", onlyOther},
	} {
		t.Run(tt.name+" gets nothing", func(t *testing.T) {
			before := len(e.seen())
			_, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{"url": tt.url, "auth_dependency_id": tt.dep})
			requireFailure(t, err, ClassValidation, "host_not_allowed")
			if n := len(e.seen()) - before; n != 0 {
				t.Fatalf("the endpoint got %d requests", n)
			}
		})
	}

	t.Run("an allowed host gets the credential, and a wildcard allows subdomains only", func(t *testing.T) {
		for _, allowed := range []string{"127.0.0.1", "localhost"} {
			id := deps.add(integration.TypeHTTPAuth, map[string]any{"allowed_hosts": []any{"*.example.com", allowed}}, bearer)
			url := strings.Replace(e.URL, "127.0.0.1", allowed, 1) + "/y"
			if _, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{"url": url, "auth_dependency_id": id}); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := e.seen()[len(e.seen())-1].Header.Get("Authorization"); got != "Bearer s3cret-t0ken" {
				t.Fatalf("Authorization = %q", got)
			}
		}
		u := func(raw string) *url.URL { v, _ := url.Parse(raw); return v }
		for raw, want := range map[string]bool{"https://a.example.com/": true, "https://b.a.example.com/": true,
			"https://example.com/": false, "https://evilexample.com/": false, "https://a.example.com.evil.test/": false} {
			if got := hostAllowed([]string{"*.example.com"}, u(raw)); got != want {
				t.Errorf("%s allowed %v, want %v", raw, got, want)
			}
		}
	})

	t.Run("a redirect to a host that is not allowed is not followed", func(t *testing.T) {
		away := startEndpoint(t, answerWith(200, "landed"))
		_, awayPort, _ := net.SplitHostPort(away.Listener.Addr().String())
		front := startEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://localhost:"+awayPort+"/landing", http.StatusFound)
		})
		id := deps.add(integration.TypeHTTPAuth, map[string]any{"allowed_hosts": []any{"127.0.0.1"}},
			map[string]any{"scheme": "header", "header_name": "X-Api-Key", "header_value": "k3y-for-127"})
		_, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{"url": front.URL, "auth_dependency_id": id})
		requireFailure(t, err, ClassValidation, "host_not_allowed")
		if n := len(away.seen()); n != 0 {
			t.Fatalf("the redirect target got %d requests", n)
		}
	})
}

func TestHTTPRequestClassifiesAnswersByStatusAndMethod(t *testing.T) {
	tests := []struct {
		method       string
		status       int
		retryAfter   string
		class, waits string
		deduplicates bool
	}{
		{"GET", 401, "", ClassAuth, "", false},
		{"POST", 403, "", ClassAuth, "", false},
		{"GET", 400, "", ClassPermanent, "", false},
		{"DELETE", 404, "", ClassPermanent, "", false},
		{"GET", 410, "", ClassPermanent, "", false},
		{"POST", 422, "", ClassPermanent, "", false},
		{"POST", 409, "", ClassPermanent, "", false},
		{"POST", 429, "30", ClassRateLimited, "30s", false},
		{"GET", 408, "", ClassRateLimited, "", false},
		{"PUT", 425, "", ClassRateLimited, "", false},
		{"GET", 503, "", ClassTransient, "", false},
		{"HEAD", 500, "", ClassTransient, "", false},
		{"PUT", 502, "", ClassTransient, "", false},
		{"DELETE", 504, "", ClassTransient, "", false},
		{"POST", 500, "", ClassUnknownOutcome, "", false},
		{"PATCH", 503, "", ClassUnknownOutcome, "", false},
		// The author says the target acts once per Idempotency-Key: sending again is safe.
		{"POST", 500, "", ClassTransient, "", true},
		{"PATCH", 503, "", ClassTransient, "", true},
	}
	deps := newProjectDependencies()
	client := loopbackClient(t, 5*time.Second)
	for _, tt := range tests {
		name := fmt.Sprintf("%s answered %d is %s", tt.method, tt.status, tt.class)
		if tt.deduplicates {
			name += " when the target deduplicates"
		}
		t.Run(name, func(t *testing.T) {
			e := startEndpoint(t, answerWith(tt.status, `{"error":"nope"}`, "Retry-After", tt.retryAfter))
			_, err := runHTTPRequest(t, deps, client, map[string]any{"method": tt.method, "url": e.URL, "body": "x", "target_deduplicates": tt.deduplicates})
			f := requireFailure(t, err, tt.class, fmt.Sprintf("http_%d", tt.status))
			if f.ProviderResponse["status_code"] != tt.status {
				t.Errorf("provider response = %v, want status_code %d", f.ProviderResponse, tt.status)
			}
			if tt.method != "HEAD" && f.ProviderResponse["body"] != `{"error":"nope"}` {
				t.Errorf("provider response body = %v", f.ProviderResponse["body"])
			}
			if tt.waits != "" && (!strings.Contains(f.HumanReason, tt.waits) || !strings.Contains(f.NextAction, tt.waits)) {
				t.Errorf("human_reason %q / next_action %q do not quote the wait %s", f.HumanReason, f.NextAction, tt.waits)
			}
		})
	}
}

func TestHTTPRequestClassifiesCallsThatGotNoAnswer(t *testing.T) {
	deps := newProjectDependencies()
	client := loopbackClient(t, 5*time.Second)
	hanging := startHangingServer(t)
	resetting := startEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	refusedAt := "http://" + closedPort(t) + "/hook?token=s3cret-query"

	tests := []struct {
		name, method, url, timeout, class, reason string
	}{
		{"a POST that times out after sending may have taken effect", "POST", hanging.URL, "0.2", ClassTimeoutUnknown, "no_response"},
		{"a PATCH whose connection is reset after sending may have taken effect", "PATCH", resetting.URL, "", ClassTimeoutUnknown, "no_response"},
		{"a GET that times out after sending is retried", "GET", hanging.URL, "0.2", ClassTransient, "no_response"},
		{"a HEAD whose connection is reset is retried", "HEAD", resetting.URL, "", ClassTransient, "no_response"},
		{"a POST to a closed port was never sent and is retried", "POST", refusedAt, "", ClassTransient, "connection_failed"},
		{"a name that does not resolve is retried", "POST", "http://no-such-host.invalid/", "2", ClassTransient, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := map[string]any{"method": tt.method, "url": tt.url, "body": map[string]any{"a": 1}}
			if tt.timeout != "" {
				config["timeout_seconds"] = tt.timeout
			}
			_, err := runHTTPRequest(t, deps, client, config)
			requireFailure(t, err, tt.class, tt.reason)
			requireNoSecret(t, err, "s3cret-query")
		})
	}
}

func TestHTTPRequestRefusesTargetsTheEgressPolicyForbids(t *testing.T) {
	e := startEndpoint(t, answerWith(200, "ok"))
	deps := newProjectDependencies()
	_, err := runHTTPRequest(t, deps, egress.NewClient(egress.Policy{}, 0), map[string]any{"method": "POST", "url": e.URL})
	requireFailure(t, err, ClassValidation, "egress_refused")
	if n := len(e.seen()); n != 0 {
		t.Fatalf("the endpoint got %d requests, want none", n)
	}
}

func TestHTTPRequestFailsPermanentlyOnAnswersItCannotUse(t *testing.T) {
	deps := newProjectDependencies()
	big := startEndpoint(t, answerWith(200, strings.Repeat("x", 100<<10)))
	notJSON := startEndpoint(t, answerWith(200, "<html>", "Content-Type", "text/html"))
	var loop *endpoint
	loop = startEndpoint(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, loop.URL+"/again", http.StatusFound) })
	tests := []struct {
		name, reason string
		config       map[string]any
	}{
		{"a body beyond the egress cap", "response_too_large", map[string]any{"url": big.URL}},
		{"a body that is not JSON when response_format is json", "response_not_json", map[string]any{"url": notJSON.URL, "response_format": "json"}},
		{"a redirect loop", "too_many_redirects", map[string]any{"url": loop.URL}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is permanent", func(t *testing.T) {
			_, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), tt.config)
			requireFailure(t, err, ClassPermanent, tt.reason)
		})
	}
	t.Run("a body beyond the cap still shows its status and start", func(t *testing.T) {
		_, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{"url": big.URL})
		pr := requireFailure(t, err, ClassPermanent, "response_too_large").ProviderResponse
		if pr["status_code"] != 200 || pr["body_truncated"] != true || !strings.HasPrefix(pr["body"].(string), "xxx") {
			t.Fatalf("provider response = status %v, truncated %v", pr["status_code"], pr["body_truncated"])
		}
	})
	t.Run("the provider response of a long error body is truncated", func(t *testing.T) {
		long := startEndpoint(t, answerWith(500, strings.Repeat("é", 3000)))
		_, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{"url": long.URL})
		pr := requireFailure(t, err, ClassTransient, "http_500").ProviderResponse
		body, _ := pr["body"].(string)
		if len(body) > providerBodyLimit || pr["body_truncated"] != true || !strings.HasPrefix(body, "éé") || strings.ContainsRune(body, '\uFFFD') {
			t.Fatalf("provider body is %d bytes, truncated=%v", len(body), pr["body_truncated"])
		}
	})
}

func TestHTTPRequestRejectsConfigItCannotUse(t *testing.T) {
	deps := newProjectDependencies()
	other := newProjectDependencies()
	foreign := other.add(integration.TypeHTTPAuth, nil, map[string]any{"scheme": "bearer", "token": "x"})
	smtp := deps.add(integration.TypeSMTPServer, nil, nil)
	noScheme := deps.add(integration.TypeHTTPAuth, nil, map[string]any{"token": "x"})
	tests := []struct {
		name, reason, field string
		config              map[string]any
	}{
		{"no url", "invalid_config", "url", map[string]any{}},
		{"a url of another scheme", "invalid_config", "url", map[string]any{"url": "ftp://example.com/x"}},
		{"an unknown method", "invalid_config", "method", map[string]any{"url": "https://example.com", "method": "TRACE"}},
		{"headers_json that is not an object", "invalid_config", "headers_json", map[string]any{"url": "https://example.com", "headers_json": "[1,2]"}},
		{"a header value with a line break", "invalid_config", "headers_json", map[string]any{"url": "https://example.com", "headers_json": map[string]any{"X-A": "a\r\nX-B: b"}}},
		{"a timeout beyond the maximum", "invalid_config", "timeout_seconds", map[string]any{"url": "https://example.com", "timeout_seconds": 121.0}},
		{"an unknown response_format", "invalid_config", "response_format", map[string]any{"url": "https://example.com", "response_format": "xml"}},
		{"an auth integration of another project", "dependency_not_found", "auth_dependency_id", map[string]any{"url": "https://example.com", "auth_dependency_id": foreign}},
		{"an auth integration of another type", "dependency_type_mismatch", "auth_dependency_id", map[string]any{"url": "https://example.com", "auth_dependency_id": smtp}},
		{"an auth integration id that is no id", "invalid_dependency_id", "auth_dependency_id", map[string]any{"url": "https://example.com", "auth_dependency_id": "nope"}},
		{"an auth integration without scheme", "invalid_dependency", "auth_dependency_id", map[string]any{"url": "https://example.com", "auth_dependency_id": noScheme}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is a validation failure naming "+tt.field, func(t *testing.T) {
			_, err := runHTTPRequest(t, deps, loopbackClient(t, time.Second), tt.config)
			f := requireFailure(t, err, ClassValidation, tt.reason)
			if !strings.Contains(f.HumanReason+f.NextAction, tt.field) {
				t.Errorf("the failure does not name %s: %q / %q", tt.field, f.HumanReason, f.NextAction)
			}
		})
	}
}

func TestHTTPRequestOutputSurvivesAJSONRoundTrip(t *testing.T) {
	e := startEndpoint(t, answerWith(200, `{"ok":true}`, "Content-Type", "application/json"))
	deps := newProjectDependencies()
	res, err := runHTTPRequest(t, deps, loopbackClient(t, 5*time.Second), map[string]any{"url": e.URL})
	if err != nil {
		t.Fatal(err)
	}
	// The engine passes results through Temporal's JSON payloads.
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("marshal result: %v", err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil || back.Output["json"].(map[string]any)["ok"] != true {
		t.Fatalf("round trip = %s, %v", b, err)
	}
}

func TestHTTPRequestCancelledWithItsRunIsCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := startEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
		cancel()
		<-r.Context().Done()
	})
	deps := newProjectDependencies()
	_, err := HTTPRequest{ActionDependencies: deps, Client: loopbackClient(t, 5*time.Second)}.Run(ctx, deps.request(ActionHTTPRequest, map[string]any{"method": "POST", "url": e.URL}))
	if f := AsFailure(err); f.RetryClass != ClassCanceled {
		t.Fatalf("AsFailure(%v) = %s, want canceled", err, f.RetryClass)
	}
}
