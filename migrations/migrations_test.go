package migrations_test

import (
	"context"
	"strings"
	"testing"

	"agencyhub/migrations"
	"agencyhub/models"
	"agencyhub/models/dbtest"
)

func TestBothDialectsHaveTheSameVersions(t *testing.T) {
	lite, err := migrations.List(models.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrations.List(models.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) != len(pg) {
		t.Fatalf("sqlite has %d migrations, postgres %d", len(lite), len(pg))
	}
	for i := range lite {
		if lite[i].Name != pg[i].Name {
			t.Errorf("migration %d is %q for sqlite but %q for postgres", lite[i].Version, lite[i].Name, pg[i].Name)
		}
	}
}

func TestApply(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		t.Run("a second start applies nothing and keeps data", func(t *testing.T) {
			if err := db.Exec("INSERT INTO companies (id, slug, name, created_at, updated_at) VALUES (?, 'kept', 'Kept', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)", models.NewID()).Error; err != nil {
				t.Fatal(err)
			}
			if err := migrations.Apply(ctx, db.DB, db.Dialect); err != nil {
				t.Fatalf("second apply: %v", err)
			}
			var n int64
			db.Table("companies").Count(&n)
			if n != 1 {
				t.Fatalf("companies after second apply = %d, want 1", n)
			}
		})
		t.Run("a database from a newer binary is refused", func(t *testing.T) {
			if err := db.Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', CURRENT_TIMESTAMP)").Error; err != nil {
				t.Fatal(err)
			}
			err := migrations.Apply(ctx, db.DB, db.Dialect)
			if err == nil || !strings.Contains(err.Error(), "newer than this binary") {
				t.Fatalf("apply over a newer schema: err = %v, want refusal", err)
			}
		})
	})
}

func TestACommentOnlyMigrationIsRecordedWithoutWork(t *testing.T) {
	for sql, want := range map[string]bool{
		"-- only a note\n\n   -- and another\n": false,
		"":                                      false,
		"-- note\nALTER TABLE x ADD COLUMN y INT;": true,
	} {
		if got := migrations.HasStatements(sql); got != want {
			t.Errorf("HasStatements(%q) = %v, want %v", sql, got, want)
		}
	}
}
