package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// process is one program the cluster started. It runs in a process group of its own, so
// that stopping it stops whatever it started too, and it is killed if the cluster dies
// without stopping it (Pdeathsig): a cluster killed with SIGKILL leaves no orphans.
type process struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error // Wait's result, once done is closed
}

// startProcess runs path with args and env, its output appended to <logDir>/<name>.log.
func startProcess(name, logDir string, env []string, path string, args ...string) (*process, error) {
	logFile, err := os.OpenFile(filepath.Join(logDir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	slog.Info("started", "process", name, "pid", p.pid())
	return p, nil
}

func (p *process) pid() int { return p.cmd.Process.Pid }

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM to the process group and, after grace, SIGKILL; it returns once the
// process has exited.
func (p *process) stop(grace time.Duration) {
	if p.exited() {
		return
	}
	if err := syscall.Kill(-p.pid(), syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		slog.Warn("SIGTERM", "process", p.name, "err", err)
	}
	select {
	case <-p.done:
	case <-time.After(grace):
		slog.Warn("still running after SIGTERM: killing", "process", p.name, "grace", grace)
		_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
		<-p.done
	}
	// The group's other members, if the leader left any behind.
	_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
}
