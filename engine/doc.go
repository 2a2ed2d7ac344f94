// Package engine owns durable execution on Temporal: the generic interpreter workflow that
// runs any published workflow version (Interpret), the run service that starts and steers
// runs (Runs: start, test runs, replay, retry of an action, cancel) and writes their
// projection into the database, the worker that runs the interpreter and one activity per
// action type (NewWorker), draft validation (Drafts) and the client (Dial, SDKMetrics).
// Workflow code never reads the database; activities are called by registered name.
//
// The packages beside it import it, and it imports none of them:
//
//   - engine/intake: how events start runs of published workflows: the Intake, with an
//     adapter per kind of trigger (manual, webhook, bot relay, schedule, payment and task
//     events, workflow.call); the Dispatcher, which hands queued runs, bot replies and
//     domain events to Temporal; the RelayPoller of bots in polling mode.
//   - engine/schedules: the Temporal Schedules: those of workflows' schedule triggers, kept
//     in line with each current version by the Publisher (publish, restore), the tick
//     workflow they start, the cron checks and previews; the billing cycle's schedule and
//     workflow.
//   - engine/agent: the AI employee: its session workflow and tools, the preview without a
//     model, model lists and evaluation, and the ai.agent child workflow the interpreter
//     starts by name (AgentActionWorkflowName).
//   - engine/wiring: the one package that imports all the others: it builds them on one
//     Temporal client and task queue (NewServices) and the worker that runs all their
//     workflows and activities (NewWorker), for cmd/server and the API's tests.
//   - engine/devserver: the embedded Temporal server and its Web UI, apart so that only the
//     binary and the tests that start a server link it.
//   - engine/enginetest: what these packages' tests share: one embedded server per test
//     binary, a workflow in a tenant of its own.
//
// So imports go wiring -> intake -> schedules -> engine and wiring -> agent -> engine. A
// registered Temporal name (workflow type, activity, signal, task queue, search attribute)
// is a string constant, never derived from a Go identifier: histories record it, and it
// stays when code moves between these packages.
package engine
