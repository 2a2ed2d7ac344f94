package integration_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/integration"
	"agencyhub/models/integration/integrationtest"
)

const botToken = "123456789:AAE-secret_token_of_the_bot"

// world is a migrated database with two companies, the first with two projects, and the
// integration service on a fixed clock.
type world struct {
	db                   *dbtest.DB
	svc                  *integration.Service
	companyID, otherCoID uuid.UUID
	projectID, siblingID uuid.UUID
	otherProjectID       uuid.UUID
	now                  time.Time
}

func newWorld(t *testing.T, db *dbtest.DB) *world {
	t.Helper()
	w := &world{db: db, now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	northwind, contoso := dbtest.NewTenant(t, db.DB, "northwind"), dbtest.NewTenant(t, db.DB, "contoso")
	w.svc = integration.NewService(db.DB, northwind.Keys.Sealer, northwind.Catalog)
	w.svc.Now = func() time.Time { return w.now }
	w.companyID, w.projectID, w.siblingID = northwind.Company.ID, northwind.Project.ID, northwind.NewProject(t, "Sibling").ID
	w.otherCoID, w.otherProjectID = contoso.Company.ID, contoso.Project.ID
	return w
}

// create adds a dependency to the world's project.
func (w *world) create(t *testing.T, in integration.ActionDependencyInput) *integration.ActionDependency {
	t.Helper()
	return integrationtest.Create(t, w.svc, w.companyID, w.projectID, in)
}

// invalidFields returns the fields a domain error names, failing unless it is invalid.
func invalidFields(t *testing.T, err error) []string {
	t.Helper()
	var e *models.Error
	if !errors.As(err, &e) || e.Kind != models.KindInvalid {
		t.Fatalf("error = %v, want invalid", err)
	}
	return e.Fields
}

func TestIntegrationActionDependencies(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newWorld(t, db)
		ctx := context.Background()

		t.Run("create refuses a type the catalog lacks, naming dependency_type_key", func(t *testing.T) {
			_, err := w.svc.CreateActionDependency(ctx, w.companyID, w.projectID, integration.ActionDependencyInput{DependencyTypeKey: "fax.machine", Name: "Fax"})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"dependency_type_key"}) {
				t.Fatalf("fields = %v", got)
			}
		})

		t.Run("create names every bad metadata and auth field under its object", func(t *testing.T) {
			_, err := w.svc.CreateActionDependency(ctx, w.companyID, w.projectID, integration.ActionDependencyInput{
				DependencyTypeKey: "messenger_a.bot", Name: "Bot",
				Metadata: map[string]any{"api_base_url": "ftp://x", "colour": "red"}, Auth: map[string]any{"bot_token": "no-bot-id"},
			})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"metadata.api_base_url", "metadata.colour", "auth.bot_token"}) {
				t.Fatalf("fields = %v", got)
			}
			_, err = w.svc.CreateActionDependency(ctx, w.companyID, w.projectID, integration.ActionDependencyInput{DependencyTypeKey: "smtp.server", Name: "Mail"})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"metadata.from", "metadata.host"}) {
				t.Fatalf("fields = %v", got)
			}
			_, err = w.svc.CreateActionDependency(ctx, w.companyID, w.projectID, integration.ActionDependencyInput{DependencyTypeKey: "messenger_b.bot", Name: "  "})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"name"}) {
				t.Fatalf("fields = %v", got)
			}
		})

		var bot *integration.ActionDependency
		t.Run("the stored auth is sealed and only its mask is kept in the clear", func(t *testing.T) {
			bot = w.create(t, integrationtest.MessengerABot("http://127.0.0.1:1", botToken))
			var raw struct{ AuthSealed, AuthMasked, Metadata string }
			if err := db.Raw("SELECT auth_sealed, auth_masked, metadata FROM action_dependencies WHERE id = ?", bot.ID).Scan(&raw).Error; err != nil {
				t.Fatal(err)
			}
			for _, col := range []string{raw.AuthSealed, raw.AuthMasked, raw.Metadata} {
				if strings.Contains(col, "secret_token") || strings.Contains(col, botToken) {
					t.Fatalf("a stored column holds the token: %q", col)
				}
			}
			if raw.AuthSealed == "" || bot.AuthMasked["bot_token"] != "1234****" || bot.Status != integration.StatusActive {
				t.Fatalf("sealed %q, masked %v, status %q", raw.AuthSealed, bot.AuthMasked, bot.Status)
			}
		})

		t.Run("short secrets are masked whole and plain auth fields stay readable", func(t *testing.T) {
			d := w.create(t, integration.ActionDependencyInput{
				DependencyTypeKey: "smtp.server", Name: "Mail",
				Metadata: map[string]any{"host": "smtp.example.com", "from": "noreply@example.com"},
				Auth:     map[string]any{"username": "mailer@example.com", "password": "hunter2-long"},
			})
			if d.AuthMasked["password"] != "****" || d.AuthMasked["username"] != "mailer@example.com" {
				t.Fatalf("masked %v", d.AuthMasked)
			}
		})

		t.Run("Dependency answers the decrypted auth to the actions of the same project", func(t *testing.T) {
			dep, err := w.svc.Unseal(ctx, w.companyID, w.projectID, bot.ID)
			if err != nil {
				t.Fatal(err)
			}
			if dep.TypeKey != "messenger_a.bot" || dep.Auth["bot_token"] != botToken || dep.Metadata["api_base_url"] != "http://127.0.0.1:1" {
				t.Fatalf("dependency %+v", dep)
			}
		})

		t.Run("Dependency refuses another project, another company and an unknown id", func(t *testing.T) {
			for name, ids := range map[string][3]uuid.UUID{
				"sibling project": {w.companyID, w.siblingID, bot.ID},
				"other company":   {w.otherCoID, w.otherProjectID, bot.ID},
				"wrong company":   {w.otherCoID, w.projectID, bot.ID},
				"unknown id":      {w.companyID, w.projectID, models.NewID()},
			} {
				if _, err := w.svc.Unseal(ctx, ids[0], ids[1], ids[2]); !errors.Is(err, integration.ErrActionDependencyNotFound) {
					t.Errorf("%s: error = %v, want ErrDependencyNotFound", name, err)
				}
			}
		})

		t.Run("get and list see only the project's own dependencies", func(t *testing.T) {
			if _, err := w.svc.ActionDependencyOf(ctx, w.companyID, w.siblingID, bot.ID); !models.IsKind(err, models.KindNotFound) {
				t.Fatalf("get from the sibling project: %v", err)
			}
			rows, next, err := w.svc.ActionDependencies(ctx, w.companyID, w.projectID, models.PageRequest{Limit: 1})
			if err != nil || len(rows) != 1 || rows[0].ID != bot.ID || next == "" {
				t.Fatalf("first page %v, next %q, %v", rows, next, err)
			}
			rows, _, err = w.svc.ActionDependencies(ctx, w.companyID, w.siblingID, models.PageRequest{Limit: 50})
			if err != nil || len(rows) != 0 {
				t.Fatalf("sibling's list %v, %v", rows, err)
			}
		})

		t.Run("rotate replaces the auth, validating it, and voids the last test", func(t *testing.T) {
			fresh := w.create(t, integrationtest.MessengerABot("http://127.0.0.1:9", botToken))
			tested, _, err := w.svc.RecordTest(ctx, fresh, integration.TestResult{Status: integration.TestOK, ReasonCode: "ok"}, nil)
			if err != nil || tested.LastTest() == nil {
				t.Fatalf("test before rotating: %v", err)
			}
			_, err = w.svc.RotateSecret(ctx, tested, map[string]any{"bot_token": ""})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"auth.bot_token"}) {
				t.Fatalf("fields = %v", got)
			}
			rotated, err := w.svc.RotateSecret(ctx, tested, map[string]any{"bot_token": "987654321:BBB-the_new_secret_token"})
			if err != nil {
				t.Fatal(err)
			}
			if rotated.LastTest() != nil || rotated.AuthMasked["bot_token"] != "9876****" {
				t.Fatalf("after rotation: last test %v, masked %v", rotated.LastTest(), rotated.AuthMasked)
			}
			dep, err := w.svc.Unseal(ctx, w.companyID, w.projectID, fresh.ID)
			if err != nil || dep.Auth["bot_token"] != "987654321:BBB-the_new_secret_token" {
				t.Fatalf("auth after rotation %v, %v", dep, err)
			}
		})

		t.Run("patch renames, replaces metadata and disables; a disabled one is not found by actions", func(t *testing.T) {
			name, status := "  Sales bot ", integration.StatusDisabled
			_, err := w.svc.PatchActionDependency(ctx, bot, integration.ActionDependencyPatch{Metadata: map[string]any{"api_base_url": 7}})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"metadata.api_base_url"}) {
				t.Fatalf("fields = %v", got)
			}
			bad := "paused"
			_, err = w.svc.PatchActionDependency(ctx, bot, integration.ActionDependencyPatch{Status: &bad})
			if got := invalidFields(t, err); !slices.Equal(got, []string{"status"}) {
				t.Fatalf("fields = %v", got)
			}
			p, err := w.svc.PatchActionDependency(ctx, bot, integration.ActionDependencyPatch{Name: &name, Status: &status, Metadata: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := w.svc.ActionDependencyOf(ctx, w.companyID, w.projectID, bot.ID)
			if err != nil || got.Name != "Sales bot" || got.Status != status || len(got.Metadata) != 0 || p.Name != "Sales bot" {
				t.Fatalf("after patch %+v, %v", got, err)
			}
			if _, err := w.svc.Unseal(ctx, w.companyID, w.projectID, bot.ID); !errors.Is(err, integration.ErrActionDependencyNotFound) {
				t.Fatalf("Dependency of a disabled integration: %v", err)
			}
		})

		t.Run("a name taken in the project is a conflict; the same name in another project is not", func(t *testing.T) {
			in := integration.ActionDependencyInput{DependencyTypeKey: "http.auth", Name: "Billing API", Auth: map[string]any{"scheme": "bearer", "token": "t"}}
			if _, err := w.svc.CreateActionDependency(ctx, w.companyID, w.projectID, in); err != nil {
				t.Fatal(err)
			}
			_, err := w.svc.CreateActionDependency(ctx, w.companyID, w.projectID, in)
			if !models.IsKind(err, models.KindConflict) {
				t.Fatalf("second create: %v", err)
			}
			if _, err := w.svc.CreateActionDependency(ctx, w.companyID, w.siblingID, in); err != nil {
				t.Fatalf("create in the sibling project: %v", err)
			}
			taken := "Billing API"
			if _, err := w.svc.PatchActionDependency(ctx, bot, integration.ActionDependencyPatch{Name: &taken}); !models.IsKind(err, models.KindConflict) {
				t.Fatalf("rename to a taken name: %v", err)
			}
		})

		t.Run("delete removes it", func(t *testing.T) {
			if err := w.svc.DeleteActionDependency(ctx, bot); err != nil {
				t.Fatal(err)
			}
			if _, err := w.svc.ActionDependencyOf(ctx, w.companyID, w.projectID, bot.ID); !models.IsKind(err, models.KindNotFound) {
				t.Fatalf("get after delete: %v", err)
			}
		})
	})
}
