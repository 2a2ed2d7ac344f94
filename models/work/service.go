package work

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
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

// Service stores the tracker; Companies tells the caller's standing in the company a row
// belongs to; Bus announces the domain events of tasks assigned.
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

// today is the date of the service's clock, in UTC.
func (s *Service) today() models.Date { return models.DateOf(s.now()) }

// invalidFields collects the request fields that fail their checks, in order.
type invalidFields []string

func (f *invalidFields) require(field string, ok bool) {
	if !ok {
		*f = append(*f, field)
	}
}

// length checks a text field's length in characters after trimming.
func (f *invalidFields) length(field, value string, minLen, maxLen int) {
	n := utf8.RuneCountInString(strings.TrimSpace(value))
	f.require(field, n >= minLen && n <= maxLen)
}

func (f invalidFields) err(key string) error {
	if len(f) > 0 {
		return models.Invalid(key, f...)
	}
	return nil
}

// Strings is a list of strings kept as a JSON array in a TEXT column.
type Strings []string

// Value writes the list as JSON; nil is [].
func (l Strings) Value() (driver.Value, error) {
	if l == nil {
		return "[]", nil
	}
	b, err := json.Marshal([]string(l))
	return string(b), err
}

// Scan reads a JSON array.
func (l *Strings) Scan(src any) error {
	var raw []byte
	switch v := src.(type) {
	case string:
		raw = []byte(v)
	case []byte:
		raw = v
	default:
		return fmt.Errorf("work.Strings: cannot scan %T", src)
	}
	return json.Unmarshal(raw, (*[]string)(l))
}

// lockRow makes concurrent changes guarded by one row (a board for its tasks' order, a
// user for their timer) wait for each other until tx ends. SQLite ignores the lock and
// needs none: its write transactions run one at a time.
func lockRow(tx *gorm.DB, table string, id uuid.UUID) error {
	var row struct{ ID uuid.UUID }
	err := tx.Table(table).Clauses(clause.Locking{Strength: "UPDATE"}).Select("id").Where("id = ?", id).Take(&row).Error
	if err != nil {
		return models.Internal("lock %s row: %w", table, err)
	}
	return nil
}

// isMember reports whether a user is a member of a company.
func isMember(tx *gorm.DB, companyID, userID uuid.UUID) (bool, error) {
	var n int64
	if err := tx.Table("company_members").Where("company_id = ? AND user_id = ?", companyID, userID).Count(&n).Error; err != nil {
		return false, models.Internal("check company member: %w", err)
	}
	return n > 0, nil
}

// slugKey makes a key (a column's status, a role's key) from a name: lower-case ASCII
// letters and digits joined by underscores; fallback when nothing is left.
func slugKey(name, fallback string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			gap = false
		default:
			gap = true
		}
	}
	key := b.String()
	if key == "" {
		return fallback
	}
	return key[:min(len(key), 64)]
}

// loadIn reads one row of a company by id. Errors: not_found (notFoundKey).
func loadIn[T any](tx *gorm.DB, companyID, id uuid.UUID, notFoundKey string) (*T, error) {
	var row T
	err := tx.Take(&row, "id = ? AND company_id = ?", id, companyID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound(notFoundKey)
	}
	if err != nil {
		return nil, models.Internal("read %T: %w", row, err)
	}
	return &row, nil
}

// ownedBy loads a row by id with the caller's standing in its company, as
// company.LoadOwned does. Errors: not_found (notFoundKey).
func ownedBy[T any](ctx context.Context, s *Service, userID, id uuid.UUID, notFoundKey string,
	companyOf func(*T) uuid.UUID) (*T, *Access, error) {
	row, ca, err := company.LoadOwned(ctx, s.Companies, userID, id, notFoundKey, companyOf)
	if err != nil {
		return nil, nil, err
	}
	a, err := s.Access(ctx, ca, userID)
	if err != nil {
		return nil, nil, err
	}
	return row, a, nil
}
