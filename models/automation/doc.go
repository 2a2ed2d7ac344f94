// Package automation owns workflow records: workflows with their draft graph, immutable
// published versions, graph validation, and the stored projection of runs (runs, action
// runs and run events) that the engine writes as runs progress.
package automation
