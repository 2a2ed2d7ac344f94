// Command server is the service's one binary: the HTTP API, the embedded Temporal server
// and the workflow worker (APP_ROLE splits them). main only wires signals; Main does the work.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"gorm.io/gorm"

	"agencyhub/activities"
	"agencyhub/activities/egress"
	"agencyhub/activities/mailer"
	"agencyhub/api"
	"agencyhub/engine"
	"agencyhub/engine/devserver"
	"agencyhub/engine/intake"
	"agencyhub/engine/schedules"
	"agencyhub/engine/wiring"
	"agencyhub/migrations"
	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/auth"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/company"
	"agencyhub/models/desktop"
	"agencyhub/models/integration"
	"agencyhub/models/notify"
	"agencyhub/models/relay"
	"agencyhub/models/sitechat"
	"agencyhub/models/webhook"
	"agencyhub/models/work"
	"agencyhub/platform/filestore"
	"agencyhub/platform/metrics"
	"agencyhub/platform/realtime"
	"agencyhub/schemas"
	"agencyhub/web"
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

// Main is the running service. It builds every store and service once, in Run, and hands
// them to the API and the worker; nothing is configured through package-level settings.
type Main struct {
	Config Config
	// SpanExporter, when set, receives the spans instead of the collector
	// OTEL_EXPORTER_OTLP_ENDPOINT names, and turns tracing on by itself: for a program that
	// embeds Main with an exporter of its own (the tests' is in memory).
	SpanExporter sdktrace.SpanExporter

	db   *gorm.DB
	bus  realtime.Bus
	http *http.Server
	ln   net.Listener
	// The workflow engine: the embedded server (when no cluster is configured), the client
	// and the worker (unless the role is api).
	devServer *devserver.Server
	temporal  client.Client
	worker    worker.Worker
	// Observability: the metrics every part records into (Discard without
	// APP_METRICS_ADDR), their listener, the Temporal SDK's reporter into them, and the
	// tracer provider (nil without OTEL_EXPORTER_OTLP_ENDPOINT).
	metrics     *metrics.Metrics
	metricsLn   net.Listener
	metricsHTTP *http.Server
	sdkMetrics  io.Closer
	// serverMetrics holds the embedded Temporal server's metrics; nil when they are not
	// served (no APP_METRICS_ADDR, or a cluster of its own).
	serverMetrics *prometheus.Registry
	tracer        *sdktrace.TracerProvider
	// Background loops (the mail dispatcher, the relay poller) run on loopsCtx; stopLoops
	// ends them.
	loopsCtx  context.Context
	stopLoops context.CancelFunc
	loops     sync.WaitGroup
}

// stores are the models the service keeps its data in.
type stores struct {
	auth         *auth.Service
	companies    *company.Service
	billing      *billing.Service
	work         *work.Service
	workflows    *automation.Service
	integrations *integration.Service
	webhooks     *webhook.Service
	relays       *relay.Service
	files        *filestore.Store
	siteChat     *sitechat.Service
	desktop      *desktop.Inbox
	ai           *aiemployee.Service
}

// ParseFlags reads the configuration from the environment and the command line.
func (m *Main) ParseFlags(args []string, getenv func(string) string) error {
	c, err := ParseConfig(args, getenv)
	m.Config = c
	return err
}

// Addr is the address the API listens on (useful when configured with port 0).
func (m *Main) Addr() string { return m.ln.Addr().String() }

// Run opens and migrates the database, builds the stores and services, starts the engine,
// the worker and the background loops, and begins serving. It returns once the listener
// is up.
func (m *Main) Run(ctx context.Context) error {
	level, _ := m.Config.logLevel()
	var logs slog.Handler = slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level})
	if m.tracing() {
		if err := m.startTracing(ctx); err != nil {
			return err
		}
		logs = traceIDs{logs}
	}
	slog.SetDefault(slog.New(logs))
	m.loopsCtx, m.stopLoops = context.WithCancel(context.Background())
	m.metrics = m.newMetrics()

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
	catalog, err := schemas.LoadCatalog()
	if err != nil {
		return fmt.Errorf("load action and dependency type catalogs: %w", err)
	}
	if m.bus, err = m.openBus(ctx, dialect); err != nil {
		return err
	}
	if m.metrics.Recording() {
		if err := m.serveMetrics(); err != nil {
			return err
		}
	}
	sender, err := m.mailSender()
	if err != nil {
		return err
	}
	st, err := m.openStores(ctx, keys, catalog, sender != nil)
	if err != nil {
		return err
	}
	if err := m.connectTemporal(ctx); err != nil {
		return err
	}
	egressPolicy, _ := m.Config.egressPolicy()
	egressClient := egress.NewClient(egressPolicy, egress.DefaultMaxBody)
	st.integrations.RefusedHost = egressPolicy.CheckLiteral
	services := wiring.NewServices(m.temporal, engine.TaskQueue, m.Config.WebURL, catalog, wiring.Stores{
		Workflows: st.workflows, Integrations: st.integrations, Webhooks: st.webhooks, Relays: st.relays, Billing: st.billing, Work: st.work,
		AI: st.ai, Companies: st.companies, Egress: egressClient, EgressPolicy: egressPolicy,
	})
	services.Runs.Namespace = m.Config.TemporalNamespace
	// Every instance, in either role, handles the domain events: the desktop messages and
	// the metrics they call for.
	notifier := &notify.Notifier{
		DB:        db,
		Bus:       m.bus,
		Inbox:     st.desktop,
		Metrics:   m.metrics,
		Users:     st.auth,
		Workflows: st.workflows,
		Billing:   st.billing,
		SiteChat:  st.siteChat,
		Poll:      m.Config.SafetyPoll,
	}
	m.loops.Go(func() { notifier.Run(m.loopsCtx) })
	botAPI := &activities.BotAPI{ActionDependencies: st.integrations, Client: egressClient, MessengerABaseURL: m.Config.MessengerABaseURL}
	if m.Config.Role != "api" {
		if err := m.startWorker(ctx, st, services, botAPI, egressPolicy, egressClient); err != nil {
			return err
		}
	}
	if m.Config.Role == "worker" {
		slog.Info("worker running", "database", dialect, "temporal", m.temporalAddress())
		return nil
	}
	mail := &mailer.Dispatcher{DB: db, Sender: sender, Now: st.auth.Now, Interval: 2 * time.Second, Log: slog.Default()}
	m.loops.Go(func() { mail.Run(m.loopsCtx) })
	// The instances that accept webhook deliveries hand their queued runs to Temporal.
	m.loops.Go(func() { services.Dispatcher.Run(m.loopsCtx) })
	// They also expire co-browse frames and miss unanswered site chat calls.
	m.loops.Go(func() { st.siteChat.RunJanitor(m.loopsCtx, time.Minute) })
	server, err := m.apiServer(st, services, catalog, botAPI, egressPolicy, egressClient)
	if err != nil {
		return err
	}
	return m.serve(server, dialect)
}

// openBus is the event bus: PostgreSQL LISTEN/NOTIFY when on PostgreSQL, so that every
// instance sharing the database sees every event; in-process on SQLite, which one process
// serves alone.
func (m *Main) openBus(ctx context.Context, dialect models.Dialect) (realtime.Bus, error) {
	if dialect != models.Postgres {
		return realtime.NewLocal(), nil
	}
	bus, err := realtime.NewPostgres(ctx, realtime.PostgresOptions{URL: m.Config.DatabaseURL, Log: slog.Default()})
	if err != nil {
		return nil, fmt.Errorf("event bus: %w", err)
	}
	return bus, nil
}

// openStores builds the stores; uploaded files go to S3 when APP_FILES_S3_URL is set, else
// to the data dir. New accounts need activation by mail when mail can be sent.
func (m *Main) openStores(ctx context.Context, keys *models.Keys, catalog *schemas.Catalog, requireActivation bool) (*stores, error) {
	settings := auth.DefaultSettings()
	settings.RequireActivation = requireActivation
	settings.AccessTTL, settings.RefreshTTL = m.Config.AccessTTL, m.Config.RefreshTTL
	settings.AppURL = m.Config.WebURL
	settings.SignInRedirectURL = m.Config.SignInRedirectURL
	settings.Providers = m.Config.identityProviders()
	settings.NativeRedirectPrefixes = m.Config.nativeRedirectPrefixes()
	st := &stores{auth: auth.NewService(m.db, keys, settings), companies: company.NewService(m.db, keys.Sealer)}
	st.desktop = desktop.NewInbox(m.db, m.bus)
	st.ai = aiemployee.NewService(m.db, m.bus)
	st.billing = billing.NewService(m.db, st.companies, m.bus)
	st.work = work.NewService(m.db, st.companies, m.bus)
	st.workflows = automation.NewService(m.db, st.companies, catalog, m.bus)
	st.workflows.ApprovalLinks = automation.ApprovalLinks{Key: keys.ApprovalLinks, BaseURL: m.Config.PublicURL}
	st.integrations = integration.NewService(m.db, keys.Sealer, catalog)
	st.webhooks = webhook.NewService(m.db, st.companies, st.workflows, m.Config.PublicURL)
	st.relays = relay.NewService(m.db, keys.Sealer)
	var err error
	if m.Config.FilesS3URL != "" {
		cfg, _ := filestore.ParseS3URL(m.Config.FilesS3URL)
		st.files, err = filestore.NewS3(ctx, cfg)
	} else {
		st.files, err = filestore.NewDir(filepath.Join(m.Config.DataDir, "files"), keys.FileLinks, m.Config.PublicURL)
	}
	if err != nil {
		return nil, fmt.Errorf("file store: %w", err)
	}
	st.siteChat = sitechat.NewService(m.db, st.companies, m.bus, st.files, keys.TokenSigning, m.Config.siteChatSettings())
	return st, nil
}

// temporalUIURL is the Temporal Web UI runs link to: the cluster's (TEMPORAL_UI_URL), or
// the embedded server's when it serves one.
func (m *Main) temporalUIURL() string {
	if m.Config.TemporalUIURL != "" || m.devServer == nil {
		return m.Config.TemporalUIURL
	}
	return m.devServer.UIURL()
}

// connectTemporal connects to Temporal: the embedded server, started here, unless
// TEMPORAL_ADDRESS names a cluster.
func (m *Main) connectTemporal(ctx context.Context) error {
	address := m.Config.TemporalAddress
	if address == "" {
		dev, err := devserver.Start(devserver.Options{
			DataDir: m.Config.DataDir, Namespace: m.Config.TemporalNamespace, Port: int(m.Config.TemporalPort),
			UIPort: int(m.Config.TemporalUIPort), SearchAttributes: engine.SearchAttributes, Metrics: m.serverMetrics,
		})
		if err != nil {
			return err
		}
		m.devServer = dev
		address = dev.Address()
	}
	tlsConf, err := m.Config.temporalTLS()
	if err != nil {
		return err
	}
	opts := engine.ClientOptions{Address: address, Namespace: m.Config.TemporalNamespace, TLS: tlsConf}
	if m.metrics.Recording() {
		opts.MetricsHandler, m.sdkMetrics = engine.SDKMetrics(m.metrics.Registry())
	}
	if m.tracer != nil {
		opts.TracerProvider = m.tracer
	}
	m.temporal, err = engine.Dial(ctx, opts)
	return err
}

func (m *Main) temporalAddress() string {
	if m.devServer != nil {
		return m.devServer.Address()
	}
	return m.Config.TemporalAddress
}

// startWorker runs the interpreter, the action activities, the schedule ticks and the
// billing cycle (creating its schedule on first start), and the relay poller. Every
// instance with a worker polls relays: the poll leases in the database keep each bot to one
// poller at a time, and a stopped poller gives its leases up. The worker is a version of
// Temporal's worker deployment, made current as it starts (promote).
func (m *Main) startWorker(ctx context.Context, st *stores, services *wiring.Services, botAPI *activities.BotAPI,
	policy egress.Policy, egressClient *http.Client) error {
	if err := schedules.EnsureBillingSchedule(m.loopsCtx, m.temporal, engine.TaskQueue); err != nil {
		return fmt.Errorf("billing schedule: %w", err)
	}
	build := m.Config.BuildID
	if build == "" {
		var err error
		if build, err = engine.BinaryBuildID(); err != nil {
			return fmt.Errorf("build id: %w", err)
		}
	}
	m.worker = wiring.NewWorker(m.temporal, engine.TaskQueue, wiring.WorkerDeps{
		WorkerDeps: engine.WorkerDeps{
			Workflows:   st.workflows,
			BotSessions: st.relays,
			Actions: activities.Registry(activities.Deps{
				ActionDependencies: st.integrations,
				EgressPolicy:       policy,
				Egress:             egressClient,
				MessengerABaseURL:  m.Config.MessengerABaseURL,
				MessengerBBaseURL:  m.Config.MessengerBBaseURL,
				Tasks:              st.work,
			}),
			Metrics: m.metrics,
			BuildID: build,
		},
		Intake:  services.Intake,
		Billing: st.billing,
		Agent:   services.Agent,
		Bulk:    services.Bulk,
	})
	if err := m.worker.Start(); err != nil {
		return err
	}
	if err := m.promote(ctx, build); err != nil {
		return err
	}
	poller := &intake.RelayPoller{Intake: services.Intake, BotAPI: botAPI, Log: slog.Default()}
	m.loops.Go(func() { poller.Run(m.loopsCtx) })
	return nil
}

// promoteTimeout bounds how long start-up waits for Temporal to register the worker's build.
const promoteTimeout = time.Minute

// promote makes the worker's build current, so that it takes the runs and the workers of
// other builds take none. A newer build already current keeps them: this worker then waits
// idle, and says so.
func (m *Main) promote(ctx context.Context, build string) error {
	ctx, cancel := context.WithTimeout(ctx, promoteTimeout)
	defer cancel()
	current, err := engine.Promote(ctx, m.temporal, build)
	if err != nil {
		return fmt.Errorf("worker deployment %s: %w", engine.DeploymentName, err)
	}
	if current != build {
		slog.Warn("a newer build is current: this worker takes no runs until its build is made current",
			"deployment", engine.DeploymentName, "build", build, "current", current)
		return nil
	}
	slog.Info("worker build is current", "deployment", engine.DeploymentName, "build", build)
	return nil
}

// mailSender delivers mail by SMTP_URL; nil when it is not set, and mail stays in the outbox.
func (m *Main) mailSender() (*mailer.Sender, error) {
	if m.Config.SMTPURL == "" {
		slog.Warn("SMTP_URL is not set: new accounts are active without e-mail activation, and mail stays in the outbox")
		return nil, nil
	}
	smtpCfg, err := mailer.ParseURL(m.Config.SMTPURL)
	if err != nil {
		return nil, fmt.Errorf("SMTP_URL: %w", err)
	}
	return mailer.NewSender(smtpCfg), nil
}

// apiServer hands the API what its handlers need.
func (m *Main) apiServer(st *stores, services *wiring.Services, catalog *schemas.Catalog, botAPI *activities.BotAPI,
	policy egress.Policy, egressClient *http.Client) (*api.Server, error) {
	contract, err := schemas.Load()
	if err != nil {
		return nil, fmt.Errorf("load contract: %w", err)
	}
	secure, _ := m.Config.secureCookies()
	sameSite, _ := m.Config.sameSite()
	s := &api.Server{
		Auth:         st.auth,
		Company:      st.companies,
		Contract:     contract,
		Catalog:      catalog,
		Workflows:    st.workflows,
		Drafts:       services.Drafts,
		Runs:         services.Runs,
		Intake:       services.Intake,
		Publisher:    services.Publisher,
		Bus:          m.bus,
		Integrations: st.integrations,
		Relays:       st.relays,
		BotAPI:       botAPI,
		Webhooks:     st.webhooks,
		Files:        st.files,
		Billing:      st.billing,
		Desktop:      st.desktop,
		Work:         st.work,
		Agent:        services.Agent,
		Bulk:         services.Bulk,
		Console:      web.Console,
		ProviderCheck: &activities.ProviderCheck{Store: st.integrations, Client: egressClient, Policy: policy,
			MessengerABaseURL: m.Config.MessengerABaseURL, MessengerBBaseURL: m.Config.MessengerBBaseURL},
		PartyLookup:     &activities.PartyLookup{Store: st.integrations, Client: egressClient},
		SiteChat:        st.siteChat,
		SiteChatLimiter: sitechat.NewPublicLimiter(float64(m.Config.SiteChatRate), int(m.Config.SiteChatBurst)),
		Health: []api.HealthCheck{
			{Name: "database", Check: func(ctx context.Context) error { return models.Ping(ctx, m.db) }},
			{Name: "temporal", Check: func(ctx context.Context) error {
				_, err := m.temporal.CheckHealth(ctx, &client.CheckHealthRequest{})
				return err
			}},
		},
		Cookies:           api.CookieSettings{Secure: secure, SameSite: sameSite},
		TrustedProxies:    m.Config.trustedProxies(),
		PublicURL:         m.Config.PublicURL,
		TemporalUIURL:     m.temporalUIURL(),
		TemporalNamespace: m.Config.TemporalNamespace,
		MaxBodyBytes:      m.Config.MaxBodyBytes,
		SafetyPoll:        m.Config.SafetyPoll,
		Metrics:           m.metrics,
		Now:               func() time.Time { return time.Now().UTC() },
	}
	if m.tracer != nil {
		s.TracerProvider = m.tracer
	}
	return s, nil
}

// serve starts listening and serving the API.
func (m *Main) serve(server *api.Server, dialect models.Dialect) error {
	handler, err := server.Handler()
	if err != nil {
		return err
	}
	m.ln, err = net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return err
	}
	m.http = &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	// Shutdown neither waits for nor closes the site chat sockets (hijacked connections).
	m.http.RegisterOnShutdown(server.CloseSockets)
	go func() {
		if err := m.http.Serve(m.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("http server stopped", "err", err)
		}
	}()
	slog.Info("listening", "addr", m.Addr(), "database", dialect, "public_url", m.Config.PublicURL, "temporal", m.temporalAddress())
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
// timeout), stops the metrics listener, the background loops, the worker, the Temporal
// client and embedded server and the event bus, sends the spans still buffered, and closes
// the database.
func (m *Main) Close() error {
	var err error
	ctx, cancel := context.WithTimeout(context.Background(), m.Config.ShutdownTimeout)
	defer cancel()
	if m.http != nil {
		err = m.http.Shutdown(ctx)
	}
	if m.metricsHTTP != nil {
		err = errors.Join(err, m.metricsHTTP.Shutdown(ctx))
	}
	if m.stopLoops != nil {
		m.stopLoops()
		m.loops.Wait()
	}
	if m.worker != nil {
		m.worker.Stop()
	}
	if m.temporal != nil {
		m.temporal.Close()
	}
	if m.sdkMetrics != nil {
		m.sdkMetrics.Close()
	}
	if m.devServer != nil {
		m.devServer.Stop()
	}
	if m.bus != nil {
		m.bus.Close()
	}
	if m.tracer != nil {
		if terr := m.tracer.Shutdown(ctx); terr != nil {
			slog.Warn("spans not sent at shutdown", "err", terr)
		}
	}
	if m.db != nil {
		models.CloseDB(m.db)
	}
	return err
}
