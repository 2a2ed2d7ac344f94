package freeport

import (
	"net"
	"strconv"
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
