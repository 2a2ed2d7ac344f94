// Package wiring builds the engine's packages on one Temporal client and task queue and
// wires them to each other: the services the API and the server's loops use, and the
// worker that runs all their workflows and activities.
package wiring

import (
	"log/slog"
	"net/http"
	"time"

	"go.temporal.io/sdk/client"

	"agencyhub/activities/egress"
	"agencyhub/engine"
	"agencyhub/engine/agent"
	"agencyhub/engine/bulk"
	"agencyhub/engine/intake"
	"agencyhub/engine/schedules"
	"agencyhub/models/aiemployee"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/company"
	"agencyhub/models/integration"
	"agencyhub/models/relay"
	"agencyhub/models/webhook"
	"agencyhub/models/work"
	"agencyhub/schemas"
)

// Services are the engine's services on one Temporal client and task queue: runs and the
// dispatcher of queued runs (whose loop, Dispatcher.Run, the caller runs), the trigger
// intake, draft validation, publishing and the schedules, wired to each other.
type Services struct {
	Drafts     *engine.Drafts
	Runs       *engine.Runs
	Dispatcher *intake.Dispatcher
	Intake     *intake.Intake
	Publisher  *schedules.Publisher
	Schedules  *schedules.Schedules
	Bulk       *bulk.Service
	// Agent is the AI employee; nil without Stores.AI.
	Agent *agent.Agent
}

// Stores are the models the engine drives.
type Stores struct {
	Workflows    *automation.Service
	Integrations *integration.Service
	Webhooks     *webhook.Service
	Relays       *relay.Service
	// Billing queues the payment events workflows start on; nil leaves them queued.
	Billing *billing.Service
	// Work queues the task events workflows start on; nil leaves them queued.
	Work *work.Service
	// AI holds the AI employee's sessions; with Companies and Egress (the client model
	// providers are called through) it gives the services an Agent. Nil: no agent.
	AI        *aiemployee.Service
	Companies *company.Service
	Egress    *http.Client
	// EgressPolicy is APP_EGRESS_ALLOW parsed; drafts are checked against it.
	EgressPolicy egress.Policy
}

// NewServices wires the engine's services. Runs are dispatched to taskQueue, where the
// worker (NewWorker) must poll; webURL is the console's address, the base of the
// links runs carry.
func NewServices(c client.Client, taskQueue, webURL string, catalog *schemas.Catalog, st Stores) *Services {
	drafts := &engine.Drafts{Catalog: catalog, Integrations: st.Integrations, Workflows: st.Workflows, Egress: st.EgressPolicy}
	runs := &engine.Runs{
		Client:    c,
		Workflows: st.Workflows,
		Catalog:   catalog,
		Drafts:    drafts,
		Templates: st.Integrations,
		TaskQueue: taskQueue,
		WebURL:    webURL,
	}
	sched := &schedules.Schedules{Client: c, Workflows: st.Workflows, Catalog: catalog, TaskQueue: taskQueue}
	in := &intake.Intake{
		Runs:      runs,
		Workflows: st.Workflows,
		Catalog:   catalog,
		Webhooks:  st.Webhooks,
		Relays:    st.Relays,
		Billing:   st.Billing,
		Work:      st.Work,
	}
	var employee *agent.Agent
	if st.AI != nil {
		var err error
		employee, err = agent.NewAgent(agent.Agent{
			Store:        st.AI,
			Companies:    st.Companies,
			Workflows:    st.Workflows,
			Integrations: st.Integrations,
			Billing:      st.Billing,
			Drafts:       drafts,
			Runs:         runs,
			Catalog:      catalog,
			Client:       c,
			TaskQueue:    taskQueue,
			HTTP:         st.Egress,
		})
		if err != nil {
			panic("the AI employee's embedded tools and documents do not load: " + err.Error())
		}
	}
	return &Services{
		Agent:      employee,
		Drafts:     drafts,
		Runs:       runs,
		Dispatcher: intake.NewDispatcher(runs, in, time.Second, slog.Default()),
		Intake:     in,
		Publisher:  &schedules.Publisher{Workflows: st.Workflows, Schedules: sched, Drafts: drafts},
		Schedules:  sched,
		Bulk:       &bulk.Service{Client: c, Runs: runs, Workflows: st.Workflows, TaskQueue: taskQueue},
	}
}
