package dbtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the admin connections' driver, as the service's

	"agencyhub/migrations"
	"agencyhub/models"
)

// Migrating is most of what a storage test costs: on PostgreSQL about 0.7 s of the
// server's CPU a database, every test's migrations queued on the one advisory lock that
// keeps instances from migrating together. So migrated test databases are made once and
// reused, across tests and across runs, like a build cache:
//
//   - a SQLite test copies a migrated template file kept in the user's cache directory;
//   - a PostgreSQL test claims a pooled schema, dbtest_<n>, by holding the session advisory
//     lock of slot n for the test's length (a crashed test's lock goes with its
//     connection), and empties its tables before use.
//
// Both are keyed by a hash of the dialect's migrations: a schema or file migrated by other
// migrations is made again. A pooled schema also records how many relations migrating
// left in it; one the last test added a table or a migration record to is dropped and
// made again.

// migrationsHash identifies a dialect's migrations.
func migrationsHash(t testing.TB, dialect models.Dialect) string {
	t.Helper()
	all, err := migrations.List(dialect)
	if err != nil {
		t.Fatalf("list migrations: %v", err)
	}
	h := sha256.New()
	for _, m := range all {
		fmt.Fprintf(h, "%d %s %d\n%s", m.Version, m.Name, len(m.SQL), m.SQL)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

var sqliteTemplateMu sync.Mutex

// migratedSQLite answers the path of a new migrated SQLite file in the test's directory.
func migratedSQLite(t testing.TB) string {
	t.Helper()
	template := sqliteTemplate(t)
	path := sqlitePath(t)
	if err := copyFile(template, path); err != nil {
		t.Fatalf("copy the migrated SQLite template: %v", err)
	}
	return path
}

// sqliteTemplate answers the cached migrated SQLite file, migrating it first when no run
// has yet. Several test processes may migrate it at once; each renames its own into place.
func sqliteTemplate(t testing.TB) string {
	t.Helper()
	sqliteTemplateMu.Lock()
	defer sqliteTemplateMu.Unlock()
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "agencyhub-dbtest")
	path := filepath.Join(dir, "sqlite-"+migrationsHash(t, models.SQLite)+".db")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatalf("create the test database cache: %v", err)
	}
	stale, _ := filepath.Glob(filepath.Join(dir, "sqlite-*.db"))
	for _, f := range stale {
		os.Remove(f)
	}
	work, err := os.MkdirTemp(dir, "migrating-")
	if err != nil {
		t.Fatalf("create the test database cache: %v", err)
	}
	defer os.RemoveAll(work)
	db, dialect, err := models.OpenDB(filepath.Join(work, "template.db"), "")
	if err != nil {
		t.Fatalf("open the SQLite template: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = migrations.Apply(ctx, db, dialect)
	models.CloseDB(db) // the last connection to close folds the write-ahead log into the file
	if err != nil {
		t.Fatalf("migrate the SQLite template: %v", err)
	}
	if err := os.Rename(filepath.Join(work, "template.db"), path); err != nil {
		t.Fatalf("keep the SQLite template: %v", err)
	}
	return path
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// poolLockClass is the first key of the pool's advisory locks, the slot number the second
// (two-key locks never meet the migrations' one-key lock).
const poolLockClass = 73_519

// claimsDB holds the claims' connections, one per test holding a schema.
var claimsDB = sync.OnceValues(func() (*sql.DB, error) { return sql.Open("pgx", postgresURL()) })

// migratedPostgres claims a pooled schema for the test, migrated and empty, and answers
// the URL that opens it. The claim ends with the test, after its own connections closed.
func migratedPostgres(t testing.TB) string {
	t.Helper()
	db, err := claimsDB()
	if err != nil {
		t.Fatalf("open PostgreSQL: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("connect to PostgreSQL: %v", err)
	}
	var slot int
	for ; ; slot++ {
		var claimed bool
		if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1, $2)", poolLockClass, slot).Scan(&claimed); err != nil {
			conn.Close()
			t.Fatalf("claim a test schema: %v", err)
		}
		if claimed {
			break
		}
	}
	t.Cleanup(func() {
		conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1, $2)", poolLockClass, slot)
		conn.Close()
	})
	schema := fmt.Sprintf("dbtest_%d", slot)
	if err := prepareSchema(ctx, t, conn, schema); err != nil {
		t.Fatalf("prepare test schema %s: %v", schema, err)
	}
	return schemaURL(schema)
}

// prepareSchema empties the claimed schema when migrating these migrations left it as it
// is, and makes it again otherwise.
func prepareSchema(ctx context.Context, t testing.TB, conn *sql.Conn, schema string) error {
	want := migrationsHash(t, models.Postgres)
	var mark sql.NullString
	if err := conn.QueryRowContext(ctx, "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = $1", schema).Scan(&mark); err != nil && err != sql.ErrNoRows {
		return err
	}
	hash, relations, _ := strings.Cut(mark.String, " ")
	if hash == want && relations == relationCount(ctx, conn, schema) && migratedAsListed(ctx, t, conn, schema) {
		return emptySchema(ctx, conn, schema)
	}
	if _, err := conn.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE; CREATE SCHEMA "+schema); err != nil {
		return err
	}
	db, dialect, err := models.OpenDB(schemaURL(schema), "")
	if err != nil {
		return err
	}
	err = migrations.Apply(ctx, db, dialect)
	models.CloseDB(db)
	if err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, fmt.Sprintf("COMMENT ON SCHEMA %s IS '%s %s'", schema, want, relationCount(ctx, conn, schema)))
	return err
}

// migratedAsListed tells whether the schema records exactly the migrations this binary
// has (a test may have recorded another, to see it refused).
func migratedAsListed(ctx context.Context, t testing.TB, conn *sql.Conn, schema string) bool {
	all, err := migrations.List(models.Postgres)
	if err != nil {
		t.Fatalf("list migrations: %v", err)
	}
	var n, first, last int
	err = conn.QueryRowContext(ctx, "SELECT count(*), min(version), max(version) FROM "+schema+".schema_migrations").Scan(&n, &first, &last)
	return err == nil && n == len(all) && first == 1 && last == len(all)
}

// relationCount counts a schema's tables, indexes, sequences and views.
func relationCount(ctx context.Context, conn *sql.Conn, schema string) string {
	var n string
	conn.QueryRowContext(ctx, "SELECT count(*)::text FROM pg_class WHERE relnamespace = $1::regnamespace", schema).Scan(&n)
	return n
}

// emptySchema deletes every row but the migrations' own. Replica mode, which the test
// server's superuser may set, leaves the foreign keys unchecked, so the order does not
// matter; DELETE of a few rows costs a fraction of TRUNCATE's new files for every table.
func emptySchema(ctx context.Context, conn *sql.Conn, schema string) error {
	rows, err := conn.QueryContext(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations'", schema)
	if err != nil {
		return err
	}
	script := []string{"BEGIN", "SET LOCAL session_replication_role = replica"}
	for rows.Next() {
		var table string
		if err := rows.Scan(&table); err != nil {
			rows.Close()
			return err
		}
		script = append(script, "DELETE FROM "+schema+"."+table)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, strings.Join(append(script, "COMMIT"), "; "))
	return err
}

// schemaURL answers the URL of the test server that opens schema.
func schemaURL(schema string) string {
	u, _ := url.Parse(postgresURL())
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
