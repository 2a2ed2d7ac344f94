// Package dbtest gives storage tests a fresh, migrated database on every dialect: always a
// SQLite file, and PostgreSQL when a server answers (TEST_DATABASE_URL, default the local
// trust-auth database "test"). Each PostgreSQL database is a schema of its own, dropped
// afterwards, so packages and tests run in parallel without seeing each other's rows.
package dbtest

import (
	"context"
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

	"agencyhub/migrations"
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
// fresh migrated database. The test and its subtests run in parallel with other tests:
// their databases are their own.
func ForEachDialect(t *testing.T, fn func(t *testing.T, db *DB)) {
	t.Helper()
	forEachDialect(t, true, fn)
}

// ForEachBlankDialect is ForEachDialect with databases that no migration touched yet, for
// tests of the migrations themselves.
func ForEachBlankDialect(t *testing.T, fn func(t *testing.T, db *DB)) {
	t.Helper()
	forEachDialect(t, false, fn)
}

func forEachDialect(t *testing.T, migrate bool, fn func(t *testing.T, db *DB)) {
	t.Helper()
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, open(t, sqlitePath(t), migrate))
	})
	t.Run("postgres", func(t *testing.T) {
		if !postgresAnswers() {
			t.Skipf("PostgreSQL pass skipped: no server answers at %s", postgresURL())
		}
		t.Parallel()
		fn(t, open(t, postgresSchemaURL(t), migrate))
	})
}

// SQLite returns a migrated database in a temporary file.
func SQLite(t testing.TB) *DB {
	t.Helper()
	return open(t, sqlitePath(t), true)
}

func sqlitePath(t testing.TB) string { return filepath.Join(t.TempDir(), "test.db") }

// Postgres returns a migrated database in a new schema of the test server; the test is
// skipped, saying so, when no server answers.
func Postgres(t testing.TB) *DB {
	t.Helper()
	if !postgresAnswers() {
		t.Skipf("PostgreSQL test skipped: no server answers at %s", postgresURL())
	}
	return open(t, postgresSchemaURL(t), true)
}

// postgresSchemaURL creates a schema of its own on the test server, dropped when the test
// ends, and answers the URL that opens it.
func postgresSchemaURL(t testing.TB) string {
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
	u, _ := url.Parse(postgresURL())
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func open(t testing.TB, databaseURL string, migrate bool) *DB {
	t.Helper()
	db, dialect, err := models.OpenDB(databaseURL, "")
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(func() { models.CloseDB(db) })
	if !migrate {
		return &DB{DB: db, Dialect: dialect, URL: databaseURL}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := migrations.Apply(ctx, db, dialect); err != nil {
		t.Fatalf("migrate %s: %v", dialect, err)
	}
	return &DB{DB: db, Dialect: dialect, URL: databaseURL}
}

// String names the database in failure messages.
func (d *DB) String() string { return fmt.Sprintf("%s test database", d.Dialect) }
