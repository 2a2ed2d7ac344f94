package sitechat

import (
	"context"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/platform/filestore"
	"agencyhub/platform/realtime"
)

// Settings are the site chat's tunables; DefaultSettings gives the documented defaults.
type Settings struct {
	// FrameRetention is how long co-browse frames are kept (APP_SITE_CHAT_FRAME_RETENTION).
	FrameRetention time.Duration
	// VisitorTokenTTL is how long a visitor token from presence is accepted; the widget
	// posts presence again (resuming its session) to get a fresh one.
	VisitorTokenTTL time.Duration
	// AttachmentLinkTTL is how long an attachment's download link works.
	AttachmentLinkTTL time.Duration
	// AppURL is the base of the operator app's links (conversation_url, panel_url,
	// call_url); EndpointBase is the API's public base URL the widget talks to.
	AppURL       string
	EndpointBase string
	// ICEServers are the STUN/TURN URLs handed to calls (APP_SITE_CHAT_ICE_URLS); with
	// TURNSecret set (APP_SITE_CHAT_TURN_SECRET), turn: and turns: URLs get credentials
	// in coturn's REST API scheme that live TURNCredentialTTL.
	ICEServers        []string
	TURNSecret        string
	TURNCredentialTTL time.Duration
}

// DefaultSettings keeps frames 7 days, visitor tokens 12 hours, attachment links 15
// minutes and TURN credentials 1 hour, with Google's public STUN server.
func DefaultSettings() Settings {
	return Settings{
		FrameRetention:    7 * 24 * time.Hour,
		VisitorTokenTTL:   12 * time.Hour,
		AttachmentLinkTTL: 15 * time.Minute,
		ICEServers:        []string{"stun:stun.l.google.com:19302"},
		TURNCredentialTTL: time.Hour,
	}
}

// ActiveWindow is how recently a visit session must have shown activity to count as an
// active visitor.
const ActiveWindow = 2 * time.Minute

// Service stores the site chat. Bus carries its notices; Files keeps attachments and
// recordings; Companies answers the caller's standing for the *Access loaders.
type Service struct {
	DB        *gorm.DB
	Companies *company.Service
	Bus       realtime.Bus
	Files     *filestore.Store
	Settings  Settings
	Now       func() time.Time
	// tokenKey signs visitor tokens and attachment download tokens; derived from the
	// service's token signing key for this purpose only.
	tokenKey []byte
}

// NewService returns a service on the real clock. signingKey is the service's token
// signing key (models.Keys.TokenSigning); the site chat derives its own key from it.
func NewService(db *gorm.DB, companies *company.Service, bus realtime.Bus, files *filestore.Store, signingKey []byte,
	settings Settings) *Service {
	key, err := hkdf.Key(sha256.New, signingKey, nil, "agencyhub site chat tokens v1", 32)
	if err != nil {
		panic(err) // only fails for lengths HKDF cannot produce
	}
	return &Service{DB: db, Companies: companies, Bus: bus, Files: files, Settings: settings, tokenKey: key,
		Now: func() time.Time { return time.Now().UTC() }}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }

// loadOwned reads the row of T with id and the caller's standing in its company; a row of
// a company the caller is not in is notFoundKey, like a missing one.
func loadOwned[T any](ctx context.Context, s *Service, userID, id uuid.UUID, notFoundKey string,
	companyOf func(*T) uuid.UUID) (*T, *company.Access, error) {
	return company.LoadOwned(ctx, s.Companies, userID, id, notFoundKey, companyOf)
}

// take reads one row by id; none is notFoundKey.
func take[T any](db *gorm.DB, notFoundKey string, query string, args ...any) (*T, error) {
	var row T
	err := db.Where(query, args...).Take(&row).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound(notFoundKey)
	}
	if err != nil {
		return nil, models.Internal("read %T: %w", row, err)
	}
	return &row, nil
}

// lockRow reads the row of T with id for update: concurrent moves of one row wait for
// each other until tx ends (SQLite runs write transactions one at a time anyway).
func lockRow[T any](tx *gorm.DB, notFoundKey string, id uuid.UUID) (*T, error) {
	return take[T](tx.Clauses(clause.Locking{Strength: "UPDATE"}), notFoundKey, "id = ?", id)
}

// fieldCheck collects the names of the fields that fail their checks, in order.
type fieldCheck []string

func (f *fieldCheck) check(field string, ok bool) {
	if !ok {
		*f = append(*f, field)
	}
}

// text checks a free text field's length in characters.
func (f *fieldCheck) text(field, value string, maxLen int) {
	f.check(field, utf8.RuneCountInString(value) <= maxLen)
}

func (f fieldCheck) err(key string) error {
	if len(f) > 0 {
		return models.Invalid(key, f...)
	}
	return nil
}

// clip cuts s to at most n characters: presence fields come from browsers and are kept
// for display, so an overlong one is shortened rather than refused.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// objectJSON is a JSON object as stored: "{}" for none.
func objectJSON(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	return string(raw)
}
