// Package dbtest gives storage tests a migrated, empty database on every dialect: always a
// SQLite file, and PostgreSQL when a server answers (TEST_DATABASE_URL, default the local
// trust-auth database "test"). Each PostgreSQL database is a schema of its own, held by one
// test at a time, so packages and tests run in parallel without seeing each other's rows.
// Migrated databases are reused (reuse.go).
package dbtest

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"agencyhub/models"
)

const defaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// DB is one migrated test database.
type DB struct {
	*gorm.DB
	Dialect models.Dialect
	// URL opens the same database again (a SQLite path or a PostgreSQL URL).
	URL string
}

var (
	pgOnce      sync.Once
	pgAvailable bool
)

func postgresURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return defaultPostgresURL
}

func postgresAnswers() bool {
	pgOnce.Do(func() {
		u, err := url.Parse(postgresURL())
		if err != nil {
			return
		}
		conn, err := net.DialTimeout("tcp", u.Host, time.Second)
		if err == nil {
			conn.Close()
			pgAvailable = true
		}
	})
	return pgAvailable
}

// ForEachDialect runs fn as a subtest named after each available dialect, each with its own
// migrated, empty database. The test and its subtests run in parallel with other tests:
// their databases are their own.
func ForEachDialect(t *testing.T, fn func(t *testing.T, db *DB)) {
	t.Helper()
	forEachDialect(t, SQLite, Postgres, fn)
}

// ForEachBlankDialect is ForEachDialect with databases that no migration touched yet, for
// tests of the migrations themselves.
func ForEachBlankDialect(t *testing.T, fn func(t *testing.T, db *DB)) {
	t.Helper()
	forEachDialect(t, blankSQLite, blankPostgres, fn)
}

func forEachDialect(t *testing.T, sqlite, postgres func(testing.TB) *DB, fn func(t *testing.T, db *DB)) {
	t.Helper()
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, sqlite(t))
	})
	t.Run("postgres", func(t *testing.T) {
		if !postgresAnswers() {
			t.Skipf("PostgreSQL pass skipped: no server answers at %s", postgresURL())
		}
		t.Parallel()
		fn(t, postgres(t))
	})
}

// SQLite returns a migrated database in a temporary file.
func SQLite(t testing.TB) *DB {
	t.Helper()
	return open(t, migratedSQLite(t))
}

func blankSQLite(t testing.TB) *DB { return open(t, sqlitePath(t)) }

func sqlitePath(t testing.TB) string { return filepath.Join(t.TempDir(), "test.db") }

// Postgres returns a migrated database in a schema of the test server; the test is
// skipped, saying so, when no server answers.
func Postgres(t testing.TB) *DB {
	t.Helper()
	if !postgresAnswers() {
		t.Skipf("PostgreSQL test skipped: no server answers at %s", postgresURL())
	}
	return open(t, migratedPostgres(t))
}

// blankPostgres creates a schema of its own on the test server, dropped when the test
// ends, and opens it.
func blankPostgres(t testing.TB) *DB {
	t.Helper()
	admin, _, err := models.OpenDB(postgresURL(), "")
	if err != nil {
		t.Fatalf("open PostgreSQL: %v", err)
	}
	schema := "t_" + strings.ToLower(strings.ReplaceAll(models.NewID().String(), "-", ""))
	if err := admin.Exec("CREATE SCHEMA " + schema).Error; err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		models.CloseDB(admin)
	})
	return open(t, schemaURL(schema))
}

func open(t testing.TB, databaseURL string) *DB {
	t.Helper()
	db, dialect, err := models.OpenDB(databaseURL, "")
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(func() { models.CloseDB(db) })
	return &DB{DB: db, Dialect: dialect, URL: databaseURL}
}

// String names the database in failure messages.
func (d *DB) String() string { return fmt.Sprintf("%s test database", d.Dialect) }
