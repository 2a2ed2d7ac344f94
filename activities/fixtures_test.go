package activities

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/activities/egress"
	"agencyhub/models/integration"
	"agencyhub/schemas"
)

// testCatalog is the catalog the fixtures read secret fields from.
var testCatalog = func() *schemas.Catalog {
	c, err := schemas.LoadCatalog()
	if err != nil {
		panic(err)
	}
	return c
}()

// projectDependencies is a map-backed ActionDependencies of one project: the engine reaches
// the real store across a process boundary, so a map stands in for it.
type projectDependencies struct {
	companyID, projectID uuid.UUID
	byID                 map[uuid.UUID]*integration.Unsealed
}

func newProjectDependencies() *projectDependencies {
	return &projectDependencies{companyID: uuid.New(), projectID: uuid.New(), byID: map[uuid.UUID]*integration.Unsealed{}}
}

func (p *projectDependencies) Unseal(_ context.Context, companyID, projectID, id uuid.UUID) (*integration.Unsealed, error) {
	dep, ok := p.byID[id]
	if !ok || companyID != p.companyID || projectID != p.projectID {
		return nil, integration.ErrActionDependencyNotFound
	}
	return dep, nil
}

// add stores an integration and returns its id as a config value.
func (p *projectDependencies) add(typeKey string, metadata, auth map[string]any) string {
	id := uuid.New()
	t, _ := testCatalog.Dependency(typeKey)
	p.byID[id] = &integration.Unsealed{ID: id, TypeKey: typeKey, Metadata: metadata, Auth: auth, Secrets: integration.SecretValues(t, auth)}
	return id.String()
}

// request is an execution of actionType in this project with config.
func (p *projectDependencies) request(actionType string, config map[string]any) Request {
	return Request{RunID: uuid.New(), CompanyID: p.companyID, ProjectID: p.projectID, ActionKey: "step", ActionType: actionType, Config: config, Attempt: 1}
}

// loopbackClient is the egress client with loopback allow-listed, as local test servers
// need, and the given total timeout.
func loopbackClient(t *testing.T, timeout time.Duration) *http.Client {
	t.Helper()
	p, err := egress.ParsePolicy("127.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	c := egress.NewClient(p, 64<<10)
	c.Timeout = timeout
	return c
}

// loopbackPolicy allows loopback addresses.
func loopbackPolicy(t *testing.T) egress.Policy {
	t.Helper()
	p, err := egress.ParsePolicy("127.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// requireFailure asserts that err is a *Failure of class (and reason code, when given)
// whose Retryable follows the class, and returns it.
func requireFailure(t *testing.T, err error, class, reason string) *Failure {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("err = %v (%T), want a *Failure of class %s", err, err, class)
	}
	if f.RetryClass != class || reason != "" && f.ReasonCode != reason {
		t.Fatalf("failure = %s/%s (%s), want %s/%s", f.RetryClass, f.ReasonCode, f.HumanReason, class, reason)
	}
	wantRetryable := class == ClassTransient || class == ClassRateLimited
	if f.Retryable != wantRetryable {
		t.Fatalf("failure %s has Retryable %v, want %v", class, f.Retryable, wantRetryable)
	}
	if f.HumanReason == "" || f.NextAction == "" {
		t.Fatalf("failure lacks human_reason or next_action: %+v", f)
	}
	return f
}

// requireNoSecret asserts that nothing a user or log sees of err repeats secret.
func requireNoSecret(t *testing.T, err error, secret string) {
	t.Helper()
	text := err.Error()
	if b, jerr := json.Marshal(err); jerr == nil {
		text += string(b)
	}
	if strings.Contains(text, secret) {
		t.Fatalf("the error repeats the secret %q: %s", secret, text)
	}
}

// startHangingServer starts an HTTP server that reads each request and never answers; its
// handlers return when the client closes the connection or the test ends.
func startHangingServer(t *testing.T) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // before Close, which waits for the handlers
	return srv
}

// closedPort is a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
