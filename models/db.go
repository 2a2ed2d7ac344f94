package models

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
	modernc "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"agencyhub/platform/sqlitegate"
)

// Dialect names a supported database engine.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DialectOf tells which engine a database URL selects: postgres:// and postgresql:// pick
// PostgreSQL, anything else is a SQLite file path.
func DialectOf(databaseURL string) Dialect {
	if strings.HasPrefix(databaseURL, "postgres://") || strings.HasPrefix(databaseURL, "postgresql://") {
		return Postgres
	}
	return SQLite
}

// OpenDB opens the database a URL names. An empty URL means the SQLite file app.db in dataDir.
// The SQLite engine is modernc.org/sqlite (pure Go, the one the embedded Temporal server uses
// too), whose connections GORM's SQLite dialect gets from platform/sqlitegate.
func OpenDB(databaseURL, dataDir string) (*gorm.DB, Dialect, error) {
	cfg := &gorm.Config{
		NowFunc:                func() time.Time { return time.Now().UTC() },
		Logger:                 logger.Discard,
		SkipDefaultTransaction: true,
	}
	dialect := DialectOf(databaseURL)
	var dialector gorm.Dialector
	switch dialect {
	case Postgres:
		dialector = postgres.Open(databaseURL)
	default:
		path := databaseURL
		if path == "" {
			if err := os.MkdirAll(dataDir, 0o700); err != nil {
				return nil, "", fmt.Errorf("create data dir: %w", err)
			}
			path = filepath.Join(dataDir, "app.db")
		}
		dialector = sqlite.New(sqlite.Config{Conn: sqlitegate.Open(path)})
	}
	db, err := gorm.Open(dialector, cfg)
	if err != nil {
		return nil, "", fmt.Errorf("open %s database: %w", dialect, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, "", err
	}
	// The pool keeps every connection it may open: with database/sql's default of two idle
	// ones, a burst closes the rest after each use and opens them again, and a new SQLite
	// connection parses the whole schema before its first statement.
	conns := 20
	if dialect == SQLite {
		conns = 8 // one file, one writer: a small pool keeps readers concurrent under WAL
	}
	sqlDB.SetMaxOpenConns(conns)
	sqlDB.SetMaxIdleConns(conns)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	return db, dialect, nil
}

// Ping checks that the database answers within the context's deadline.
func Ping(ctx context.Context, db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// CloseDB closes the pool behind db, logging instead of failing: it runs at shutdown.
func CloseDB(db *gorm.DB) {
	sqlDB, err := db.DB()
	if err == nil {
		err = sqlDB.Close()
	}
	if err != nil {
		slog.Error("close database", "err", err)
	}
}

// IsUniqueViolation reports whether err is a unique-constraint failure on either dialect.
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var liteErr *modernc.Error
	if errors.As(err, &liteErr) {
		return liteErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || liteErr.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// IsNotFound reports whether err is GORM's "no row".
func IsNotFound(err error) bool { return errors.Is(err, gorm.ErrRecordNotFound) }
