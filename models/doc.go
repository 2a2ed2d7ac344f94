// Package models owns domain rules and storage. The root package holds what every area
// shares: the error type the API maps to Problem responses, database opening, identifiers,
// pagination and secret sealing. Each area lives in a sub-package (auth, company, outbox, ...).
// Infrastructure that is no domain area (the event bus, the file store, metrics) lives on
// the floor below, in platform.
package models
