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
	// RefusedHost, when set, says why outbound calls may not reach a host as it is written
	// (egress.Policy.CheckLiteral, with APP_EGRESS_ALLOW): settings whose URL it refuses are
	// invalid, since every call of the integration would be refused. Nil checks nothing.
	RefusedHost func(host string) error
}

// NewService returns a service on the real clock.
func NewService(db *gorm.DB, sealer *models.Sealer, catalog *schemas.Catalog) *Service {
	return &Service{DB: db, Sealer: sealer, Catalog: catalog, Now: func() time.Time { return time.Now().UTC() }}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }
