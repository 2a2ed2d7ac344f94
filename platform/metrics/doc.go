// Package metrics owns the service's Prometheus series: HTTP requests by route template and
// status, runs started and finished, action attempts, webhook deliveries and the mail
// outbox's backlog. Main makes one Metrics (New) when APP_METRICS_ADDR is set, serves its
// registry on that listener only, hands the registry to the Temporal SDK's reporter, and
// gives the same value to the API, the engine and the run projection, which record into
// it. Discard is the explicit value for services built without it (tests, and a Main
// whose metrics are off): it records nothing.
//
// It sits on the ground floor (platform), below models, so that every layer that records
// may import it; it imports nothing of the service's own. docs/observability.md lists the
// series and the decisions behind their labels.
package metrics
