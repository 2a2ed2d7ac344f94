package api

import (
	"agencyhub/engine"
	"agencyhub/models/automation"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models/auth"
	"agencyhub/models/company"
	"agencyhub/models/integration"
	"agencyhub/models/webhook"
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

// Server holds what handlers need.
type Server struct {
	Auth     *auth.Service
	Company  *company.Service
	Contract *schemas.Contract
	// Workflows holds workflows, versions and the run projection; Runs starts and steers runs.
	Workflows *automation.Service
	Runs      *engine.Runs
	Catalog   *schemas.Catalog
	Health    []HealthCheck
	Cookies   CookieSettings
	// TrustedProxies are the addresses whose X-Forwarded-For is believed; none by default,
	// so the client address (used by the login limiter) cannot be spoofed.
	TrustedProxies []string
	// PublicURL is the base URL clients reach the API at, used in generated docs.
	PublicURL string
	Now       func() time.Time
	// Integration holds the projects' integrations (action dependencies) and templates.
	Integration *integration.Service
	// Relay is the messenger relay: relays of bot integrations, their updates and runs.
	Relay *engine.Relay
	// Webhooks holds webhook endpoints, the requests they received and their receipts.
	Webhooks *webhook.Service
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
	r.Use(httpx.Start, httpx.Log, httpx.Recover, httpx.WithOperation(s.Contract))
	s.routes(r)
	r.NoRoute(httpx.NotFound)
	r.NoMethod(httpx.MethodNotAllowed(allowedMethods(r.Routes())))
	return r, nil
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
