// Package sqlitegate opens the pool of connections to one SQLite file that models.OpenDB
// hands to GORM: the DSN's settings (WAL, foreign keys, a busy timeout, IMMEDIATE write
// transactions), and a gate through which the pool's writes go one at a time in this
// process, so that a writer waits for the last one's commit instead of in SQLite's busy
// handler. It knows nothing of GORM or of our tables.
package sqlitegate

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"strings"
	"time"

	modernc "modernc.org/sqlite"
)

// busyTimeout is how long a write waits for the one writer a SQLite file allows: behind
// another process's write in SQLite's busy handler, behind one of this process's in its
// writeGate.
const busyTimeout = 10 * time.Second

// Open returns a pool of connections to the SQLite file at path, all behind one writeGate,
// so the pool's writes queue in this process rather than in SQLite. The caller sets the
// pool's limits and closes it.
func Open(path string) *sql.DB {
	return sql.OpenDB(connector{dsn: dsn(path), gate: make(writeGate, 1)})
}

// dsn is the connection string for the SQLite file at path: foreign keys on, WAL so
// readers never wait for the writer, a busy timeout instead of immediate "database is locked",
// write transactions that take the lock when they begin, and RFC 3339-like time storage.
func dsn(path string) string {
	q := url.Values{}
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	// The path is URI-escaped: a "?" or "#" in a directory name would otherwise end it.
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// writeGate lets one connection of a pool write at a time. SQLite allows one writer per
// file and makes the others wait in its busy handler, which sleeps 1, 2, 5, 10, ... ms
// between tries: under concurrent writes the waits, not the work, bound the throughput,
// and the process idles. Queued here instead, the next writer starts the moment the last
// one commits. Reads never enter: WAL keeps them beside the writer.
type writeGate chan struct{}

// enter waits for the gate as SQLite would wait for the lock: until the busy timeout, or
// until ctx ends.
func (g writeGate) enter(ctx context.Context) error {
	select {
	case g <- struct{}{}:
		return nil
	default:
	}
	timer := time.NewTimer(busyTimeout)
	defer timer.Stop()
	select {
	case g <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return fmt.Errorf("database is locked: another write of this process held it for %s", busyTimeout)
	}
}

func (g writeGate) leave() { <-g }

// connector opens the pool's connections to one SQLite file through modernc's driver,
// all behind one writeGate. (Functions registered with modernc's package-level Register*
// calls are not on this driver; we register none.)
type connector struct {
	dsn  string
	gate writeGate
}

var sqliteDriver = &modernc.Driver{}

func (c connector) Connect(context.Context) (driver.Conn, error) {
	conn, err := sqliteDriver.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return &gatedConn{sqliteConn: conn.(sqliteConn), gate: c.gate}, nil
}

func (connector) Driver() driver.Driver { return sqliteDriver }

// sqliteConn is what database/sql uses of a modernc connection.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// gatedConn enters the gate for each transaction (they all write: the DSN begins them
// IMMEDIATE) and for each statement outside one that may write; a statement inside a
// transaction is already in. The gate only spares SQLite's sleeps: a write that bypasses
// it (a prepared statement) still waits for the lock in SQLite's busy handler.
type gatedConn struct {
	sqliteConn
	gate writeGate
	inTx bool
}

func (c *gatedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := c.gate.enter(ctx); err != nil {
		return nil, err
	}
	tx, err := c.sqliteConn.BeginTx(ctx, opts)
	if err != nil {
		c.gate.leave()
		return nil, err
	}
	c.inTx = true
	return &gatedTx{Tx: tx, conn: c}, nil
}

func (c *gatedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.inTx {
		return c.sqliteConn.ExecContext(ctx, query, args)
	}
	if err := c.gate.enter(ctx); err != nil {
		return nil, err
	}
	defer c.gate.leave()
	return c.sqliteConn.ExecContext(ctx, query, args)
}

// QueryContext enters the gate for a query that may write (INSERT ... RETURNING) until
// its rows are closed, when SQLite has finished the statement.
func (c *gatedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.inTx || isSelect(query) {
		return c.sqliteConn.QueryContext(ctx, query, args)
	}
	if err := c.gate.enter(ctx); err != nil {
		return nil, err
	}
	rows, err := c.sqliteConn.QueryContext(ctx, query, args)
	if err != nil {
		c.gate.leave()
		return nil, err
	}
	return &gatedRows{sqliteRows: rows.(sqliteRows), gate: c.gate}, nil
}

// Close leaves the gate if a transaction was still open, once SQLite has rolled it back.
func (c *gatedConn) Close() error {
	err := c.sqliteConn.Close()
	if c.inTx {
		c.inTx = false
		c.gate.leave()
	}
	return err
}

func isSelect(query string) bool {
	q := strings.TrimSpace(query)
	return len(q) >= 6 && strings.EqualFold(q[:6], "select")
}

type gatedTx struct {
	driver.Tx
	conn *gatedConn
}

func (t *gatedTx) Commit() error   { defer t.end(); return t.Tx.Commit() }
func (t *gatedTx) Rollback() error { defer t.end(); return t.Tx.Rollback() }

func (t *gatedTx) end() {
	if t.conn.inTx {
		t.conn.inTx = false
		t.conn.gate.leave()
	}
}

// sqliteRows is what database/sql uses of modernc's rows.
type sqliteRows interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

// gatedRows leaves the gate when closed; database/sql closes rows once.
type gatedRows struct {
	sqliteRows
	gate writeGate
}

func (r *gatedRows) Close() error { defer r.gate.leave(); return r.sqliteRows.Close() }
