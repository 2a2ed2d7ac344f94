// Package migrations holds the versioned SQL schema, one folder per dialect, and applies it
// at start-up. Files are named NNNN_description.sql; a change is a new file in both folders,
// never an edit of an applied one. Applied versions are recorded in schema_migrations, and a
// database that records a version this binary does not know is refused.
package migrations

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"agencyhub/models"
)

//go:embed sqlite/*.sql postgres/*.sql
var files embed.FS

// Migration is one versioned SQL file.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// advisoryLockKey serialises migration runs of several instances starting together on
// PostgreSQL (an arbitrary constant, the same in every binary).
const advisoryLockKey = 7_351_904_112

// List returns the migrations of a dialect in version order.
func List(dialect models.Dialect) ([]Migration, error) {
	dir := string(dialect)
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, e := range entries {
		prefix, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		version, err := strconv.Atoi(prefix)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNNN_description.sql", e.Name())
		}
		body, err := files.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: version, Name: name, SQL: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("%s migrations: version %d found where %d was expected", dialect, m.Version, i+1)
		}
	}
	return out, nil
}

// Apply brings the database up to the newest known version. It refuses a database whose
// recorded version is newer than this binary knows.
func Apply(ctx context.Context, db *gorm.DB, dialect models.Dialect) error {
	return applyUpTo(ctx, db, dialect, 0)
}

// applyUpTo applies the migrations up to version last (0: all of them).
func applyUpTo(ctx context.Context, db *gorm.DB, dialect models.Dialect, last int) error {
	all, err := List(dialect)
	if err != nil {
		return err
	}
	known := len(all)
	if last > 0 {
		all = all[:last]
	}
	return db.WithContext(ctx).Connection(func(conn *gorm.DB) error {
		if dialect == models.Postgres {
			if err := conn.Exec("SELECT pg_advisory_lock(?)", advisoryLockKey).Error; err != nil {
				return fmt.Errorf("lock migrations: %w", err)
			}
			defer conn.Exec("SELECT pg_advisory_unlock(?)", advisoryLockKey)
		}
		if err := conn.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
			version INTEGER PRIMARY KEY,
			name TEXT NOT NULL,
			applied_at TIMESTAMP NOT NULL)`).Error; err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
		var current int
		if err := conn.Raw("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&current).Error; err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if current > known {
			return fmt.Errorf("database schema version %d is newer than this binary knows (%d): upgrade the binary", current, known)
		}
		for _, m := range all[min(current, len(all)):] {
			err := conn.Transaction(func(tx *gorm.DB) error {
				if hasStatements(m.SQL) {
					if err := tx.Exec(m.SQL).Error; err != nil {
						return err
					}
				}
				return tx.Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
					m.Version, m.Name, time.Now().UTC()).Error
			})
			if err != nil {
				return fmt.Errorf("apply migration %04d_%s: %w", m.Version, m.Name, err)
			}
		}
		return nil
	})
}

// hasStatements reports whether a migration holds SQL beyond comments: a version may be
// recorded without work (a change that needs nothing of this dialect), and drivers
// mishandle a script that is only comments.
func hasStatements(sql string) bool {
	for _, line := range strings.Split(sql, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "--") {
			return true
		}
	}
	return false
}
