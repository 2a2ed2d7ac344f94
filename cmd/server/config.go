package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"agencyhub/activities/egress"
	"agencyhub/models/auth"
	"agencyhub/models/sitechat"
	"agencyhub/platform/filestore"
)

// Config is every setting of the service. Each comes from an environment variable and may
// be overridden by the flag of the same meaning; docs/configuration.md lists them all.
type Config struct {
	Addr            string
	DataDir         string
	DatabaseURL     string
	SecretKey       string
	PublicURL       string
	WebURL          string
	CookieSecure    string
	CookieSameSite  string
	TrustedProxies  string
	AccessTTL       time.Duration
	RefreshTTL      time.Duration
	MaxBodyBytes    int64
	SMTPURL         string
	LogLevel        string
	ShutdownTimeout time.Duration
	EgressAllow     string

	MessengerABaseURL string
	MessengerBBaseURL string

	// FilesS3URL selects S3-compatible storage for uploaded files; empty keeps them in
	// DataDir/files.
	FilesS3URL string
	// SafetyPoll is how often event streams, receipt waits and the notifier read the
	// database when the event bus brought no news.
	SafetyPoll time.Duration

	// Site chat: how long co-browse frames are kept, the ICE servers of calls (with a TURN
	// secret, short-lived TURN credentials), and the public calls allowed per second (and
	// in a burst) per client address and widget.
	SiteChatFrameRetention time.Duration
	SiteChatICEURLs        string
	SiteChatTURNSecret     string
	SiteChatRate           int64
	SiteChatBurst          int64

	// MetricsAddr is where /metrics listens, apart from the API; empty serves no metrics.
	MetricsAddr string
	// OTLPEndpoint is the OpenTelemetry collector's base URL; setting it turns tracing on.
	OTLPEndpoint string

	// Role splits the binary: api serves HTTP, worker runs workflows, all does both.
	Role string
	// BuildID is this build's version in Temporal's worker deployment (engine.Promote); empty
	// is a checksum of the binary (engine.BinaryBuildID).
	BuildID           string
	TemporalAddress   string
	TemporalNamespace string
	TemporalPort      int64
	TemporalUIPort    int64
	TemporalUIURL     string
	TemporalTLSCert   string
	TemporalTLSKey    string
	TemporalTLSCA     string

	// IdentityProviders are the IDP_A_*, IDP_B_*, IDP_C_* settings by provider name.
	IdentityProviders      map[string]*IdentityProvider
	SignInRedirectURL      string
	NativeRedirectPrefixes string
}

// IdentityProvider is one identity provider's settings. It is configured when its client
// id is set, and then needs all three endpoint URLs.
type IdentityProvider struct {
	Name, ClientID, ClientSecret, AuthURL, TokenURL, UserInfoURL, Scopes string
}

// ParseConfig reads the environment (through getenv) and then the flags in args.
func ParseConfig(args []string, getenv func(string) string) (Config, error) {
	var c Config
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	str := func(p *string, name, env, def, usage string) {
		if v := getenv(env); v != "" {
			def = v
		}
		fs.StringVar(p, name, def, usage+" ("+env+")")
	}
	var envErrs []error
	dur := func(p *time.Duration, name, env string, def time.Duration, usage string) {
		if v := getenv(env); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil {
				envErrs = append(envErrs, fmt.Errorf("%s: %w", env, err))
			}
			def = d
		}
		fs.DurationVar(p, name, def, usage+" ("+env+")")
	}
	num := func(p *int64, name, env string, def int64, usage string) {
		if v := getenv(env); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				envErrs = append(envErrs, fmt.Errorf("%s: %w", env, err))
			}
			def = n
		}
		fs.Int64Var(p, name, def, usage+" ("+env+")")
	}
	str(&c.Addr, "addr", "APP_ADDR", "127.0.0.1:8080", "listen address")
	str(&c.DataDir, "data-dir", "APP_DATA_DIR", "./data", "directory for the SQLite database and the generated secret key")
	str(&c.DatabaseURL, "database-url", "DATABASE_URL", "", "postgres://... for PostgreSQL; empty for SQLite in the data dir")
	str(&c.SecretKey, "secret-key", "APP_SECRET_KEY", "", "master key for signing and encryption, at least 32 characters; generated into the data dir when empty")
	str(&c.PublicURL, "public-url", "APP_PUBLIC_URL", "", "base URL clients reach the API at; default http://ADDR")
	str(&c.WebURL, "web-url", "APP_WEB_URL", "", "base URL of the console, for the links the service hands out (mail, system.run_url); default the public URL")
	str(&c.CookieSecure, "cookie-secure", "APP_COOKIE_SECURE", "", "true|false: Secure flag of auth cookies; default true when the public URL is https")
	str(&c.CookieSameSite, "cookie-samesite", "APP_COOKIE_SAMESITE", "lax", "lax|strict|none: SameSite of auth cookies")
	str(&c.TrustedProxies, "trusted-proxies", "APP_TRUSTED_PROXIES", "", "comma-separated proxy addresses or CIDRs whose X-Forwarded-For is believed")
	dur(&c.AccessTTL, "access-ttl", "APP_ACCESS_TTL", 15*time.Minute, "lifetime of access tokens")
	dur(&c.RefreshTTL, "refresh-ttl", "APP_REFRESH_TTL", 30*24*time.Hour, "lifetime of a session without refresh")
	num(&c.MaxBodyBytes, "max-body-bytes", "APP_MAX_BODY_BYTES", 1<<20, "largest accepted JSON request body in bytes")
	str(&c.SMTPURL, "smtp-url", "SMTP_URL", "", "smtp[s]://user:pass@host:port?from=addr; empty keeps mail in the outbox only")
	str(&c.LogLevel, "log-level", "APP_LOG_LEVEL", "info", "debug|info|warn|error")
	dur(&c.ShutdownTimeout, "shutdown-timeout", "APP_SHUTDOWN_TIMEOUT", 15*time.Second, "how long in-flight requests may finish at shutdown")
	str(&c.MessengerABaseURL, "messenger-a-api-base-url", "APP_MESSENGER_A_API_BASE_URL", "", "messenger_a bot API address for integrations that set no api_base_url")
	str(&c.MessengerBBaseURL, "messenger-b-api-base-url", "APP_MESSENGER_B_API_BASE_URL", "", "messenger_b bot API address for integrations that set no api_base_url")
	str(&c.FilesS3URL, "files-s3-url", "APP_FILES_S3_URL", "", "s3://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix]?region=...: keep uploaded files in S3-compatible storage; empty keeps them in the data dir")
	dur(&c.SafetyPoll, "safety-poll", "APP_SAFETY_POLL", 2*time.Second,
		"how often event streams, receipt waits and the notifier read the database when the event bus brought no news")
	dur(&c.SiteChatFrameRetention, "site-chat-frame-retention", "APP_SITE_CHAT_FRAME_RETENTION", 7*24*time.Hour, "how long site chat co-browse frames are kept")
	str(&c.SiteChatICEURLs, "site-chat-ice-urls", "APP_SITE_CHAT_ICE_URLS", "stun:stun.l.google.com:19302", "comma-separated stun:, turn: and turns: URLs handed to site chat calls")
	str(&c.SiteChatTURNSecret, "site-chat-turn-secret", "APP_SITE_CHAT_TURN_SECRET", "", "coturn static-auth-secret: turn: URLs get 1-hour credentials in coturn's REST API scheme")
	num(&c.SiteChatRate, "site-chat-rate", "APP_SITE_CHAT_RATE", 20, "public site chat calls per second per client address and widget")
	num(&c.SiteChatBurst, "site-chat-burst", "APP_SITE_CHAT_BURST", 100, "public site chat calls in a burst per client address and widget")
	str(&c.MetricsAddr, "metrics-addr", "APP_METRICS_ADDR", "", "listen address of /metrics (Prometheus format), apart from the API; empty serves no metrics")
	str(&c.OTLPEndpoint, "otlp-endpoint", "OTEL_EXPORTER_OTLP_ENDPOINT", "", "OpenTelemetry collector base URL (OTLP over HTTP, traces to /v1/traces); setting it turns tracing and trace ids in logs on")
	str(&c.EgressAllow, "egress-allow", "APP_EGRESS_ALLOW", "", "comma-separated host names, IP addresses or CIDR networks that integrations may reach although internal")
	str(&c.Role, "role", "APP_ROLE", "all", "api|worker|all: serve the API, run workflows, or both")
	str(&c.BuildID, "build-id", "APP_BUILD_ID", "", "the workers' version in Temporal's worker deployment; empty: the binary's checksum")
	str(&c.TemporalAddress, "temporal-address", "TEMPORAL_ADDRESS", "", "host:port of a Temporal cluster; empty starts the embedded server")
	str(&c.TemporalNamespace, "temporal-namespace", "TEMPORAL_NAMESPACE", "agencyhub", "Temporal namespace of the runs")
	num(&c.TemporalPort, "temporal-port", "TEMPORAL_PORT", 7233, "embedded server: frontend gRPC port (0 picks a free one)")
	num(&c.TemporalUIPort, "temporal-ui-port", "TEMPORAL_UI_PORT", 8233, "embedded server: Temporal Web UI port (0 turns the UI off)")
	str(&c.TemporalUIURL, "temporal-ui-url", "TEMPORAL_UI_URL", "", "the Temporal Web UI of a cluster (TEMPORAL_ADDRESS), linked from each run; the embedded server's own UI is linked without it")
	str(&c.TemporalTLSCert, "temporal-tls-cert", "TEMPORAL_TLS_CERT", "", "client certificate file for a cluster that requires mTLS")
	str(&c.TemporalTLSKey, "temporal-tls-key", "TEMPORAL_TLS_KEY", "", "client key file for TEMPORAL_TLS_CERT")
	str(&c.TemporalTLSCA, "temporal-tls-ca", "TEMPORAL_TLS_CA", "", "CA bundle for the cluster's certificate; setting any TLS file turns TLS on")
	str(&c.SignInRedirectURL, "signin-redirect-url", "APP_SIGNIN_REDIRECT_URL", "", "where browsers land after an identity-provider sign-in; default the web URL")
	str(&c.NativeRedirectPrefixes, "native-redirect-prefixes", "APP_NATIVE_REDIRECT_PREFIXES", "", "comma-separated deep links native apps may return to after an identity-provider sign-in")
	c.IdentityProviders = map[string]*IdentityProvider{}
	for _, name := range auth.ProviderNames {
		p := &IdentityProvider{}
		c.IdentityProviders[name] = p
		env, flagName := strings.ToUpper(name)+"_", strings.ReplaceAll(name, "_", "-")+"-"
		str(&p.Name, flagName+"name", env+"NAME", "Identity provider "+strings.ToUpper(strings.TrimPrefix(name, "idp_")), name+" name on the sign-in page's button")
		str(&p.ClientID, flagName+"client-id", env+"CLIENT_ID", "", name+" OAuth client id; setting it turns the provider on")
		str(&p.ClientSecret, flagName+"client-secret", env+"CLIENT_SECRET", "", name+" OAuth client secret")
		str(&p.AuthURL, flagName+"auth-url", env+"AUTH_URL", "", name+" authorization endpoint URL")
		str(&p.TokenURL, flagName+"token-url", env+"TOKEN_URL", "", name+" token endpoint URL")
		str(&p.UserInfoURL, flagName+"userinfo-url", env+"USERINFO_URL", "", name+" userinfo endpoint URL")
		str(&p.Scopes, flagName+"scopes", env+"SCOPES", "openid email profile", name+" scopes, separated by spaces or commas")
	}
	if err := errors.Join(envErrs...); err != nil {
		return c, err
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.MaxBodyBytes < 1024 {
		return c, errors.New("APP_MAX_BODY_BYTES must be a whole number of at least 1024")
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.Addr
	}
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if c.WebURL == "" {
		c.WebURL = c.PublicURL
	}
	if c.SignInRedirectURL == "" {
		c.SignInRedirectURL = c.WebURL
	}
	for _, name := range auth.ProviderNames {
		if err := c.IdentityProviders[name].check(strings.ToUpper(name)); err != nil {
			return c, err
		}
	}
	if c.AccessTTL <= 0 || c.RefreshTTL <= c.AccessTTL {
		return c, errors.New("APP_ACCESS_TTL must be positive and shorter than APP_REFRESH_TTL")
	}
	if _, err := c.sameSite(); err != nil {
		return c, err
	}
	if _, err := c.secureCookies(); err != nil {
		return c, err
	}
	if c.Role != "api" && c.Role != "worker" && c.Role != "all" {
		return c, fmt.Errorf("APP_ROLE must be api, worker or all, not %q", c.Role)
	}
	if c.Role != "all" && c.TemporalAddress == "" {
		return c, errors.New("APP_ROLE api or worker needs TEMPORAL_ADDRESS: split roles share an external Temporal cluster")
	}
	if (c.TemporalTLSCert == "") != (c.TemporalTLSKey == "") {
		return c, errors.New("TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together")
	}
	if _, err := c.logLevel(); err != nil {
		return c, err
	}
	if _, err := c.egressPolicy(); err != nil {
		return c, err
	}
	if c.FilesS3URL != "" {
		if _, err := filestore.ParseS3URL(c.FilesS3URL); err != nil {
			return c, fmt.Errorf("APP_FILES_S3_URL: %w", err)
		}
	}
	if c.SafetyPoll < 100*time.Millisecond {
		return c, errors.New("APP_SAFETY_POLL must be at least 100ms")
	}
	if c.SiteChatFrameRetention < time.Hour || c.SiteChatRate < 1 || c.SiteChatBurst < 1 {
		return c, errors.New("APP_SITE_CHAT_FRAME_RETENTION must be at least 1h, APP_SITE_CHAT_RATE and APP_SITE_CHAT_BURST at least 1")
	}
	for _, u := range commaList(c.SiteChatICEURLs) {
		if !strings.HasPrefix(u, "stun:") && !strings.HasPrefix(u, "turn:") && !strings.HasPrefix(u, "turns:") {
			return c, fmt.Errorf("APP_SITE_CHAT_ICE_URLS: %q is not a stun:, turn: or turns: URL", u)
		}
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			return c, fmt.Errorf("APP_METRICS_ADDR must be host:port, not %q", c.MetricsAddr)
		}
	}
	if c.OTLPEndpoint != "" {
		if u, err := url.Parse(c.OTLPEndpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c, fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, not %q", c.OTLPEndpoint)
		}
	}
	return c, nil
}

func (c Config) sameSite() (http.SameSite, error) {
	switch strings.ToLower(c.CookieSameSite) {
	case "lax":
		return http.SameSiteLaxMode, nil
	case "strict":
		return http.SameSiteStrictMode, nil
	case "none":
		return http.SameSiteNoneMode, nil
	}
	return 0, fmt.Errorf("APP_COOKIE_SAMESITE must be lax, strict or none, not %q", c.CookieSameSite)
}

func (c Config) secureCookies() (bool, error) {
	if c.CookieSecure == "" {
		return strings.HasPrefix(c.PublicURL, "https://"), nil
	}
	v, err := strconv.ParseBool(c.CookieSecure)
	if err != nil {
		return false, fmt.Errorf("APP_COOKIE_SECURE must be true or false, not %q", c.CookieSecure)
	}
	return v, nil
}

func (c Config) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return l, fmt.Errorf("APP_LOG_LEVEL must be debug, info, warn or error, not %q", c.LogLevel)
	}
	return l, nil
}

// egressPolicy is what user-configured integrations may connect to: public addresses, and
// the internal ones APP_EGRESS_ALLOW lists.
func (c Config) egressPolicy() (egress.Policy, error) { return egress.ParsePolicy(c.EgressAllow) }

func (c Config) trustedProxies() []string { return commaList(c.TrustedProxies) }

func (c Config) nativeRedirectPrefixes() []string { return commaList(c.NativeRedirectPrefixes) }

// siteChatSettings are the site chat's settings: the defaults, with the configured retention,
// ICE servers and TURN secret, and links to the web app and the public API.
func (c Config) siteChatSettings() sitechat.Settings {
	st := sitechat.DefaultSettings()
	st.FrameRetention, st.TURNSecret = c.SiteChatFrameRetention, c.SiteChatTURNSecret
	st.ICEServers = commaList(c.SiteChatICEURLs)
	st.AppURL, st.EndpointBase = c.WebURL, c.PublicURL
	return st
}

func commaList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// check refuses a provider configured by halves; env is its variables' prefix (IDP_A).
func (p *IdentityProvider) check(env string) error {
	if p.ClientID == "" {
		if p.AuthURL != "" || p.TokenURL != "" || p.UserInfoURL != "" {
			return fmt.Errorf("%s_CLIENT_ID is required when the provider's URLs are set", env)
		}
		return nil
	}
	for _, setting := range [][2]string{{"AUTH_URL", p.AuthURL}, {"TOKEN_URL", p.TokenURL}, {"USERINFO_URL", p.UserInfoURL}} {
		if u, err := url.Parse(setting[1]); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s_%s must be an http(s) URL when %s_CLIENT_ID is set, not %q", env, setting[0], env, setting[1])
		}
	}
	return nil
}

// identityProviders are the configured providers, with our callback for each under the
// public URL.
func (c Config) identityProviders() map[string]auth.ProviderConfig {
	out := map[string]auth.ProviderConfig{}
	for name, p := range c.IdentityProviders {
		if p.ClientID == "" {
			continue
		}
		out[name] = auth.ProviderConfig{
			DisplayName: p.Name, ClientID: p.ClientID, ClientSecret: p.ClientSecret,
			AuthURL: p.AuthURL, TokenURL: p.TokenURL, UserInfoURL: p.UserInfoURL,
			RedirectURL: c.PublicURL + "/api/v1/auth/oauth/" + name + "/callback",
			Scopes:      strings.FieldsFunc(p.Scopes, func(r rune) bool { return r == ' ' || r == ',' }),
		}
	}
	return out
}

// temporalTLS builds the client TLS configuration from the TEMPORAL_TLS_* files; nil when
// none is set.
func (c Config) temporalTLS() (*tls.Config, error) {
	if c.TemporalTLSCert == "" && c.TemporalTLSCA == "" {
		return nil, nil
	}
	conf := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.TemporalTLSCert != "" {
		cert, err := tls.LoadX509KeyPair(c.TemporalTLSCert, c.TemporalTLSKey)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CERT/KEY: %w", err)
		}
		conf.Certificates = []tls.Certificate{cert}
	}
	if c.TemporalTLSCA != "" {
		pem, err := os.ReadFile(c.TemporalTLSCA)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %w", err)
		}
		conf.RootCAs = x509.NewCertPool()
		if !conf.RootCAs.AppendCertsFromPEM(pem) {
			return nil, errors.New("TEMPORAL_TLS_CA holds no PEM certificate")
		}
	}
	return conf, nil
}
