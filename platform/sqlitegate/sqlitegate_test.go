package sqlitegate_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
	modernc "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"agencyhub/platform/sqlitegate"
)

type counter struct {
	ID    int64 `gorm:"primaryKey;autoIncrement"`
	Name  string
	Value int
}

func openCounters(t *testing.T) *gorm.DB {
	t.Helper()
	pool := sqlitegate.Open(filepath.Join(t.TempDir(), "app.db"))
	t.Cleanup(func() { _ = pool.Close() })
	// As models.OpenDB does: GORM opens no transaction of its own around a single write, so
	// writes outside a transaction reach the gate as statements of their own.
	db, err := gorm.Open(sqlite.New(sqlite.Config{Conn: pool}), &gorm.Config{SkipDefaultTransaction: true, Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`CREATE TABLE counters (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, value INTEGER NOT NULL)`).Error; err != nil {
		t.Fatal(err)
	}
	return db
}

// writable fails the test unless a write goes in at once: one that ended before it still
// holding the file's writer would keep it waiting until the busy timeout.
func writable(t *testing.T, db *gorm.DB, after string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := db.WithContext(ctx).Create(&counter{Name: "after " + after}).Error; err != nil {
		t.Fatalf("after %s, a write could not go in: %v", after, err)
	}
}

func TestSQLiteWritesOfOneProcessAllGoInAndNoneIsLost(t *testing.T) {
	db := openCounters(t)
	if err := db.Create(&counter{Name: "shared"}).Error; err != nil {
		t.Fatal(err)
	}
	const writers = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for i := range writers {
		wg.Go(func() {
			// A read-modify-write in a transaction, and a write of its own outside one.
			errs <- db.Transaction(func(tx *gorm.DB) error {
				var c counter
				if err := tx.Where("name = ?", "shared").First(&c).Error; err != nil {
					return err
				}
				return tx.Model(&c).Update("value", c.Value+1).Error
			})
			errs <- db.Create(&counter{Name: "own " + string(rune('A'+i))}).Error
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var shared counter
	var rows int64
	if err := db.Where("name = ?", "shared").First(&shared).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Model(&counter{}).Count(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if shared.Value != writers || rows != writers+1 {
		t.Fatalf("shared counter %d (want %d), %d rows (want %d)", shared.Value, writers, rows, writers+1)
	}
}

func TestSQLiteEveryWayAWriteEndsLetsTheNextOneIn(t *testing.T) {
	db := openCounters(t)
	writable(t, db, "nothing")

	if err := db.Transaction(func(tx *gorm.DB) error { return tx.Create(&counter{Name: "committed"}).Error }); err != nil {
		t.Fatal(err)
	}
	writable(t, db, "a commit")

	refused := errors.New("refused")
	if err := db.Transaction(func(tx *gorm.DB) error {
		tx.Create(&counter{Name: "rolled back"})
		return refused
	}); !errors.Is(err, refused) {
		t.Fatalf("transaction answered %v", err)
	}
	writable(t, db, "a rollback")

	ctx, cancel := context.WithCancel(context.Background())
	tx := db.WithContext(ctx).Begin()
	if err := tx.Create(&counter{Name: "abandoned"}).Error; err != nil {
		t.Fatal(err)
	}
	cancel() // database/sql rolls the transaction back
	writable(t, db, "a transaction whose context ended")

	if err := db.Create(&counter{Name: "after a commit"}).Error; !isUniqueViolation(err) {
		t.Fatalf("a duplicate insert answered %v, want a unique violation", err)
	}
	writable(t, db, "a failed insert")

	if err := db.Exec("UPDATE no_such_table SET x = 1").Error; err == nil {
		t.Fatal("an update of a missing table succeeded")
	}
	writable(t, db, "a failed statement")

	var names []string
	if err := db.Raw("UPDATE counters SET value = value + 1 RETURNING name").Scan(&names).Error; err != nil || len(names) == 0 {
		t.Fatalf("update returning: %v, %v", names, err)
	}
	writable(t, db, "rows of a write")

	var got []counter
	if err := db.Order("id").Find(&got).Error; err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		if c.Name == "rolled back" || c.Name == "abandoned" {
			t.Fatalf("%q was kept: %+v", c.Name, got)
		}
	}
}

func isUniqueViolation(err error) bool {
	var liteErr *modernc.Error
	return errors.As(err, &liteErr) && liteErr.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}
