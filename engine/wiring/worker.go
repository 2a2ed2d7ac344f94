package wiring

import (
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"agencyhub/engine"
	"agencyhub/engine/agent"
)

// WorkerDeps are what the worker of a task queue needs: the interpreter's
// (engine.WorkerDeps), and the services of the engine's other packages whose workflows and
// activities it runs too.
type WorkerDeps struct {
	engine.WorkerDeps
	// Agent runs the AI employee's sessions and ai.agent actions; nil leaves them to other
	// workers of the task queue.
	Agent *agent.Agent
}

// NewWorker builds the worker of a task queue (engine.TaskQueue in production): the
// interpreter, the projection writer and the action activities (engine.NewWorker), and the
// workflows and activities of the services d holds.
func NewWorker(c client.Client, taskQueue string, d WorkerDeps) worker.Worker {
	w := engine.NewWorker(c, taskQueue, d.WorkerDeps)
	if d.Agent != nil {
		d.Agent.Register(w)
	}
	return w
}
