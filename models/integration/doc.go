// Package integration owns a project's integrations and templates: action dependencies (a
// provider credential of a catalog dependency type, sealed at rest, with its non-secret
// metadata and the outcome of its last connection test), the connection test itself (one
// real call to the provider), the lookup the workflow actions use to get a credential back
// decrypted, and the e-mail and message templates send actions render. Every query filters
// by company and project.
//
// It imports activities, against the usual direction of imports, for two reasons the
// activities themselves set: the engine's actions ask for credentials through
// activities.Dependencies, whose answer type lives there, and a connection test must call
// the provider exactly as an action would (the same bot API clients, SMTP sender and egress
// policy). activities imports nothing of this package.
package integration
