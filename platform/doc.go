// Package platform is the ground floor: infrastructure every layer uses and no domain
// owns. Its packages are the event bus (realtime), the store of uploaded files (filestore),
// the Prometheus series (metrics, with metricstest), the SQLite connection pool with its
// write gate (sqlitegate), the ports given to servers before they start (freeport), and
// what benchmarks measure with (benchtest).
//
// It ranks below models so that models, and every layer above them, may import it, while
// it imports nothing of ours: it knows no tenant, no table and no Problem.
// Where a piece must say why it refused something (the file store's refusals and
// not-founds), it returns errors of its own that carry the problem code and field, and
// models.AsError reads them, the one place any error becomes a domain error.
package platform
