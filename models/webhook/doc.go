// Package webhook owns inbound webhooks: endpoints (a workflow's webhook.trigger made
// reachable at /hooks/{hook_key}/{endpoint_key}, with its sealed secret, the previous
// secret during a rotation's grace period, and the auth type a request must satisfy), the
// verification of a request (Standard Webhooks signatures, a shared secret, HTTP Basic),
// the stored requests (webhook events) with their idempotent ingestion, the link from each
// run an event started back to it, receipts, and the sender snippets.
//
// Starting a run belongs to the engine, which this package may not import: the engine's
// run service satisfies Runs, and the service calls it.
package webhook
