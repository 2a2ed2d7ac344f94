package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/jackc/pgx/v5"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/types/known/durationpb"

	"agencyhub/engine"
	"agencyhub/engine/temporalns"
	"agencyhub/platform/freeport"
)

// temporalServices are Temporal's services, each a process of its own; frontend is the
// one clients dial.
var temporalServices = []string{"history", "matching", "frontend", "worker"}

// historyShards is fixed when the persistence database is created; docs/operations.md
// says when a cluster needs more.
const historyShards = 4

// temporalSchemas are the databases Temporal needs and the schema each gets: the SQL
// tool's embedded copies, from the same module as the server.
var temporalSchemas = map[string]string{"temporal": "postgresql/v12/temporal", "visibility": "postgresql/v12/visibility"}

// prepareDatabases creates the three databases that do not exist yet, and brings the
// Temporal ones to the schema of the pinned server (update-schema is a no-op when they have
// it): Temporal's with its own SQL tool, ours empty (each instance migrates it at start).
func (c *cluster) prepareDatabases(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, c.postgresURL("postgres"))
	if err != nil {
		return fmt.Errorf("PostgreSQL at %s: %w", c.opts.postgres, err)
	}
	defer conn.Close(ctx)
	exists := func(db string) (bool, error) {
		var n int
		err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname = $1", db).Scan(&n)
		return n > 0, err
	}
	if c.opts.fresh {
		for _, db := range c.databases() {
			if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{db}.Sanitize()+" WITH (FORCE)"); err != nil {
				return fmt.Errorf("drop %s: %w", db, err)
			}
		}
	}
	for suffix, schema := range temporalSchemas {
		db := c.opts.name + "_" + suffix
		ok, err := exists(db)
		if err != nil {
			return err
		}
		if !ok {
			if err := c.sqlTool(ctx, db, "create-database"); err != nil {
				return err
			}
			if err := c.sqlTool(ctx, db, "setup-schema", "-v", "0.0"); err != nil {
				return err
			}
		}
		if err := c.sqlTool(ctx, db, "update-schema", "-s", schema); err != nil {
			return err
		}
	}
	app := c.opts.name + "_app"
	ok, err := exists(app)
	if err == nil && !ok {
		_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{app}.Sanitize())
	}
	return err
}

func (c *cluster) databases() []string {
	return []string{c.opts.name + "_temporal", c.opts.name + "_visibility", c.opts.name + "_app"}
}

func (c *cluster) postgresURL(db string) string {
	return "postgres://" + c.opts.user + "@" + c.opts.postgres + "/" + db + "?sslmode=disable"
}

// sqlTool runs temporal-sql-tool on one database; its output goes to the sql-tool log.
func (c *cluster) sqlTool(ctx context.Context, db string, command ...string) error {
	host, port, err := net.SplitHostPort(c.opts.postgres)
	if err != nil {
		return fmt.Errorf("-postgres %q: %w", c.opts.postgres, err)
	}
	args := append([]string{"--plugin", "postgres12", "--ep", host, "-p", port, "-u", c.opts.user, "--db", db}, command...)
	cmd := exec.CommandContext(ctx, filepath.Join(c.opts.binDir, "temporal-sql-tool"), args...)
	out, err := cmd.CombinedOutput()
	log, _ := os.OpenFile(filepath.Join(c.logDir(), "sql-tool.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if log != nil {
		fmt.Fprintf(log, "$ temporal-sql-tool %s\n%s", strings.Join(args, " "), out)
		log.Close()
	}
	if err != nil {
		return fmt.Errorf("temporal-sql-tool %s on %s: %w: %s", command[0], db, err, out)
	}
	return nil
}

// temporalConfig is a server's configuration: the same for all four processes but for the
// address each serves its Prometheus metrics on (Temporal's own reporter, at /metrics);
// each starts the service its --service flag names.
var temporalConfig = template.Must(template.New("temporal").Parse(`log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: {{.Shards}}
  datastores:
    default:
      sql:
        pluginName: postgres12
        databaseName: {{.Name}}_temporal
        connectAddr: {{.Postgres}}
        connectProtocol: tcp
        user: {{.User}}
        maxConns: 10
        maxIdleConns: 10
        maxConnLifetime: 1h
    visibility:
      sql:
        pluginName: postgres12
        databaseName: {{.Name}}_visibility
        connectAddr: {{.Postgres}}
        connectProtocol: tcp
        user: {{.User}}
        maxConns: 2
        maxIdleConns: 2
        maxConnLifetime: 1h
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
  metrics:
    prometheus:
      framework: tally
      listenAddress: {{.Metrics}}
services:
{{- range $name, $p := .Ports}}
  {{$name}}:
    rpc:
      grpcPort: {{$p.GRPC}}
      membershipPort: {{$p.Membership}}
      bindOnIP: 127.0.0.1
{{- if $p.HTTP}}
      httpPort: {{$p.HTTP}}
{{- end}}
{{- end}}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: {{.Frontend}}
dcRedirectionPolicy:
  policy: noop
archival:
  history:
    state: disabled
  visibility:
    state: disabled
namespaceDefaults:
  archival:
    history:
      state: disabled
    visibility:
      state: disabled
publicClient:
  hostPort: {{.Frontend}}
dynamicConfigClient:
  filepath: {{.DynamicConfig}}
  pollInterval: 10s
`))

// dynamicConfig lets the transfer queue, which hands new workflow and activity tasks to
// matching, read 1,000 times a second: Temporal's 20 per shard holds each task up to 50 ms
// on a cluster of few shards (docs/operations.md). Its history long polls last 5 s, as the
// embedded server's do (engine/devserver).
const dynamicConfig = `history.transferProcessorMaxPollRPS:
  - value: 1000
history.longPollExpirationInterval:
  - value: 5s
`

type servicePorts struct{ GRPC, Membership, HTTP int }

// writeTemporalConfig picks free ports for the services and writes each service's
// configuration and the dynamic configuration into the data dir.
func (c *cluster) writeTemporalConfig() error {
	free, err := freeport.Pick("127.0.0.1", 3*len(temporalServices)+1)
	if err != nil {
		return err
	}
	ports := map[string]servicePorts{}
	metrics := map[string]string{}
	for i, name := range temporalServices {
		ports[name] = servicePorts{GRPC: free[3*i], Membership: free[3*i+1]}
		metrics[name] = net.JoinHostPort("127.0.0.1", strconv.Itoa(free[3*i+2]))
	}
	fe := ports["frontend"]
	fe.HTTP = free[len(free)-1]
	ports["frontend"] = fe
	c.temporalAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(fe.GRPC))

	dyn := filepath.Join(c.opts.dataDir, "temporal-dynamic.yaml")
	if err := os.WriteFile(dyn, []byte(dynamicConfig), 0o600); err != nil {
		return err
	}
	for _, name := range temporalServices {
		var conf strings.Builder
		if err := temporalConfig.Execute(&conf, map[string]any{
			"Shards":        historyShards,
			"Name":          c.opts.name,
			"Postgres":      c.opts.postgres,
			"User":          c.opts.user,
			"Ports":         ports,
			"Frontend":      c.temporalAddr,
			"DynamicConfig": dyn,
			"Metrics":       metrics[name],
		}); err != nil {
			return err
		}
		if err := os.WriteFile(c.temporalConfigFile(name), []byte(conf.String()), 0o600); err != nil {
			return err
		}
		c.addMetricsTarget(metrics[name], "temporal", name)
	}
	return nil
}

// temporalConfigFile is the configuration of one of Temporal's services.
func (c *cluster) temporalConfigFile(service string) string {
	return filepath.Join(c.opts.dataDir, "temporal-"+service+".yaml")
}

// temporalService is one of Temporal's services, started again whenever it exits while the
// cluster runs: so a service that crashes, or that a fault test kills, comes back as it
// would under a process supervisor in production.
type temporalService struct {
	name    string
	mu      sync.Mutex
	process *process
}

func (s *temporalService) current() *process {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.process
}

// startTemporal starts the services. The first to start on a new database writes the
// cluster's metadata, and two that find none at once fail on each other's row: so history
// starts alone, and the others once the row is there.
func (c *cluster) startTemporal(ctx context.Context) error {
	for i, name := range temporalServices {
		s := &temporalService{name: name}
		if err := c.startTemporalService(s); err != nil {
			return err
		}
		c.temporal = append(c.temporal, s)
		c.supervisors.Go(func() { c.supervise(ctx, s) })
		if i == 0 {
			if err := c.waitClusterMetadata(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *cluster) waitClusterMetadata(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.postgresURL(c.opts.name+"_temporal"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	return retry(ctx, func() error {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM cluster_metadata_info").Scan(&n); err != nil || n == 0 {
			return fmt.Errorf("Temporal wrote no cluster metadata within a minute (%v): see %s", err, c.logDir())
		}
		return nil
	})
}

func (c *cluster) startTemporalService(s *temporalService) error {
	p, err := startProcess("temporal-"+s.name, c.logDir(), os.Environ(), filepath.Join(c.opts.binDir, "temporal-server"),
		"--config-file", c.temporalConfigFile(s.name), "--allow-no-auth", "start", "--service", s.name)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.process = p
	s.mu.Unlock()
	return nil
}

func (c *cluster) supervise(ctx context.Context, s *temporalService) {
	for {
		p := s.current()
		select {
		case <-ctx.Done():
			return
		case <-p.done:
		}
		slog.Warn("Temporal service exited: starting it again", "service", s.name, "pid", p.pid(), "err", p.err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		if err := c.startTemporalService(s); err != nil {
			slog.Error("Temporal service not started again", "service", s.name, "err", err)
			return
		}
	}
}

// prepareNamespace registers the namespace (once; a later start finds it) and the runs'
// search attributes, once the frontend answers.
func (c *cluster) prepareNamespace(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	tc, err := engine.Dial(ctx, engine.ClientOptions{Address: c.temporalAddr, Namespace: c.opts.namespace})
	if err != nil {
		return err
	}
	c.client = tc // closed by stop
	// The frontend answers before history and matching have joined; register retries.
	err = retry(ctx, func() error {
		_, err := tc.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
			Namespace:                        c.opts.namespace,
			WorkflowExecutionRetentionPeriod: durationpb.New(3 * 24 * time.Hour),
		})
		if _, ok := errors.AsType[*serviceerror.NamespaceAlreadyExists](err); ok {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("register namespace %s: %w", c.opts.namespace, err)
	}
	err = retry(ctx, func() error {
		return temporalns.AddSearchAttributes(ctx, tc, c.opts.namespace, engine.SearchAttributes)
	})
	if err != nil {
		return fmt.Errorf("search attributes: %w", err)
	}
	return nil
}

// retry calls fn every half second until it succeeds or ctx ends.
func retry(ctx context.Context, fn func() error) error {
	for {
		err := fn()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// pollers answers the identities of the workers polling the runs' task queue.
func pollers(ctx context.Context, tc client.Client) ([]string, error) {
	resp, err := tc.DescribeTaskQueue(ctx, engine.TaskQueue, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, p := range resp.GetPollers() {
		ids = append(ids, p.GetIdentity())
	}
	return ids, nil
}
