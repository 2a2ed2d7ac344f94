package main

import (
	"testing"
	"time"

	"agencyhub/platform/benchtest"
)

// BenchmarkSiteChatFanOut measures the site chat's fan-out through the real binary: the
// server runs as a child process (SQLite file, embedded Temporal), 5,000 visitors post
// their presence over HTTP and open their sockets, 50 operator sockets follow the project,
// then visitors post 1,000 messages over HTTP at 200 a second; each reaches its visitor's
// socket and the 50 operators'. Reported: p50/p99-ms from the post to each delivery,
// post-p99-ms (the post's answer, its commit included), and server-KiB/socket, the server
// process's resident memory grown while the sockets opened, per socket. The senders and
// sockets live in this process, so their memory and collections are not the server's.
// TestFaultSiteChatAcrossTwoInstances puts the same load on two instances on PostgreSQL.
func BenchmarkSiteChatFanOut(b *testing.B) {
	const (
		visitors  = 5000
		operators = 50
		posts     = 1000
		rate      = 200 // posts a second
	)
	raiseOpenFiles(b, visitors+operators+1024)
	env := newChildEnv(b)
	// In the field each visitor has an address of its own; here all share the loopback
	// address, which the per-address limit of public calls would stop after its burst.
	env.extra = append(env.extra, "APP_SITE_CHAT_RATE=1000000", "APP_SITE_CHAT_BURST=1000000")
	server := env.start(b)
	base := "http://" + env.addr
	c, project := signUp(b, base)
	load := newChatFanOut(b, c, project, []string{base})
	load.present(b, visitors)
	before := residentKiB(b, server.cmd.Process.Pid)
	load.open(b, c.token, operators)
	perSocket := float64(residentKiB(b, server.cmd.Process.Pid)-before) / (visitors + operators)

	b.ResetTimer()
	answers := load.send(b, posts, rate)
	if err := load.wait(time.Minute); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	r := load.end()
	if r.duplicates > 0 || r.misrouted > 0 || r.cut > 0 {
		b.Errorf("%d deliveries twice, %d to another visitor's socket, %d sockets cut", r.duplicates, r.misrouted, r.cut)
	}

	b.ReportMetric(benchtest.Millis(benchtest.Percentile(r.latency, 50)), "p50-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(r.latency, 99)), "p99-ms")
	b.ReportMetric(benchtest.Millis(benchtest.Percentile(answers, 99)), "post-p99-ms")
	b.ReportMetric(perSocket, "server-KiB/socket")
	b.ReportMetric(float64(r.delivered), "deliveries")
}
