package api

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"agencyhub/activities"
	"agencyhub/api/wshub"
	"agencyhub/engine"
	"agencyhub/engine/agent"
	"agencyhub/engine/bulk"
	"agencyhub/engine/intake"
	"agencyhub/engine/schedules"
	"agencyhub/models/automation"
	"agencyhub/models/relay"
	"agencyhub/models/sitechat"
	"agencyhub/models/sitechat/chatws"
	"agencyhub/platform/filestore"
	"agencyhub/platform/realtime"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/otel/trace"

	"agencyhub/api/httpx"
	"agencyhub/models/auth"
	"agencyhub/models/billing"
	"agencyhub/models/company"
	"agencyhub/models/desktop"
	"agencyhub/models/integration"
	"agencyhub/models/webhook"
	"agencyhub/models/work"
	"agencyhub/platform/metrics"
	"agencyhub/schemas"
)

// HealthCheck probes one dependency for /healthz.
type HealthCheck struct {
	Name  string
	Check func(ctx context.Context) error
}

// CookieSettings control the auth cookies.
type CookieSettings struct {
	Secure   bool
	SameSite http.SameSite
}

// Server holds what handlers need: the stores and services Main built.
type Server struct {
	Auth     *auth.Service
	Company  *company.Service
	Contract *schemas.Contract
	Catalog  *schemas.Catalog
	// Workflows holds workflows, versions and the run projection.
	Workflows *automation.Service
	// Drafts validates drafts against the catalog and their project; Runs steers runs
	// (test runs, replay, retry, cancel); Intake starts runs from triggers; Publisher
	// changes current versions.
	Drafts    *engine.Drafts
	Runs      *engine.Runs
	Bulk      *bulk.Service
	Intake    *intake.Intake
	Publisher *schedules.Publisher
	// Bus carries run changes to event streams and receipt waits.
	Bus realtime.Bus
	// Integrations holds the projects' action dependencies and templates; ProviderCheck
	// tests an action dependency against its provider.
	Integrations  *integration.Service
	ProviderCheck *activities.ProviderCheck
	// PartyLookup finds parties in the company registry through the party lookup
	// integration of a company or project.
	PartyLookup *activities.PartyLookup
	// Relays holds messenger relays and their updates; BotAPI calls the relays' bot API.
	Relays *relay.Service
	BotAPI *activities.BotAPI
	// Webhooks holds webhook endpoints, the requests they received and their receipts.
	Webhooks *webhook.Service
	// Billing holds clients, their contacts, responsibles, projects and services, and the
	// client service types.
	Billing *billing.Service
	// Desktop is the users' desktop inbox.
	Desktop *desktop.Inbox
	// SiteChat holds the site chat: widgets, visitors, events, conversations, calls;
	// SiteChatLimiter limits its public calls per client address and widget.
	SiteChat        *sitechat.Service
	SiteChatLimiter *sitechat.PublicLimiter
	// SiteChatSockets tunes the visitor and operator sockets (wshub.DefaultConfig when
	// zero); Handler starts their hub, CloseSockets ends it.
	SiteChatSockets wshub.Config
	chatHub         *wshub.Hub
	chatProtocol    *chatws.Protocol
	// Agent is the AI employee: its settings and capability, sessions on Temporal, tool
	// approvals and model lists.
	Agent *agent.Agent
	// Work is the work tracker: boards, tasks, task workflows, time and timers.
	Work *work.Service
	// Files keeps uploaded files and signs their download links.
	Files *filestore.Store
	// Console is the browser console's build (web.Console), served at / for browsers; nil,
	// or a build without index.html, serves a page that says how to build it.
	Console fs.FS
	Health  []HealthCheck
	Cookies CookieSettings
	// TrustedProxies are the addresses whose X-Forwarded-For is believed; none by default,
	// so the client address (used by the login limiter) cannot be spoofed.
	TrustedProxies []string
	// PublicURL is the base URL clients reach the API at, used in generated docs.
	PublicURL string
	// TemporalUIURL is the Temporal Web UI's address and TemporalNamespace the runs'
	// namespace, for each run's link to its history; no link without a Web UI.
	TemporalUIURL, TemporalNamespace string
	// MaxBodyBytes caps JSON request bodies (APP_MAX_BODY_BYTES); larger ones answer 413.
	MaxBodyBytes int64
	// SafetyPoll is how often a stream or a receipt wait reads the projection even when the
	// bus said nothing, in case a notification was lost.
	SafetyPoll time.Duration
	// Metrics counts requests, webhook deliveries and open site chat sockets; nil counts
	// nothing, as metrics.Discard() does. The API never serves them: Main does, on
	// APP_METRICS_ADDR.
	Metrics *metrics.Metrics
	// TracerProvider, when set (OTEL_EXPORTER_OTLP_ENDPOINT), opens a span per request;
	// nil traces nothing and costs nothing.
	TracerProvider trace.TracerProvider
	Now            func() time.Time
}

// Handler builds the router.
func (s *Server) Handler() (http.Handler, error) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	if err := r.SetTrustedProxies(s.TrustedProxies); err != nil {
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	if s.Metrics == nil {
		s.Metrics = metrics.Discard()
	}
	if s.Metrics.Recording() {
		r.Use(httpx.Measure(s.Metrics))
	}
	if s.TracerProvider != nil {
		r.Use(httpx.Trace(s.TracerProvider))
	}
	r.Use(httpx.Start, httpx.Log, httpx.Recover, httpx.WithOperation(s.Contract), httpx.LimitBodies(s.MaxBodyBytes), siteChatCORS)
	if s.SiteChatSockets == (wshub.Config{}) {
		s.SiteChatSockets = wshub.DefaultConfig()
	}
	s.chatProtocol = chatws.New(s.SiteChat, s.Auth, siteChatViews{s})
	s.chatHub = wshub.New(s.SiteChatSockets, s.Bus, s.chatProtocol, sitechat.Topic, slog.Default())
	s.Metrics.WatchSockets(s.chatHub.Counts)
	s.routes(r)
	r.NoRoute(s.consoleOrNotFound)
	r.NoMethod(httpx.MethodNotAllowed(allowedMethods(r.Routes())))
	return r, nil
}

// CloseSockets disconnects the site chat sockets, which an HTTP server's Shutdown does not
// wait for (they are hijacked connections), and stops routing notices to them.
func (s *Server) CloseSockets() {
	if s.chatHub != nil {
		s.chatHub.Close()
	}
}

// allowedMethods answers, for a concrete path, the methods its routes accept.
func allowedMethods(routes gin.RoutesInfo) func(path string) string {
	return func(path string) string {
		var methods []string
		for _, rt := range routes {
			if routeMatches(rt.Path, path) {
				methods = append(methods, rt.Method)
			}
		}
		return strings.Join(methods, ", ")
	}
}

func routeMatches(route, path string) bool {
	rp, pp := strings.Split(route, "/"), strings.Split(path, "/")
	if len(rp) != len(pp) {
		return false
	}
	for i := range rp {
		if !strings.HasPrefix(rp[i], ":") && rp[i] != pp[i] {
			return false
		}
	}
	return true
}
