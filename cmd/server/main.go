// Command server is the service's one binary: the HTTP API, the embedded Temporal server
// and the workflow worker (APP_ROLE splits them). main only wires signals; Main does the work.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"gorm.io/gorm"

	"agencyhub/activities"
	"agencyhub/activities/mailer"
	"agencyhub/api"
	"agencyhub/api/httpx"
	"agencyhub/engine"
	"agencyhub/migrations"
	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/automation"
	"agencyhub/models/company"
	"agencyhub/models/integration"
	"agencyhub/models/relay"
	"agencyhub/models/webhook"
	"agencyhub/schemas"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	m := &Main{}
	if err := m.ParseFlags(os.Args[1:], os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := m.Run(ctx); err != nil {
		slog.Error("start-up failed", "err", err)
		os.Exit(1)
	}
	<-ctx.Done()
	slog.Info("shutting down")
	if err := m.Close(); err != nil {
		slog.Error("shutdown", "err", err)
		os.Exit(1)
	}
}

// Main is the running service.
type Main struct {
	Config Config
	db     *gorm.DB
	http   *http.Server
	ln     net.Listener
	// The workflow engine: the embedded server (when no cluster is configured), the client
	// and the worker (unless the role is api).
	devServer       *engine.DevServer
	temporal        client.Client
	temporalAddress string
	worker          worker.Worker
	// Background loops (the mail dispatcher, the relay poller) run on workerCtx in workers;
	// stopWorkers ends them.
	workerCtx   context.Context
	stopWorkers context.CancelFunc
	workers     sync.WaitGroup
}

// ParseFlags reads the configuration from the environment and the command line.
func (m *Main) ParseFlags(args []string, getenv func(string) string) error {
	c, err := ParseConfig(args, getenv)
	m.Config = c
	return err
}

// Addr is the address the API listens on (useful when configured with port 0).
func (m *Main) Addr() string { return m.ln.Addr().String() }

// Run opens and migrates the database, starts background workers and begins serving. It
// returns once the listener is up.
func (m *Main) Run(ctx context.Context) error {
	level, _ := m.Config.logLevel()
	slog.SetDefault(slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level})))

	m.workerCtx, m.stopWorkers = context.WithCancel(context.Background())
	db, dialect, err := models.OpenDB(m.Config.DatabaseURL, m.Config.DataDir)
	if err != nil {
		return err
	}
	m.db = db
	if err := migrations.Apply(ctx, db, dialect); err != nil {
		return err
	}
	keys, err := m.keys()
	if err != nil {
		return err
	}
	contract, err := schemas.Load()
	if err != nil {
		return fmt.Errorf("load contract: %w", err)
	}
	catalog, err := schemas.LoadCatalog()
	if err != nil {
		return fmt.Errorf("load action and dependency type catalogs: %w", err)
	}

	var sender *mailer.Sender
	if m.Config.SMTPURL != "" {
		smtpCfg, err := mailer.ParseURL(m.Config.SMTPURL)
		if err != nil {
			return fmt.Errorf("SMTP_URL: %w", err)
		}
		sender = mailer.NewSender(smtpCfg)
	} else {
		slog.Warn("SMTP_URL is not set: new accounts are active without e-mail activation, and mail stays in the outbox")
	}

	settings := auth.DefaultSettings()
	settings.AccessTTL, settings.RefreshTTL = m.Config.AccessTTL, m.Config.RefreshTTL
	settings.RequireActivation = sender != nil
	settings.AppURL = m.Config.WebURL
	settings.SignInRedirectURL = m.Config.SignInRedirectURL
	settings.Providers = m.Config.identityProviders()
	settings.NativeRedirectPrefixes = m.Config.nativeRedirectPrefixes()
	secure, _ := m.Config.secureCookies()
	sameSite, _ := m.Config.sameSite()
	egressPolicy, _ := m.Config.egressPolicy()
	httpx.MaxBodyBytes = m.Config.MaxBodyBytes

	server := &api.Server{
		Auth:     auth.NewService(db, keys, settings),
		Company:  company.NewService(db, keys.Sealer),
		Contract: contract,
		Catalog:  catalog,
		Health: []api.HealthCheck{
			{Name: "database", Check: func(ctx context.Context) error { return models.Ping(ctx, db) }},
		},
		Cookies:        api.CookieSettings{Secure: secure, SameSite: sameSite},
		TrustedProxies: m.Config.trustedProxies(),
		PublicURL:      m.Config.PublicURL,
		Now:            func() time.Time { return time.Now().UTC() },
		Integration:    integration.NewService(db, keys.Sealer, catalog, egressPolicy),
	}
	server.Integration.MessengerABaseURL, server.Integration.MessengerBBaseURL = m.Config.MessengerABaseURL, m.Config.MessengerBBaseURL
	if err := m.startEngine(ctx, server, db, catalog); err != nil {
		return err
	}
	if m.Config.Role == "worker" {
		slog.Info("worker running", "database", dialect, "temporal", m.temporalAddress)
		return nil
	}
	handler, err := server.Handler()
	if err != nil {
		return err
	}

	dispatcher := &mailer.Dispatcher{DB: db, Sender: sender, Now: server.Now, Interval: 2 * time.Second, Log: slog.Default()}
	m.workers.Go(func() { dispatcher.Run(m.workerCtx) })

	m.ln, err = net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return err
	}
	m.http = &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		if err := m.http.Serve(m.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("http server stopped", "err", err)
		}
	}()
	slog.Info("listening", "addr", m.Addr(), "database", dialect, "public_url", m.Config.PublicURL)
	return nil
}

// startEngine connects to Temporal — the embedded server unless TEMPORAL_ADDRESS names a
// cluster — gives the API its workflow and run services, and starts the worker unless
// the role is api.
func (m *Main) startEngine(ctx context.Context, server *api.Server, db *gorm.DB, catalog *schemas.Catalog) error {
	m.temporalAddress = m.Config.TemporalAddress
	if m.temporalAddress == "" {
		dev, err := engine.StartDevServer(engine.DevServerOptions{
			DataDir: m.Config.DataDir, Namespace: m.Config.TemporalNamespace, Port: int(m.Config.TemporalPort),
			UIPort: int(m.Config.TemporalUIPort),
		})
		if err != nil {
			return err
		}
		m.devServer = dev
		m.temporalAddress = dev.Address()
	}
	tlsConf, err := m.Config.temporalTLS()
	if err != nil {
		return err
	}
	m.temporal, err = engine.Dial(ctx, engine.ClientOptions{Address: m.temporalAddress, Namespace: m.Config.TemporalNamespace, TLS: tlsConf})
	if err != nil {
		return err
	}
	server.Workflows = automation.NewService(db, server.Company, catalog)
	server.Runs = &engine.Runs{
		DB: db, Client: m.temporal, Workflows: server.Workflows, Catalog: catalog,
		Templates: server.Integration, TaskQueue: engine.TaskQueue, PublicURL: m.Config.PublicURL, Now: server.Now,
	}
	server.Webhooks = webhook.NewService(db, server.Company, server.Workflows, server.Runs, m.Config.PublicURL)
	server.Relay = &engine.Relay{Store: relay.NewService(db, server.Integration.Sealer, server.Integration), Runs: server.Runs}
	server.Health = append(server.Health, api.HealthCheck{Name: "temporal", Check: func(ctx context.Context) error {
		_, err := m.temporal.CheckHealth(ctx, &client.CheckHealthRequest{})
		return err
	}})
	if m.Config.Role == "api" {
		return nil
	}
	m.worker = engine.NewWorker(m.temporal, engine.TaskQueue, engine.WorkerDeps{
		DB: db, Now: server.Now, Runs: server.Runs, Actions: activities.Registry(activities.Deps{
			Dependencies: server.Integration, EgressPolicy: server.Integration.Policy, Egress: server.Integration.Client,
			MessengerABaseURL: m.Config.MessengerABaseURL, MessengerBBaseURL: m.Config.MessengerBBaseURL,
		}),
		BotSessions: server.Relay.Store,
	})
	if err := m.worker.Start(); err != nil {
		return err
	}
	// Every instance with a worker polls; the poll leases in the database keep each bot to
	// one poller at a time, and a stopped poller gives its leases up.
	poller := &engine.RelayPoller{Relay: server.Relay, Log: slog.Default()}
	m.workers.Go(func() { poller.Run(m.workerCtx) })
	return nil
}

// keys derives the service keys from APP_SECRET_KEY, or from a key generated once into the
// data dir and reused on every start.
func (m *Main) keys() (*models.Keys, error) {
	secret := m.Config.SecretKey
	if secret == "" {
		path := filepath.Join(m.Config.DataDir, "secret.key")
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			if m.Config.DatabaseURL != "" {
				slog.Warn("APP_SECRET_KEY is not set: using a key generated on this machine; every instance sharing the database must share it")
			}
			if err := os.MkdirAll(m.Config.DataDir, 0o700); err != nil {
				return nil, err
			}
			b = []byte(models.RandomToken(48))
			err = os.WriteFile(path, b, 0o600)
		}
		if err != nil {
			return nil, fmt.Errorf("secret key file: %w", err)
		}
		secret = string(b)
	}
	keys, err := models.DeriveKeys([]byte(secret))
	if err != nil {
		return nil, fmt.Errorf("APP_SECRET_KEY: %w", err)
	}
	return keys, nil
}

// Close stops accepting connections, lets in-flight requests finish (up to the shutdown
// timeout), stops the background loops, the worker, the Temporal client and embedded server,
// and closes the database.
func (m *Main) Close() error {
	var err error
	if m.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), m.Config.ShutdownTimeout)
		defer cancel()
		err = m.http.Shutdown(ctx)
	}
	if m.stopWorkers != nil {
		m.stopWorkers()
		m.workers.Wait()
	}
	if m.worker != nil {
		m.worker.Stop()
	}
	if m.temporal != nil {
		m.temporal.Close()
	}
	if m.devServer != nil {
		m.devServer.Stop()
	}
	if m.db != nil {
		models.CloseDB(m.db)
	}
	return err
}
