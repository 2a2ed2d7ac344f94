package integration

import (
	"time"

	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/schemas"
)

// Service implements action dependencies and templates.
type Service struct {
	DB      *gorm.DB
	Sealer  *models.Sealer
	Catalog *schemas.Catalog
	Now     func() time.Time
}

// NewService returns a service on the real clock.
func NewService(db *gorm.DB, sealer *models.Sealer, catalog *schemas.Catalog) *Service {
	return &Service{DB: db, Sealer: sealer, Catalog: catalog, Now: func() time.Time { return time.Now().UTC() }}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }
