package billing

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/platform/realtime"
)

// Statuses shared by clients and client service types; client services add their own.
const (
	StatusActive   = "active"
	StatusArchived = "archived"
	StatusDeleted  = "deleted"
)

// Service stores clients and their services; Companies tells the caller's standing in the
// company a row belongs to; Bus announces the domain events of payments due.
type Service struct {
	DB        *gorm.DB
	Companies *company.Service
	Bus       realtime.Bus
	Now       func() time.Time
}

// NewService returns a service on the real clock.
func NewService(db *gorm.DB, companies *company.Service, bus realtime.Bus) *Service {
	return &Service{DB: db, Companies: companies, Bus: bus, Now: func() time.Time { return time.Now().UTC() }}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }

// StatusFilter is the `status` query of a list: a comma-separated subset of allowed; empty
// means the default ones. Errors: invalid (status).
func StatusFilter[S ~string](raw string, allowed []S, defaults ...S) ([]S, error) {
	if raw == "" {
		return defaults, nil
	}
	var statuses []S
	for st := range strings.SplitSeq(raw, ",") {
		if !slices.Contains(allowed, S(st)) {
			return nil, models.Invalid("invalid_status_filter", "status")
		}
		statuses = append(statuses, S(st))
	}
	return statuses, nil
}

// fieldCheck collects the names of the fields that fail their checks, in order.
type fieldCheck []string

func (f *fieldCheck) check(field string, ok bool) {
	if !ok {
		*f = append(*f, field)
	}
}

// text checks a free text field's length in characters.
func (f *fieldCheck) text(field, value string, minLen, maxLen int) {
	n := utf8.RuneCountInString(value)
	f.check(field, n >= minLen && n <= maxLen)
}

func (f fieldCheck) err(key string) error {
	if len(f) > 0 {
		return models.Invalid(key, f...)
	}
	return nil
}

// setText copies a present patch field, trimmed.
func setText(dst *string, src *string) {
	if src != nil {
		*dst = strings.TrimSpace(*src)
	}
}

// lockClient makes concurrent changes to one client's contacts wait for each other until tx
// ends. SQLite ignores the lock and needs none: its write transactions run one at a time.
func lockClient(tx *gorm.DB, clientID uuid.UUID) error {
	var c Client
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Select("id").Take(&c, "id = ?", clientID).Error
	if models.IsNotFound(err) {
		return models.NotFound("client_not_found")
	}
	if err != nil {
		return models.Internal("lock client: %w", err)
	}
	return nil
}
