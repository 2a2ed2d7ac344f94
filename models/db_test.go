package models_test

import (
	"os"
	"path/filepath"
	"testing"

	"agencyhub/models"
)

func TestSQLiteOpensTheFileItIsGiven(t *testing.T) {
	for _, dir := range []string{"plain", "with#hash", "with?question", "with space", "with%percent"} {
		t.Run(dir, func(t *testing.T) {
			dataDir := filepath.Join(t.TempDir(), dir)
			db, dialect, err := models.OpenDB("", dataDir)
			if err != nil {
				t.Fatal(err)
			}
			defer models.CloseDB(db)
			var fk int
			if err := db.Raw("PRAGMA foreign_keys").Scan(&fk).Error; err != nil {
				t.Fatal(err)
			}
			if dialect != models.SQLite || fk != 1 {
				t.Fatalf("dialect %s, foreign_keys %d: the DSN's settings were lost", dialect, fk)
			}
			if _, err := os.Stat(filepath.Join(dataDir, "app.db")); err != nil {
				t.Fatalf("app.db is not in the data dir: %v", err)
			}
		})
	}
}
