package migrations_test

import (
	"context"
	"strings"
	"testing"

	"agencyhub/migrations"
	"agencyhub/migrations/dbtest"
	"agencyhub/models"
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

func TestTheTriggerIndexStartsWithTheTriggersOfCurrentVersions(t *testing.T) {
	dbtest.ForEachBlankDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		if err := migrations.ApplyUpTo(ctx, db.DB, db.Dialect, 10); err != nil {
			t.Fatal(err)
		}
		companyID, projectID, workflowID, versionID, oldVersionID := models.NewID(), models.NewID(), models.NewID(), models.NewID(), models.NewID()
		actions := `[{"action_key":"start","action_type_key":"manual.trigger","config":{}},
			{"action_key":"send","action_type_key":"http.request","config":{"url":"https://example.com"}},
			{"action_key":"hook","action_type_key":"webhook.trigger","config":{"endpoint_key":"orders"}},
			{"action_key":"bot","action_type_key":"messenger_a.relay.trigger","config":{"action_dependency_id":"0190a1b2-0000-7000-8000-000000000001"}}]`
		for _, stmt := range []struct {
			sql  string
			args []any
		}{
			{"INSERT INTO companies (id, slug, name, created_at, updated_at) VALUES (?, 'c', 'C', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)", []any{companyID}},
			{"INSERT INTO projects (id, company_id, name, hook_key, hook_secret_sealed, created_at, updated_at) VALUES (?, ?, 'P', 'hk', 'x', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)", []any{projectID, companyID}},
			{"INSERT INTO workflows (id, company_id, project_id, name, description, draft_actions, draft_connections, draft_test_input, draft_change_description, draft_updated_at, current_version_id, created_by, created_at, updated_at) VALUES (?, ?, ?, 'W', '', '[]', '[]', '{}', '', CURRENT_TIMESTAMP, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)", []any{workflowID, companyID, projectID, versionID, companyID}},
			{"INSERT INTO workflow_versions (id, company_id, workflow_id, version_number, description, actions, connections, test_input, created_by, created_at) VALUES (?, ?, ?, 1, '', ?, '[]', '{}', ?, CURRENT_TIMESTAMP)", []any{oldVersionID, companyID, workflowID, `[{"action_key":"old","action_type_key":"schedule.trigger","config":{}}]`, companyID}},
			{"INSERT INTO workflow_versions (id, company_id, workflow_id, version_number, description, actions, connections, test_input, created_by, created_at) VALUES (?, ?, ?, 2, '', ?, '[]', '{}', ?, CURRENT_TIMESTAMP)", []any{versionID, companyID, workflowID, actions, companyID}},
		} {
			if err := db.Exec(stmt.sql, stmt.args...).Error; err != nil {
				t.Fatalf("%s: %v", stmt.sql, err)
			}
		}
		if err := migrations.Apply(ctx, db.DB, db.Dialect); err != nil {
			t.Fatal(err)
		}
		type row struct {
			ActionKey, ActionTypeKey, TriggerKey, Config string
			Position                                     int
			WorkflowVersionID                            string
		}
		var rows []row
		if err := db.Raw("SELECT action_key, action_type_key, trigger_key, config, position, workflow_version_id FROM workflow_triggers ORDER BY position").Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		want := []row{
			{"start", "manual.trigger", "", `{}`, 0, versionID.String()},
			{"hook", "webhook.trigger", "orders", `{"endpoint_key":"orders"}`, 2, versionID.String()},
			{"bot", "messenger_a.relay.trigger", "0190a1b2-0000-7000-8000-000000000001", `{"action_dependency_id":"0190a1b2-0000-7000-8000-000000000001"}`, 3, versionID.String()},
		}
		if len(rows) != len(want) {
			t.Fatalf("indexed %+v, want %+v", rows, want)
		}
		for i := range want {
			rows[i].Config = strings.ReplaceAll(rows[i].Config, " ", "")
			if rows[i] != want[i] {
				t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
			}
		}
	})
}
