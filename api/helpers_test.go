package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/billing"
	"agencyhub/models/company"
	"agencyhub/models/integration"
	"agencyhub/models/notify"
	"agencyhub/models/sitechat"
	"agencyhub/models/work"
	"agencyhub/platform/filestore"
	"agencyhub/schemas"
)

// env is the real router on a real database, with a clock tests can move.
type env struct {
	t        testing.TB
	db       *dbtest.DB
	handler  http.Handler
	contract *schemas.Contract
	server   *api.Server
	now      time.Time
	// temporal and taskQueue are the embedded Temporal's client and the worker's queue.
	temporal  client.Client
	taskQueue string
	// worker polls taskQueue for this environment.
	worker worker.Worker
	// lostTaskAnswers is how many task.create answers the worker loses after the task is
	// stored, as when a worker dies before reporting (see lossyTasks).
	lostTaskAnswers *atomic.Int32
	// notifier handles the domain events in the background, as Main's does.
	notifier *notify.Notifier
}

// testPasswordCost makes password hashes cheap: the tests hash hundreds of them, and what
// they check does not depend on the cost.
var testPasswordCost = auth.PasswordCost{MemoryKiB: 64, Passes: 1}

func newEnv(t testing.TB, db *dbtest.DB, configure ...func(*api.Server)) *env {
	t.Helper()
	keys := dbtest.Keys(t)
	contract, err := schemas.Load()
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: db, contract: contract, now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), lostTaskAnswers: new(atomic.Int32)}
	clock := func() time.Time { return e.now }
	settings := auth.DefaultSettings()
	settings.PasswordCost = testPasswordCost
	authSvc := auth.NewService(db.DB, keys, settings)
	authSvc.Now = clock
	companySvc := company.NewService(db.DB, keys.Sealer)
	companySvc.Now = clock
	files, err := filestore.NewDir(t.TempDir(), keys.FileLinks, "http://api.test")
	if err != nil {
		t.Fatal(err)
	}
	e.server = &api.Server{
		Auth: authSvc, Company: companySvc, Contract: contract, Catalog: dbtest.Catalog(t), Files: files,
		Health:    []api.HealthCheck{{Name: "database", Check: func(ctx context.Context) error { return models.Ping(ctx, db.DB) }}},
		PublicURL: "http://api.test", MaxBodyBytes: 1 << 20, SafetyPoll: time.Second, Now: clock,
	}
	e.server.Integrations = integration.NewService(db.DB, keys.Sealer, e.server.Catalog)
	e.server.Integrations.RefusedHost = testEgress.CheckLiteral
	e.server.Integrations.Now = clock
	e.server.Billing = billing.NewService(db.DB, companySvc, nil)
	e.server.Billing.Now = clock
	e.server.Work = work.NewService(db.DB, companySvc, nil)
	e.server.Work.Now = clock
	e.server.SiteChat = sitechat.NewService(db.DB, companySvc, nil, files, keys.TokenSigning, siteChatTestSettings())
	e.server.SiteChat.Now = clock
	e.withEngine(e.server)
	e.server.SiteChatLimiter = sitechat.NewPublicLimiter(100, 500)
	for _, c := range configure {
		c(e.server)
	}
	e.handler, err = e.server.Handler()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// notified handles the domain events recorded so far, as the background notifier does
// soon after, so that a test reads the desktop messages they call for at once.
func (e *env) notified() {
	e.t.Helper()
	if err := e.notifier.Drain(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// advance moves the clock.
func (e *env) advance(d time.Duration) { e.now = e.now.Add(d) }

// req describes one request.
type req struct {
	method, path string
	body         any // marshalled to JSON unless it is a string (sent raw) or nil
	token        string
	apiKey       string
	cookies      []*http.Cookie
	header       map[string]string
}

// response is a recorded answer with its decoded JSON body.
type response struct {
	*httptest.ResponseRecorder
	json map[string]any
}

// do sends r through the router and checks what every response owes: the common headers,
// and a body that matches the contract (Problem bodies exactly, with the request id).
func (e *env) do(r req) *response {
	e.t.Helper()
	var body *bytes.Reader
	switch b := r.body.(type) {
	case nil:
		body = bytes.NewReader(nil)
	case string:
		body = bytes.NewReader([]byte(b))
	default:
		js, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		body = bytes.NewReader(js)
	}
	hr := httptest.NewRequest(r.method, r.path, body)
	if r.body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		hr.Header.Set("Authorization", "Bearer "+r.token)
	}
	if r.apiKey != "" {
		hr.Header.Set("X-API-Key", r.apiKey)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	for _, c := range r.cookies {
		hr.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, hr)
	resp := &response{ResponseRecorder: rec}
	e.checkResponse(r, resp)
	return resp
}

func (e *env) checkResponse(r req, resp *response) {
	e.t.Helper()
	h := resp.Header()
	var decoded any
	if resp.Body.Len() > 0 && strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(resp.Body.Bytes(), &decoded); err != nil {
			e.t.Fatalf("%s %s: body is not JSON: %v", r.method, r.path, err)
		}
		resp.json, _ = decoded.(map[string]any)
	}
	path, _, _ := strings.Cut(r.path, "?")
	op := e.contract.Match(r.method, path)
	switch {
	case resp.Code >= 400 && (op == nil || op.ReturnsProblem(resp.Code)):
		e.checkProblem(r, resp)
	case resp.Code >= 400:
		if h.Get("X-App-Result") != "error" {
			e.t.Errorf("%s %s: X-App-Result = %q on %d", r.method, r.path, h.Get("X-App-Result"), resp.Code)
		}
	case h.Get("X-App-Result") != "ok":
		e.t.Errorf("%s %s: X-App-Result = %q on %d", r.method, r.path, h.Get("X-App-Result"), resp.Code)
	}
	if op == nil {
		if resp.Code != http.StatusNotFound && resp.Code != http.StatusMethodNotAllowed {
			e.t.Errorf("%s %s: answered %d but the contract has no such operation", r.method, r.path, resp.Code)
		}
		return
	}
	if !op.DocumentsStatus(resp.Code) {
		e.t.Errorf("%s %s: status %d is not documented in the contract (body %s)", r.method, r.path, resp.Code, resp.Body)
		return
	}
	checkRequiredHeaders(e.t, op, r.method+" "+r.path, resp.Code, h)
	if decoded != nil {
		if err := op.ValidateResponse(resp.Code, decoded); err != nil {
			e.t.Errorf("%s %s: %d body does not match the contract: %v\n%s", r.method, r.path, resp.Code, err, resp.Body)
		}
	}
}

// checkRequiredHeaders fails unless a response carries every header the contract requires
// on its status (on every response, the specification's common three).
func checkRequiredHeaders(t testing.TB, op *schemas.Operation, call string, status int, h http.Header) {
	t.Helper()
	required := op.RequiredHeaders(status)
	if len(required) == 0 {
		t.Errorf("%s: the contract requires no header on %d, not even X-Request-Id", call, status)
	}
	for _, name := range required {
		if h.Get(name) == "" {
			t.Errorf("%s: %d response lacks %s", call, status, name)
		}
	}
}

var problemFields = []string{"status", "title", "detail", "action", "validate", "request_id"}

func (e *env) checkProblem(r req, resp *response) {
	e.t.Helper()
	p := resp.json
	if len(p) != len(problemFields) {
		e.t.Errorf("%s %s: Problem has %d fields, want exactly %v: %s", r.method, r.path, len(p), problemFields, resp.Body)
	}
	for _, f := range problemFields {
		if _, ok := p[f].(string); !ok {
			e.t.Errorf("%s %s: Problem.%s missing or not a string: %s", r.method, r.path, f, resp.Body)
		}
	}
	h := resp.Header()
	if p["request_id"] != h.Get("X-Request-Id") {
		e.t.Errorf("%s %s: Problem.request_id %v != X-Request-Id %q", r.method, r.path, p["request_id"], h.Get("X-Request-Id"))
	}
	if p["status"] != h.Get("X-App-Result") {
		e.t.Errorf("%s %s: Problem.status %v != X-App-Result %q", r.method, r.path, p["status"], h.Get("X-App-Result"))
	}
	if v, header := p["validate"].(string), h.Get("X-App-Validate"); header != v && !shortened(header, v) {
		e.t.Errorf("%s %s: X-App-Validate %q does not repeat Problem.validate %q", r.method, r.path, header, v)
	}
	if action, err := new(mime.WordDecoder).DecodeHeader(h.Get("X-App-Action")); err != nil || action == "" || p["action"] != action {
		e.t.Errorf("%s %s: X-App-Action %q does not repeat Problem.action %v", r.method, r.path, h.Get("X-App-Action"), p["action"])
	}
}

// shortened tells whether header is validate cut to at most 1 KB: the names it shows are
// validate's first ones, and a last item counts the rest.
func shortened(header, validate string) bool {
	shown := strings.Split(header, ",")
	last := shown[len(shown)-1]
	if len(header) > 1024 || !strings.HasPrefix(last, "+") || !strings.HasSuffix(last, " more") {
		return false
	}
	return strings.HasPrefix(validate, strings.Join(shown[:len(shown)-1], ","))
}

// expect fails unless the response has the status and, for problems, names exactly the
// validate fields given.
func (resp *response) expect(t testing.TB, status int, validate ...string) *response {
	t.Helper()
	if resp.Code != status {
		t.Fatalf("status = %d, want %d; body %s", resp.Code, status, resp.Body)
	}
	if len(validate) > 0 {
		if got := resp.json["validate"]; got != strings.Join(validate, ",") {
			t.Fatalf("validate = %v, want %q; body %s", got, strings.Join(validate, ","), resp.Body)
		}
	}
	return resp
}

func (resp *response) str(key string) string {
	s, _ := resp.json[key].(string)
	return s
}

func (resp *response) items() []map[string]any {
	raw, _ := resp.json["items"].([]any)
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i], _ = it.(map[string]any)
	}
	return out
}

func (resp *response) cookie(name string) *http.Cookie {
	for _, c := range resp.Result().Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// user is a registered, signed-in test user.
type user struct {
	id, email, token, refresh string
}

const password = "correct-horse-battery"

// signUp registers and signs in a user as an API client.
func (e *env) signUp(name string) user {
	e.t.Helper()
	email := strings.ToLower(name) + "@example.com"
	reg := e.do(req{method: "POST", path: "/api/v1/auth/register", body: map[string]any{"email": email, "password": password, "name": name}})
	reg.expect(e.t, http.StatusCreated)
	login := e.do(req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{"email": email, "password": password, "client_type": "api"}})
	login.expect(e.t, http.StatusOK)
	return user{id: reg.str("user_id"), email: email, token: login.str("access_token"), refresh: login.str("refresh_token")}
}

// companyOf creates a company owned by u and returns its id.
func (e *env) companyOf(u user, name string) string {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/v1/companies", token: u.token, body: map[string]any{"name": name}}).
		expect(e.t, http.StatusCreated).str("company_id")
}

// projectIn creates a project in a company as u and returns its id.
func (e *env) projectIn(u user, companyID, name string) string {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/projects", token: u.token, body: map[string]any{"name": name}}).
		expect(e.t, http.StatusCreated).str("project_id")
}
