package engine

import (
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"

	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/integration"
	"agencyhub/models/relay"
	"agencyhub/models/webhook"
	"agencyhub/schemas"
)

// Services are the engine's services on one Temporal client and task queue: runs and the
// dispatcher of queued runs (whose loop, Dispatcher.Run, the caller runs), the trigger
// intake, draft validation, publishing and the schedules, wired to each other.
type Services struct {
	Drafts     *Drafts
	Runs       *Runs
	Dispatcher *Dispatcher
	Intake     *Intake
	Publisher  *Publisher
	Schedules  *Schedules
}

// Stores are the models the engine drives.
type Stores struct {
	Workflows    *automation.Service
	Integrations *integration.Service
	Webhooks     *webhook.Service
	Relays       *relay.Service
	// Billing queues the payment events workflows start on; nil leaves them queued.
	Billing *billing.Service
}

// NewServices wires the engine's services. Runs are dispatched to taskQueue, where the
// worker (NewWorker) must poll; publicURL is the base of the links runs carry.
func NewServices(c client.Client, taskQueue, publicURL string, catalog *schemas.Catalog, st Stores) *Services {
	drafts := &Drafts{Catalog: catalog, Integrations: st.Integrations, Workflows: st.Workflows}
	runs := &Runs{Client: c, Workflows: st.Workflows, Catalog: catalog, Drafts: drafts, Templates: st.Integrations, TaskQueue: taskQueue, PublicURL: publicURL}
	schedules := &Schedules{Client: c, Workflows: st.Workflows, Catalog: catalog, TaskQueue: taskQueue}
	intake := &Intake{Runs: runs, Workflows: st.Workflows, Catalog: catalog, Webhooks: st.Webhooks, Relays: st.Relays, Billing: st.Billing}
	return &Services{
		Drafts:     drafts,
		Runs:       runs,
		Dispatcher: NewDispatcher(runs, intake, time.Second, slog.Default()),
		Intake:     intake,
		Publisher:  &Publisher{Workflows: st.Workflows, Schedules: schedules, Drafts: drafts},
		Schedules:  schedules,
	}
}
