// Package integration owns a project's integrations and templates: action dependencies (a
// provider credential of a catalog dependency type, sealed at rest, with its non-secret
// metadata and the stored outcome of its last connection test), the lookup that unseals a
// credential for the workflow actions, and the e-mail and message templates send actions
// render. Calling a provider (actions, connection tests) belongs to activities. Every query
// filters by company and project.
package integration
