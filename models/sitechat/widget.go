package sitechat

import (
	"context"
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/company"
)

// Widget statuses: only an active widget answers its public config and accepts visitors.
const (
	WidgetActive   = "active"
	WidgetPaused   = "paused"
	WidgetArchived = "archived"
)

// Widget is a project's embeddable chat widget, found by visitors through PublicKey.
type Widget struct {
	ID                   uuid.UUID `gorm:"primaryKey"`
	CompanyID            uuid.UUID
	ProjectID            uuid.UUID
	PublicKey            string
	Name                 string
	Status               string
	Title                string
	Subtitle             string
	AccentColor          string
	Position             string
	HeavyTrackingDefault bool
	SamplingRate         float64
	// SettingsJSON is the owner's JSON object, stored as sent; invite_templates in it
	// names the texts an invitation's template picks.
	SettingsJSON string `gorm:"column:settings_json"`
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

func (Widget) TableName() string { return "site_chat_widgets" }

// WidgetFields are the writable fields of a widget; nil means "leave alone" in a patch and
// "the default" in a create. The contract has checked the types and enums.
type WidgetFields struct {
	Name                 *string
	Title                *string
	Subtitle             *string
	AccentColor          *string
	Position             *string
	HeavyTrackingDefault *bool
	SamplingRate         *float64
	SettingsJSON         json.RawMessage
	Status               *string
}

// accentColor is a CSS hex colour: the widget puts it into a style, so nothing else may pass.
var accentColor = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// publicKeyPrefix marks a widget's public key, so one pasted in the wrong place is told apart.
const publicKeyPrefix = "pk_"

// maxSettingsBytes caps settings_json: it travels to every visitor with the config.
const maxSettingsBytes = 16 << 10

func (f WidgetFields) applyTo(w *Widget) error {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = strings.TrimSpace(*src)
		}
	}
	set(&w.Name, f.Name)
	set(&w.Title, f.Title)
	set(&w.Subtitle, f.Subtitle)
	set(&w.AccentColor, f.AccentColor)
	set(&w.Position, f.Position)
	set(&w.Status, f.Status)
	if f.HeavyTrackingDefault != nil {
		w.HeavyTrackingDefault = *f.HeavyTrackingDefault
	}
	if f.SamplingRate != nil {
		w.SamplingRate = *f.SamplingRate
	}
	if f.SettingsJSON != nil {
		w.SettingsJSON = objectJSON(f.SettingsJSON)
	}
	var bad fieldCheck
	bad.check("name", w.Name != "")
	bad.text("name", w.Name, 200)
	bad.text("title", w.Title, 120)
	bad.text("subtitle", w.Subtitle, 200)
	bad.check("accent_color", accentColor.MatchString(w.AccentColor))
	bad.check("position", w.Position == "left" || w.Position == "right")
	bad.check("sampling_rate", w.SamplingRate >= 0 && w.SamplingRate <= 1)
	bad.check("settings_json", len(w.SettingsJSON) <= maxSettingsBytes)
	bad.check("status", w.Status == WidgetActive || w.Status == WidgetPaused || w.Status == WidgetArchived)
	return bad.err("invalid_site_chat_widget")
}

// EmbedScript is the one tag a site owner pastes into their pages: the widget script,
// which reads its public key from its own tag.
func (s *Service) EmbedScript(w *Widget) string {
	return `<script src="` + html.EscapeString(strings.TrimRight(s.Settings.EndpointBase, "/")+"/site-chat/widget.js") +
		`" data-public-key="` + html.EscapeString(w.PublicKey) + `" async></script>`
}

// PublicEndpointBase is where the widget sends its public calls: the API's public site
// chat prefix.
func (s *Service) PublicEndpointBase() string {
	return strings.TrimRight(s.Settings.EndpointBase, "/") + "/api/v1/public/site-chat"
}

// CreateWidget adds a widget to a project with a new public key. Defaults: name "Site
// chat", title "Chat with us", subtitle "We reply within minutes", accent #2563eb, position
// right, no heavy tracking, sampling rate 1, status active. Errors: invalid (the fields).
func (s *Service) CreateWidget(ctx context.Context, p *company.Project, f WidgetFields) (*Widget, error) {
	now := s.now()
	w := Widget{ID: models.NewID(), CompanyID: p.CompanyID, ProjectID: p.ID, PublicKey: publicKeyPrefix + models.RandomToken(18),
		Name: "Site chat", Status: WidgetActive, Title: "Chat with us", Subtitle: "We reply within minutes", AccentColor: "#2563eb",
		Position: "right", SamplingRate: 1, SettingsJSON: "{}", CreatedAt: now, UpdatedAt: now}
	if err := f.applyTo(&w); err != nil {
		return nil, err
	}
	if err := s.DB.WithContext(ctx).Create(&w).Error; err != nil {
		return nil, models.Internal("create site chat widget: %w", err)
	}
	return &w, nil
}

// PatchWidget changes the fields present. Errors: invalid (the fields).
func (s *Service) PatchWidget(ctx context.Context, w *Widget, f WidgetFields) (*Widget, error) {
	changed := *w
	if err := f.applyTo(&changed); err != nil {
		return nil, err
	}
	changed.UpdatedAt = s.now()
	if err := s.DB.WithContext(ctx).Save(&changed).Error; err != nil {
		return nil, models.Internal("patch site chat widget: %w", err)
	}
	return &changed, nil
}

// Widgets lists a page of a project's widgets, every status.
func (s *Service) Widgets(ctx context.Context, projectID uuid.UUID, page models.PageRequest) ([]Widget, string, error) {
	var rows []Widget
	if err := page.Apply(s.DB.WithContext(ctx).Where("project_id = ?", projectID), "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list site chat widgets: %w", err)
	}
	rows, next := models.Page(page, rows, func(w Widget) uuid.UUID { return w.ID })
	return rows, next, nil
}

// WidgetAccess returns a widget and the caller's standing in its company. Errors: not_found.
func (s *Service) WidgetAccess(ctx context.Context, userID, id uuid.UUID) (*Widget, *company.Access, error) {
	return loadOwned(ctx, s, userID, id, "site_chat_widget_not_found", func(w *Widget) uuid.UUID { return w.CompanyID })
}

// PublicWidget is the active widget with publicKey; a paused or archived one is not found,
// so its script shows nothing. Errors: not_found.
func (s *Service) PublicWidget(ctx context.Context, publicKey string) (*Widget, error) {
	return take[Widget](s.DB.WithContext(ctx), "site_chat_widget_not_found", "public_key = ? AND status = ?", publicKey, WidgetActive)
}
