// Package freeport picks TCP ports for servers that are told their port before they start:
// the embedded Temporal's services, the local cluster's processes, and the servers tests
// start as child processes.
//
// A port is free when Pick looks, but its server binds it later, often in another process,
// and two things could take it meanwhile. The kernel could, for the local end of an
// outgoing connection: Pick answers ports below the kernel's range for those. Another Pick
// could, in this process or another one that starts servers at the same time (parallel
// tests, a cluster's services): each port Pick answers is locked on this machine for as
// long as the process that picked it lives, and Pick passes over locked ports.
package freeport

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
)

// Ports are picked at random from [low, high): below the kernel's ephemeral range (32768
// and up by default on Linux), from which it hands out port 0's listeners and the local
// ends of outgoing connections. Temporal also keeps its services' membership ports in a
// smallint column, which holds up to 32767.
const (
	low  = 16384
	high = 32768
)

// Pick answers n distinct ports that were free to listen on at ip when asked, none of them
// in taken: ports the caller has promised elsewhere, such as a server's fixed port that is
// free now only because the server is down for a restart.
func Pick(ip string, n int, taken ...int) ([]int, error) {
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
		if slices.Contains(taken, port) {
			continue
		}
		l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
		if err != nil {
			continue
		}
		listeners = append(listeners, l)
		if lock(port) {
			ports = append(ports, port)
		}
	}
	return ports, nil
}

// locks holds the lock files of the ports this process picked open: an flock lasts as long
// as its file is open, and the kernel releases it when the process ends, however it ends.
var locks struct {
	sync.Mutex
	files []*os.File
}

// lock takes the port's lock, or answers false when another Pick holds it. Locks are taken
// per open file, so a second Pick in the same process is refused as another process is.
// Where no lock can be had (no writable temp dir, a file system without flock) it answers
// true: the locks only keep concurrent picks apart, and a lone server does without them.
func lock(port int) bool {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("agencyhub-ports-%d", os.Getuid()))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return true
	}
	f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return true
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return !errors.Is(err, syscall.EWOULDBLOCK)
	}
	locks.Lock()
	locks.files = append(locks.files, f)
	locks.Unlock()
	return true
}
