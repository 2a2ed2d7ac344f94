// Package webhook owns inbound webhooks: endpoints (a workflow's webhook.trigger made
// reachable at /hooks/{hook_key}/{endpoint_key}, with its sealed secret, the previous
// secret during a rotation's grace period, and the auth type a request must satisfy), the
// verification of a request (Standard Webhooks signatures, a shared secret, HTTP Basic),
// the stored requests (webhook events) with their idempotent ingestion, the link from each
// run an event started back to it, receipts, and the sender snippets.
//
// Starting a run belongs to the engine's trigger intake, which drives this package: it has
// a delivery received here, starts the run, and has the answer recorded here.
package webhook
