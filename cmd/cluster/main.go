// Command cluster runs the production shape on one machine, without containers: Temporal's
// own server (built from the go.temporal.io/server module go.mod pins) with its frontend,
// history, matching and internal worker services as four processes on PostgreSQL
// persistence and visibility, two API instances and two workers of ours on one PostgreSQL
// database, and a reverse proxy that alternates between the API instances. `make cluster`
// builds the binaries and runs it; docs/operations.md describes it.
//
// Once everything answers it prints one line on stdout:
//
//	API=<url> API_ADDRS=<host:port,host:port> API_PIDS=<pid,pid> WORKER_PIDS=<pid,pid> TEMPORAL=<host:port> DATABASE_URL=<url> METRICS=<file>
//
// (API is the proxy; API_ADDRS are the API instances' own addresses, in the order of their
// pids, for a client that spreads its connections over them itself; the file lists where
// every process, Temporal's and ours, serves its metrics, for a Prometheus's
// file_sd_configs) and runs until SIGINT or SIGTERM, then stops every process it started.
// Its own environment reaches every instance of ours (APP_EGRESS_ALLOW, APP_LOG_LEVEL, ...),
// except the settings the cluster sets itself (the role, the addresses, the metrics
// addresses, the database, the data dir).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var opts options
	fs := flag.NewFlagSet("cluster", flag.ContinueOnError)
	fs.StringVar(&opts.dataDir, "data", "./data/cluster", "directory of the cluster's logs, configuration, secret key and shared files")
	fs.StringVar(&opts.binDir, "bin", "./bin", "directory holding server, temporal-server and temporal-sql-tool (make cluster builds them)")
	fs.StringVar(&opts.postgres, "postgres", "127.0.0.1:5432", "host:port of the PostgreSQL server (trust authentication)")
	fs.StringVar(&opts.user, "user", "postgres", "PostgreSQL user that may create databases")
	fs.StringVar(&opts.name, "name", "agencyhub_cluster", "prefix of the three databases: <name>_temporal, <name>_visibility, <name>_app")
	fs.BoolVar(&opts.fresh, "fresh", false, "drop the three databases and the data directory first")
	fs.StringVar(&opts.namespace, "namespace", "agencyhub", "Temporal namespace of the runs")
	fs.StringVar(&opts.addr, "addr", "127.0.0.1:0", "listen address of the reverse proxy in front of the API instances")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	c := &cluster{opts: opts}
	err := c.run(ctx)
	c.stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		os.Exit(1)
	}
}
