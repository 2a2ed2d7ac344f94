// Package engine owns durable execution on Temporal: the embedded dev server, the client,
// the generic interpreter workflow that runs any published workflow version, the run
// service (start, cancel, replay, retry) and the projection of runs into the database.
// Workflow code never reads the database; activities are called by registered name.
package engine
