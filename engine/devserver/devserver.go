// Package devserver embeds a single-process Temporal server (frontend, history, matching
// and worker services, one history shard, SQLite persistence) and its Web UI, for
// `make run` and the tests. It is its own package so that only the binary and the tests
// that start a server link the whole Temporal server.
package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	uiserver "github.com/temporalio/ui-server/v2/server"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	uiserveroptions "github.com/temporalio/ui-server/v2/server/server_options"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/membership/static"
	"go.temporal.io/server/common/metrics"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
	"go.uber.org/zap"

	"agencyhub/engine/temporalns"
	"agencyhub/platform/freeport"
)

// Options configure the embedded Temporal server.
type Options struct {
	// DataDir holds temporal.db; empty keeps everything in memory (tests).
	DataDir   string
	Namespace string
	// IP the services bind to; loopback by default.
	IP string
	// Port of the frontend gRPC service; 0 picks a free one.
	Port int
	// LogLevel of the server's own log (debug, info, warn, error).
	LogLevel string
	// UIPort serves the Temporal Web UI on IP; 0 serves none.
	UIPort int
	// SearchAttributes are custom search attributes the namespace has, by name and type:
	// set when the namespace is created, added to one created before.
	SearchAttributes map[string]enumspb.IndexedValueType
	// Metrics receives the server's own metrics (serverMetrics); nil records none.
	Metrics *prometheus.Registry
}

// Server is a single-process Temporal cluster: frontend, history, matching and worker
// services on loopback ports, persisted in one SQLite file with one history shard.
type Server struct {
	server  temporal.Server
	ui      *uiserver.Server
	address string
	uiURL   string
	// logLevel is the least level the server logs; Stop raises it (see there).
	logLevel zap.AtomicLevel
	// metrics stops the reporting of the server's metrics; nil when they are not recorded.
	metrics io.Closer
}

// The embedded cluster's name and id; the id only has to be a stable UUID.
const (
	clusterName       = "active"
	embeddedClusterID = "5d0c3c1e-4b8a-4a7e-9d52-0a6f2f1c7b21"
)

// Start starts the embedded server and returns once it accepts connections.
func Start(opts Options) (*Server, error) {
	if opts.Namespace == "" {
		return nil, errors.New("embedded Temporal: namespace is required")
	}
	if opts.IP == "" {
		opts.IP = "127.0.0.1"
	}
	ports, err := freeport.Pick(opts.IP, 5, opts.Port)
	if err != nil {
		return nil, err
	}
	if opts.Port != 0 {
		ports[0] = opts.Port
	}
	addr := servicePorts{frontend: ports[0], history: ports[1], matching: ports[2], worker: ports[3], http: ports[4], ip: opts.IP}
	sqlConf, err := sqliteConfig(opts)
	if err != nil {
		return nil, err
	}
	conf := serverConfig(addr, sqlConf)

	level := opts.LogLevel
	if level == "" {
		level = "warn"
	}
	logLevel := zap.NewAtomicLevelAt(log.ParseZapLevel(level))
	logger := log.NewZapLogger(log.BuildZapLogger(log.Config{Level: level, Format: "json"}).WithOptions(zap.IncreaseLevel(logLevel)))
	// One read and one write partition per task queue (Temporal's default is four): the few
	// pollers of a single process then find every task in the one partition they poll,
	// instead of tasks waiting in partitions no poller is on until they are forwarded.
	// The transfer queue, which hands new workflow and activity tasks to matching, may read
	// 1,000 times a second where Temporal allows 20 per shard: with the one shard here,
	// that limit held every task after the first few for up to 50 ms. Worker deployment
	// versions (the workers' builds, engine.Promote) need the two versioning switches on:
	// they are by default in this server version, and set here so that they stay on.
	// A caller waiting for a run's end (workflow.call with wait, retry-action) long-polls
	// the history service, which wakes it through a one-slot channel that drops a
	// notification when it is full: under load a finished run was answered only when the
	// poll expired, after the default 20 s. Polls of 5 s bound such a miss.
	dyn := dynamicconfig.StaticClient{
		dynamicconfig.EnableDeploymentVersions.Key():                     true,
		dynamicconfig.FrontendEnableWorkerVersioningWorkflowAPIs.Key():   true,
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key():                 8096,
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
		dynamicconfig.MatchingNumTaskqueueReadPartitions.Key():           1,
		dynamicconfig.MatchingNumTaskqueueWritePartitions.Key():          1,
		dynamicconfig.TransferProcessorMaxPollRPS.Key():                  1000,
		dynamicconfig.HistoryLongPollExpirationInterval.Key():            5 * time.Second,
	}
	serverOpts := []temporal.ServerOption{
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(map[primitives.ServiceName]static.Hosts{
			primitives.FrontendService: static.SingleLocalHost(addr.of(addr.frontend)),
			primitives.HistoryService:  static.SingleLocalHost(addr.of(addr.history)),
			primitives.MatchingService: static.SingleLocalHost(addr.of(addr.matching)),
			primitives.WorkerService:   static.SingleLocalHost(addr.of(addr.worker)),
		}),
		temporal.WithLogger(logger),
		temporal.WithDynamicConfigClient(dyn),
	}
	var reporting io.Closer
	if opts.Metrics != nil {
		var handler metrics.Handler
		handler, reporting = serverMetrics(opts.Metrics)
		serverOpts = append(serverOpts, temporal.WithCustomMetricsHandler(handler))
	}
	server, err := temporal.NewServer(serverOpts...)
	if err != nil {
		if reporting != nil {
			reporting.Close()
		}
		return nil, fmt.Errorf("embedded Temporal: %w", err)
	}
	if err := server.Start(); err != nil {
		if reporting != nil {
			reporting.Close()
		}
		return nil, fmt.Errorf("embedded Temporal: start: %w", err)
	}
	d := &Server{server: server, address: addr.of(addr.frontend), logLevel: logLevel, metrics: reporting}
	if err := d.addSearchAttributes(opts); err != nil {
		d.Stop()
		return nil, fmt.Errorf("embedded Temporal: search attributes: %w", err)
	}
	if opts.UIPort != 0 {
		d.startUI(opts, addr.of(opts.UIPort))
	}
	slog.Info("embedded Temporal started", "address", d.address, "namespace", opts.Namespace, "data", sqlConf.DatabaseName, "ui", d.uiURL)
	return d, nil
}

// addSearchAttributes adds the search attributes a namespace created before they were
// configured lacks; a new namespace has them already.
func (d *Server) addSearchAttributes(opts Options) error {
	if len(opts.SearchAttributes) == 0 {
		return nil
	}
	c, err := client.Dial(client.Options{
		HostPort:  d.address,
		Namespace: opts.Namespace,
		Logger:    sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)),
	})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return temporalns.AddSearchAttributes(ctx, c, opts.Namespace, opts.SearchAttributes)
}

// servicePorts are where the embedded cluster's services listen.
type servicePorts struct {
	ip                                        string
	frontend, history, matching, worker, http int
}

func (p servicePorts) of(port int) string { return net.JoinHostPort(p.ip, strconv.Itoa(port)) }

// serverConfig is the single-process cluster: one history shard, SQLite persistence,
// archival off, every service on loopback.
func serverConfig(p servicePorts, sqlConf *config.SQL) *config.Config {
	conf := &config.Config{}
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = p.ip
	conf.Persistence.DefaultStore = "sqlite"
	conf.Persistence.VisibilityStore = "sqlite"
	conf.Persistence.NumHistoryShards = 1
	conf.Persistence.DataStores = map[string]config.DataStore{"sqlite": {SQL: sqlConf}}
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        clusterName,
		CurrentClusterName:       clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{clusterName: {
			Enabled: true, InitialFailoverVersion: 1,
			RPCAddress: p.of(p.frontend), HTTPAddress: p.of(p.http),
			ClusterID: embeddedClusterID,
		}},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	service := func(grpcPort, httpPort int) config.Service {
		var s config.Service
		s.RPC.GRPCPort, s.RPC.HTTPPort, s.RPC.BindOnIP = grpcPort, httpPort, p.ip
		return s
	}
	conf.Services = map[string]config.Service{
		"frontend": service(p.frontend, p.http),
		"history":  service(p.history, 0),
		"matching": service(p.matching, 0),
		"worker":   service(p.worker, 0),
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = p.of(p.frontend)
	return conf
}

// startUI serves the Temporal Web UI, as Temporal's own CLI embeds it, so operators can
// read any run's history (its workflow id is our workflow_run_id). The UI server exits the
// process when it cannot listen, so a busy port is checked first and only logged.
func (d *Server) startUI(opts Options, addr string) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		slog.Warn("Temporal Web UI not started: its port is taken", "addr", addr, "err", err)
		return
	}
	l.Close()
	d.ui = uiserver.NewServer(uiserveroptions.WithConfigProvider(&uiconfig.Config{
		Host: opts.IP, Port: opts.UIPort, TemporalGRPCAddress: d.address, EnableUI: true,
		DefaultNamespace: opts.Namespace, HideLogs: true, DisableNewsFetch: true,
		CORS: uiconfig.CORS{CookieInsecure: true},
	}))
	go func() {
		if err := d.ui.Start(); err != nil {
			slog.Error("Temporal Web UI stopped", "err", err)
		}
	}()
	d.uiURL = "http://" + addr
}

// Address is the frontend's host:port for clients.
func (d *Server) Address() string { return d.address }

// UIURL is where the Temporal Web UI answers; empty when it is off.
func (d *Server) UIURL() string { return d.uiURL }

// Stop stops the Web UI and the server. The server stops its services one by one, and its
// own system workers keep polling the frontend that stopped first: each poll then logs a
// warning (closing transport, dial error) or, from the metrics interceptor of a poll cut
// short, an error ("unable to add metrics baggage to gRPC trailer") that says only that
// the server is stopping. So from here on the server logs only what would crash it; the
// caller stops its own workers before.
func (d *Server) Stop() {
	d.logLevel.SetLevel(zap.DPanicLevel)
	if d.ui != nil {
		d.ui.Stop()
	}
	d.server.Stop()
	if d.metrics != nil {
		d.metrics.Close()
	}
}

// sqliteConfig points the SQLite persistence at temporal.db in the data dir (creating its
// schema on first start) or at a private in-memory database, and registers the namespace.
func sqliteConfig(opts Options) (*config.SQL, error) {
	conf := &config.SQL{PluginName: sqliteplugin.PluginName}
	if opts.DataDir == "" {
		conf.ConnectAttributes = map[string]string{"mode": "memory", "cache": "shared"}
		conf.DatabaseName = "temporal-" + strconv.Itoa(rand.IntN(1<<30))
	} else {
		if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
			return nil, err
		}
		// WAL with synchronous=NORMAL, like the app database: a crash of the process loses
		// nothing, and commits skip the fsync that otherwise halves run throughput.
		conf.ConnectAttributes = map[string]string{"mode": "rwc", "journal_mode": "wal", "synchronous": "1"}
		conf.DatabaseName = filepath.Join(opts.DataDir, "temporal.db")
	}
	// A new file needs the schema; an in-memory database gets it from the SQLite plugin.
	if _, err := os.Stat(conf.DatabaseName); opts.DataDir != "" && errors.Is(err, os.ErrNotExist) {
		if err := sqliteschema.SetupSchema(conf); err != nil {
			return nil, fmt.Errorf("embedded Temporal: set up schema: %w", err)
		}
	}
	ns, err := sqliteschema.NewNamespaceConfig(clusterName, opts.Namespace, false, opts.SearchAttributes)
	if err != nil {
		return nil, err
	}
	if err := sqliteschema.CreateNamespaces(conf, ns); err != nil {
		return nil, fmt.Errorf("embedded Temporal: create namespace: %w", err)
	}
	return conf, nil
}
