package dbtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/schemas"
)

// Tenant is what most storage tests start from: the service keys and catalogs, and a
// company with one project in a test database.
type Tenant struct {
	Keys      *models.Keys
	Catalog   *schemas.Catalog
	Companies *company.Service
	Company   company.Company
	Project   *company.Project
	// UserID stands for the member acting in the company (it has no user row).
	UserID uuid.UUID
}

var (
	fixturesOnce sync.Once
	keys         *models.Keys
	catalog      *schemas.Catalog
	fixturesErr  error
)

// Keys are the service keys derived from a fixed test master key.
func Keys(t testing.TB) *models.Keys {
	t.Helper()
	loadFixtures(t)
	return keys
}

// Catalog is the action and dependency type catalog, loaded once per test binary.
func Catalog(t testing.TB) *schemas.Catalog {
	t.Helper()
	loadFixtures(t)
	return catalog
}

func loadFixtures(t testing.TB) {
	t.Helper()
	fixturesOnce.Do(func() {
		if keys, fixturesErr = models.DeriveKeys([]byte("test-master-key-test-master-key-0123456789")); fixturesErr != nil {
			return
		}
		catalog, fixturesErr = schemas.LoadCatalog()
	})
	if fixturesErr != nil {
		t.Fatalf("test fixtures: %v", fixturesErr)
	}
}

// NewTenant creates a company named slug with one project in db.
func NewTenant(t testing.TB, db *gorm.DB, slug string) *Tenant {
	t.Helper()
	tn := &Tenant{Keys: Keys(t), Catalog: Catalog(t), UserID: models.NewID()}
	tn.Companies = company.NewService(db, tn.Keys.Sealer)
	now := time.Now().UTC().Truncate(time.Microsecond)
	tn.Company = company.Company{ID: models.NewID(), Slug: slug, Name: slug, CreatedAt: now, UpdatedAt: now}
	if err := db.Create(&tn.Company).Error; err != nil {
		t.Fatalf("create company %s: %v", slug, err)
	}
	tn.Project = tn.NewProject(t, "Site")
	return tn
}

// NewProject adds another project to the tenant's company.
func (tn *Tenant) NewProject(t testing.TB, name string) *company.Project {
	t.Helper()
	p, _, err := tn.Companies.CreateProject(context.Background(), tn.Company.ID, name)
	if err != nil {
		t.Fatalf("create project %s: %v", name, err)
	}
	return p
}
