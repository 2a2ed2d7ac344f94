// Package freeport picks TCP ports for servers that are told their port before they start:
// the embedded Temporal's services, the local cluster's processes, and the servers tests
// start as child processes.
package freeport

import (
	"errors"
	"math/rand/v2"
	"net"
	"strconv"
)

// Ports are picked at random from [low, high): below the kernel's ephemeral range (32768
// and up by default on Linux), from which it hands out port 0's listeners and the local
// ends of outgoing connections. A port taken from that range and closed again may become
// an outgoing connection's end before its server binds it; one below it is only ever taken
// by a listener that names it. Temporal also keeps its services' membership ports in a
// smallint column, which holds up to 32767.
const (
	low  = 16384
	high = 32768
)

// Pick answers n distinct ports that were free to listen on at ip when asked.
func Pick(ip string, n int) ([]int, error) {
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for tries := 0; len(ports) < n; tries++ {
		if tries == 1000 {
			return nil, errors.New("find a free port: none free among 1,000 tried")
		}
		port := low + rand.IntN(high-low)
		l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
		if err != nil {
			continue
		}
		listeners = append(listeners, l)
		ports = append(ports, port)
	}
	return ports, nil
}
