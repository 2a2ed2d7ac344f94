package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Config is every setting of the service. Each comes from an environment variable and may
// be overridden by the flag of the same meaning; README.md lists them all.
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
	str(&c.WebURL, "web-url", "APP_WEB_URL", "", "base URL of the web app, for links in mail; default the public URL")
	str(&c.CookieSecure, "cookie-secure", "APP_COOKIE_SECURE", "", "true|false: Secure flag of auth cookies; default true when the public URL is https")
	str(&c.CookieSameSite, "cookie-samesite", "APP_COOKIE_SAMESITE", "lax", "lax|strict|none: SameSite of auth cookies")
	str(&c.TrustedProxies, "trusted-proxies", "APP_TRUSTED_PROXIES", "", "comma-separated proxy addresses or CIDRs whose X-Forwarded-For is believed")
	dur(&c.AccessTTL, "access-ttl", "APP_ACCESS_TTL", 15*time.Minute, "lifetime of access tokens")
	dur(&c.RefreshTTL, "refresh-ttl", "APP_REFRESH_TTL", 30*24*time.Hour, "lifetime of a session without refresh")
	num(&c.MaxBodyBytes, "max-body-bytes", "APP_MAX_BODY_BYTES", 1<<20, "largest accepted JSON request body in bytes")
	str(&c.SMTPURL, "smtp-url", "SMTP_URL", "", "smtp[s]://user:pass@host:port?from=addr; empty keeps mail in the outbox only")
	str(&c.LogLevel, "log-level", "APP_LOG_LEVEL", "info", "debug|info|warn|error")
	dur(&c.ShutdownTimeout, "shutdown-timeout", "APP_SHUTDOWN_TIMEOUT", 15*time.Second, "how long in-flight requests may finish at shutdown")
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
	if c.AccessTTL <= 0 || c.RefreshTTL <= c.AccessTTL {
		return c, errors.New("APP_ACCESS_TTL must be positive and shorter than APP_REFRESH_TTL")
	}
	if _, err := c.sameSite(); err != nil {
		return c, err
	}
	if _, err := c.secureCookies(); err != nil {
		return c, err
	}
	if _, err := c.logLevel(); err != nil {
		return c, err
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

func (c Config) trustedProxies() []string {
	var out []string
	for _, p := range strings.Split(c.TrustedProxies, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
