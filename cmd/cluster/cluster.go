package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"

	"agencyhub/platform/freeport"
)

type options struct {
	dataDir, binDir, postgres, user, name, namespace, addr string
	fresh                                                  bool
}

// cluster is everything one run of the command started.
type cluster struct {
	opts         options
	temporalAddr string
	client       client.Client
	temporal     []*temporalService
	supervisors  sync.WaitGroup
	apis         []*process
	apiAddrs     []string
	workers      []*process
	// metrics are where every process serves its metrics (writeMetricsTargets).
	metrics  []metricsTarget
	proxy    *http.Server
	stopping context.CancelFunc
}

// instances of each role of ours.
const instances = 2

func (c *cluster) logDir() string { return filepath.Join(c.opts.dataDir, "logs") }

// run starts everything, prints the line and waits for ctx to end.
func (c *cluster) run(ctx context.Context) error {
	ctx, c.stopping = context.WithCancel(ctx)
	if c.opts.fresh {
		if err := os.RemoveAll(c.opts.dataDir); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(c.logDir(), 0o700); err != nil {
		return err
	}
	for _, bin := range []string{"server", "temporal-server", "temporal-sql-tool"} {
		if _, err := os.Stat(filepath.Join(c.opts.binDir, bin)); err != nil {
			return fmt.Errorf("%s: run `make cluster`, which builds it", err)
		}
	}
	if err := c.prepareDatabases(ctx); err != nil {
		return err
	}
	if err := c.writeTemporalConfig(); err != nil {
		return err
	}
	if err := c.startTemporal(ctx); err != nil {
		return err
	}
	if err := c.prepareNamespace(ctx); err != nil {
		return err
	}
	apiURL, err := c.startOurs()
	if err != nil {
		return err
	}
	if err := c.waitReady(ctx, apiURL); err != nil {
		return err
	}
	if err := c.writeMetricsTargets(); err != nil {
		return err
	}
	fmt.Printf("API=%s API_ADDRS=%s API_PIDS=%s WORKER_PIDS=%s TEMPORAL=%s DATABASE_URL=%s METRICS=%s\n",
		apiURL, strings.Join(c.apiAddrs, ","), pids(c.apis), pids(c.workers), c.temporalAddr, c.postgresURL(c.opts.name+"_app"), c.metricsTargetsFile())
	slog.Info("cluster running; stop it with Ctrl-C", "logs", c.logDir())
	for _, p := range slices.Concat(c.apis, c.workers) {
		go func() {
			select {
			case <-p.done:
				slog.Warn("instance exited", "process", p.name, "pid", p.pid(), "err", p.err)
			case <-ctx.Done():
			}
		}()
	}
	<-ctx.Done()
	return nil
}

// startOurs starts the workers, the API instances and the proxy in front of them, and
// answers the proxy's URL, which is every instance's public URL.
func (c *cluster) startOurs() (string, error) {
	ln, err := net.Listen("tcp", c.opts.addr)
	if err != nil {
		return "", err
	}
	apiURL := "http://" + ln.Addr().String()
	secret, err := c.secretKey()
	if err != nil {
		return "", err
	}
	env := append(os.Environ(),
		"DATABASE_URL="+c.postgresURL(c.opts.name+"_app"),
		"APP_SECRET_KEY="+secret,
		"APP_DATA_DIR="+filepath.Join(c.opts.dataDir, "app"),
		"APP_PUBLIC_URL="+apiURL,
		"APP_TRUSTED_PROXIES=127.0.0.1",
		"TEMPORAL_ADDRESS="+c.temporalAddr,
		"TEMPORAL_NAMESPACE="+c.opts.namespace,
	)
	// Listen addresses are the cluster's to give, the metrics' too: one from the
	// environment would be taken by the first instance and refused to the others.
	ports, err := freeport.Pick("127.0.0.1", 3*instances)
	if err != nil {
		return "", err
	}
	address := func(i int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[i])) }
	server := filepath.Join(c.opts.binDir, "server")
	for i := range instances {
		name, metrics := fmt.Sprintf("worker-%d", i+1), address(instances+i)
		p, err := startProcess(name, c.logDir(), append(env, "APP_ROLE=worker", "APP_METRICS_ADDR="+metrics), server)
		if err != nil {
			return "", err
		}
		c.workers = append(c.workers, p)
		c.addMetricsTarget(metrics, "agencyhub", name)
	}
	p := &proxy{}
	for i := range instances {
		addr, name, metrics := address(i), fmt.Sprintf("api-%d", i+1), address(2*instances+i)
		proc, err := startProcess(name, c.logDir(), append(env, "APP_ROLE=api", "APP_ADDR="+addr, "APP_METRICS_ADDR="+metrics), server)
		if err != nil {
			return "", err
		}
		c.apis, c.apiAddrs = append(c.apis, proc), append(c.apiAddrs, addr)
		c.addMetricsTarget(metrics, "agencyhub", name)
		p.backends = append(p.backends, backend{url: &url.URL{Scheme: "http", Host: addr}, process: proc})
	}
	c.proxy = &http.Server{Handler: p.handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := c.proxy.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("proxy", "err", err)
		}
	}()
	return apiURL, nil
}

// waitReady waits until each API instance and the proxy answer /healthz with 200 and both
// workers poll the runs' task queue (their SDK identity starts with their pid).
func (c *cluster) waitReady(ctx context.Context, apiURL string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	healthy := func(base string) error {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s/healthz answered %d", base, resp.StatusCode)
		}
		return nil
	}
	return retry(ctx, func() error {
		for _, p := range slices.Concat(c.apis, c.workers) {
			if p.exited() {
				return fmt.Errorf("%s exited during start-up (%v): see %s", p.name, p.err, filepath.Join(c.logDir(), p.name+".log"))
			}
		}
		for _, addr := range c.apiAddrs {
			if err := healthy("http://" + addr); err != nil {
				return err
			}
		}
		if err := healthy(apiURL); err != nil {
			return err
		}
		ids, err := pollers(ctx, c.client)
		if err != nil {
			return err
		}
		for _, w := range c.workers {
			if !slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(id, strconv.Itoa(w.pid())+"@") }) {
				return fmt.Errorf("%s does not poll yet", w.name)
			}
		}
		return nil
	})
}

// secretKey is APP_SECRET_KEY from the environment, or one generated into the data dir
// on first start and kept for the next.
func (c *cluster) secretKey() (string, error) {
	if k := os.Getenv("APP_SECRET_KEY"); k != "" {
		return k, nil
	}
	path := filepath.Join(c.opts.dataDir, "secret.key")
	if b, err := os.ReadFile(path); err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	b := make([]byte, 48)
	rand.Read(b)
	k := base64.StdEncoding.EncodeToString(b)
	return k, os.WriteFile(path, []byte(k+"\n"), 0o600)
}

// stop stops what run started: the proxy, our instances, then Temporal's services.
func (c *cluster) stop() {
	if c.stopping != nil {
		c.stopping()
	}
	if c.proxy != nil {
		c.proxy.Close()
	}
	var wg sync.WaitGroup
	for _, p := range slices.Concat(c.apis, c.workers) {
		wg.Go(func() { p.stop(30 * time.Second) })
	}
	wg.Wait()
	c.supervisors.Wait()
	for _, s := range c.temporal {
		wg.Go(func() { s.current().stop(20 * time.Second) })
	}
	wg.Wait()
	if c.client != nil {
		c.client.Close()
	}
	slog.Info("cluster stopped")
}

func pids(ps []*process) string {
	var out []string
	for _, p := range ps {
		out = append(out, strconv.Itoa(p.pid()))
	}
	return strings.Join(out, ",")
}
