package freeport

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func TestPickAnswersDistinctFreePortsBelowTheEphemeralRange(t *testing.T) {
	ports, err := Pick("127.0.0.1", 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(ports) != 50 {
		t.Fatalf("%d ports, want 50", len(ports))
	}
	seen := map[int]bool{}
	for _, port := range ports {
		if port < low || port >= high || seen[port] {
			t.Fatalf("port %d: out of [%d, %d) or given twice in %v", port, low, high, ports)
		}
		seen[port] = true
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			t.Fatalf("port %d is not free: %v", port, err)
		}
		l.Close()
	}
}

func TestPickPassesOverTakenPorts(t *testing.T) {
	var even []int
	for port := low; port < high; port += 2 {
		even = append(even, port)
	}
	ports, err := Pick("127.0.0.1", 50, even...)
	if err != nil {
		t.Fatal(err)
	}
	for _, port := range ports {
		if port%2 == 0 {
			t.Fatalf("Pick answered port %d, which the caller gave as taken", port)
		}
	}
}

// lockEnv makes the test binary try to lock the ports it names and print how many it got.
const lockEnv = "FREEPORT_TEST_LOCK"

func TestMain(m *testing.M) {
	if ports := os.Getenv(lockEnv); ports != "" {
		got := 0
		for p := range strings.FieldsSeq(ports) {
			port, _ := strconv.Atoi(p)
			if lock(port) {
				got++
			}
		}
		os.Stdout.WriteString(strconv.Itoa(got))
		return
	}
	os.Exit(m.Run())
}

func TestAPickedPortIsLockedForOtherPicksWhileItsProcessLives(t *testing.T) {
	ports, err := Pick("127.0.0.1", 20)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, port := range ports {
		if lock(port) {
			t.Fatalf("this process locked port %d again: a second Pick here could answer it", port)
		}
		names = append(names, strconv.Itoa(port))
	}
	other := exec.Command(os.Args[0], "-test.run=^$")
	other.Env = append(os.Environ(), lockEnv+"="+strings.Join(names, " "))
	out, err := other.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "0" {
		t.Fatalf("another process locked %s of the %d ports this one picked", out, len(ports))
	}
}
