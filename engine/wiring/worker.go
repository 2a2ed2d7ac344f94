package wiring

import (
	"maps"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"agencyhub/activities"
	"agencyhub/engine"
	"agencyhub/engine/agent"
	"agencyhub/engine/bulk"
	"agencyhub/engine/intake"
	"agencyhub/engine/schedules"
	"agencyhub/models/billing"
)

// WorkerDeps are what the worker of a task queue needs: the interpreter's
// (engine.WorkerDeps), and the services of the engine's other packages whose workflows and
// activities it runs too.
type WorkerDeps struct {
	engine.WorkerDeps
	// Intake starts the runs of schedules (the tick workflow and schedule.fire) and of
	// workflow.call; nil leaves both to other workers of the task queue.
	Intake *intake.Intake
	// Billing runs the billing cycle; nil leaves it to other workers of the task queue.
	Billing *billing.Service
	// Bulk runs bulk operations; nil leaves them to other workers of the task queue.
	Bulk *bulk.Service
	// Agent runs the AI employee's sessions and ai.agent actions; nil leaves them to other
	// workers of the task queue.
	Agent *agent.Agent
}

// NewWorker builds the worker of a task queue (engine.TaskQueue in production): the
// interpreter, the projection writer and the action activities (engine.NewWorker), and the
// workflows and activities of the services d holds.
func NewWorker(c client.Client, taskQueue string, d WorkerDeps) worker.Worker {
	if d.Intake != nil {
		d.Actions = maps.Clone(d.Actions)
		if d.Actions == nil {
			d.Actions = map[string]activities.Func{}
		}
		d.Actions[engine.ActionWorkflowCall] = d.Intake.CallWorkflow
	}
	w := engine.NewWorker(c, taskQueue, d.WorkerDeps)
	if d.Intake != nil {
		d.Intake.Register(w)
	}
	if d.Billing != nil {
		schedules.RegisterBillingCycle(w, d.Billing)
	}
	if d.Agent != nil {
		d.Agent.Register(w)
	}
	if d.Bulk != nil {
		d.Bulk.Register(w)
	}
	return w
}
