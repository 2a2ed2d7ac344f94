package auth

import (
	"net/http"
	"sync"
	"time"

	"gorm.io/gorm"

	"agencyhub/models"
)

// Settings are the lifetimes and policies of credentials.
type Settings struct {
	AccessTTL     time.Duration
	RefreshTTL    time.Duration
	ActivationTTL time.Duration
	ResetTTL      time.Duration
	// RequireActivation makes new accounts wait for the mailed activation token; it is on
	// exactly when mail delivery is configured.
	RequireActivation bool
	// AppURL is the web app's base URL, used for links in mail and the desktop sign-in page.
	AppURL string
	// SignInRedirectURL is where a browser lands after signing in at an identity provider.
	SignInRedirectURL string
	// Providers are the configured identity providers by name (one of ProviderNames).
	Providers map[string]ProviderConfig
	// NativeRedirectPrefixes are the deep links native apps may be sent back to after an
	// identity-provider sign-in; with none, native sign-in is refused.
	NativeRedirectPrefixes []string
	// PasswordCost is the work of a new password hash.
	PasswordCost PasswordCost
}

// SendsMail reports whether this server delivers mail; without it mail stays in the
// outbox, which is why accounts then need no activation.
func (s *Service) SendsMail() bool { return s.Settings.RequireActivation }

// DefaultSettings are the documented defaults.
func DefaultSettings() Settings {
	return Settings{
		AccessTTL:         15 * time.Minute,
		RefreshTTL:        30 * 24 * time.Hour,
		ActivationTTL:     48 * time.Hour,
		ResetTTL:          time.Hour,
		AppURL:            "http://127.0.0.1:8080",
		SignInRedirectURL: "http://127.0.0.1:8080",
		// OWASP's minimum recommendation for argon2id (19 MiB, 2 passes), which keeps a
		// login under ~50 ms on the 2-core machines this runs on. Tests lower it.
		PasswordCost: PasswordCost{MemoryKiB: 19 * 1024, Passes: 2},
	}
}

// Service implements accounts, sessions and credentials.
type Service struct {
	DB       *gorm.DB
	Keys     *models.Keys
	Settings Settings
	// Now is the clock; tests fix it.
	Now func() time.Time
	// ProviderClient calls identity providers' token and userinfo endpoints.
	ProviderClient *http.Client

	dummyOnce sync.Once
	dummyHash string
}

// NewService returns a service on the real clock.
func NewService(db *gorm.DB, keys *models.Keys, settings Settings) *Service {
	return &Service{
		DB: db, Keys: keys, Settings: settings, Now: func() time.Time { return time.Now().UTC() },
		ProviderClient: newProviderClient(),
	}
}

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Microsecond) }
