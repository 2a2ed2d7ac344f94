package integration

import (
	"net/http"
	"time"

	"gorm.io/gorm"

	"agencyhub/activities/egress"
	"agencyhub/models"
	"agencyhub/schemas"
)

// Service implements integrations and templates.
type Service struct {
	DB      *gorm.DB
	Sealer  *models.Sealer
	Catalog *schemas.Catalog
	// Policy is APP_EGRESS_ALLOW parsed: the provider addresses a connection test may reach.
	// It is checked against an SMTP server before connecting.
	Policy egress.Policy
	// Client is the egress HTTP client bot API calls go through.
	Client *http.Client
	// MessengerABaseURL and MessengerBBaseURL are the bot API addresses of integrations that
	// set no api_base_url; empty means such an integration cannot be tested.
	MessengerABaseURL, MessengerBBaseURL string
	Now                                  func() time.Time
}

// NewService returns a service on the real clock whose provider calls follow policy.
func NewService(db *gorm.DB, sealer *models.Sealer, catalog *schemas.Catalog, policy egress.Policy) *Service {
	return &Service{
		DB: db, Sealer: sealer, Catalog: catalog, Policy: policy,
		Client: egress.NewClient(policy, egress.DefaultMaxBody),
		Now:    func() time.Time { return time.Now().UTC() },
	}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }
