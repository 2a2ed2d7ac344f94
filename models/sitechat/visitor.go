package sitechat

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
)

// Monitoring statuses of a visit session: an operator asks (requested), the visitor's
// consent makes it active, and either side stops it.
const (
	MonitoringIdle      = "idle"
	MonitoringRequested = "requested"
	MonitoringActive    = "active"
	MonitoringStopped   = "stopped"
)

// Visitor is one browser of a widget's site, known by the anonymous id the widget keeps.
type Visitor struct {
	ID           uuid.UUID `gorm:"primaryKey"`
	CompanyID    uuid.UUID
	ProjectID    uuid.UUID
	ChatWidgetID uuid.UUID
	// AnonymousID is the widget's random id for the browser: it resumes the visitor, so it
	// is never shown to anyone.
	AnonymousID string
	// Name and Contact are what the visitor last gave with a message.
	Name       string
	Contact    string
	CreatedAt  time.Time
	LastSeenAt time.Time
}

func (Visitor) TableName() string { return "site_visitors" }

// VisitSession is one visit of a visitor: its page, its state, monitoring and invitation.
type VisitSession struct {
	ID           uuid.UUID `gorm:"primaryKey"`
	CompanyID    uuid.UUID
	ProjectID    uuid.UUID
	ChatWidgetID uuid.UUID
	VisitorID    uuid.UUID
	// ConversationID is the visitor's open conversation, or the id reserved for the next
	// one, which the first message creates.
	ConversationID   uuid.UUID
	CurrentURL       string
	CurrentTitle     string
	State            SessionState `gorm:"column:state_json;serializer:json"`
	MonitoringStatus string
	OperatorInvited  bool
	// InviteStatus is "" (none), pending, seen, accepted or declined; InviteMessage and
	// InviteForce are what the last invitation said.
	InviteStatus  string
	InviteMessage string
	InviteForce   bool
	ChatOpen      bool
	// FrameSequence is the last co-browse sequence handed out (see RecordEvents).
	FrameSequence  int64
	LastActivityAt time.Time
	LeftAt         *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

func (VisitSession) TableName() string { return "site_visit_sessions" }

// SessionState is what the widget reported about the visit, kept for the snapshot.
type SessionState struct {
	Browser        string         `json:"browser,omitempty"`
	BrowserVersion string         `json:"browser_version,omitempty"`
	DeviceType     string         `json:"device_type,omitempty"`
	Language       string         `json:"language,omitempty"`
	OS             string         `json:"os,omitempty"`
	Referrer       string         `json:"referrer,omitempty"`
	Timezone       string         `json:"timezone,omitempty"`
	UserAgent      string         `json:"user_agent,omitempty"`
	Analytics      Analytics      `json:"analytics"`
	Metadata       map[string]any `json:"metadata,omitempty"`
	ScreenWidth    int            `json:"screen_width,omitempty"`
	ScreenHeight   int            `json:"screen_height,omitempty"`
	ViewportWidth  int            `json:"viewport_width,omitempty"`
	ViewportHeight int            `json:"viewport_height,omitempty"`
	ScrollX        int            `json:"scroll_x,omitempty"`
	ScrollY        int            `json:"scroll_y,omitempty"`
	// Signals counts the events of each event_type the visit sent; LastEventType and
	// LastEventAt are the latest of them.
	Signals       map[string]int `json:"signals,omitempty"`
	EventsTotal   int            `json:"events_total,omitempty"`
	LastEventType string         `json:"last_event_type,omitempty"`
	LastEventAt   *time.Time     `json:"last_event_at,omitempty"`
}

// Analytics are the site's web-analytics identifiers for the visit.
type Analytics struct {
	ClientID  string         `json:"client_id,omitempty"`
	SessionID string         `json:"session_id,omitempty"`
	UserID    string         `json:"user_id,omitempty"`
	UTM       map[string]any `json:"utm,omitempty"`
}

// PresenceInput is the specification's SiteChatPresenceRequest.
type PresenceInput struct {
	PublicKey          string         `json:"public_key"`
	VisitSessionID     *uuid.UUID     `json:"visit_session_id"`
	AnonymousID        string         `json:"anonymous_id"`
	Browser            string         `json:"browser"`
	BrowserVersion     string         `json:"browser_version"`
	DeviceType         string         `json:"device_type"`
	Language           string         `json:"language"`
	OS                 string         `json:"os"`
	Referrer           string         `json:"referrer"`
	Timezone           string         `json:"timezone"`
	Title              string         `json:"title"`
	URL                string         `json:"url"`
	UserAgent          string         `json:"user_agent"`
	AnalyticsClientID  string         `json:"analytics_client_id"`
	AnalyticsSessionID string         `json:"analytics_session_id"`
	AnalyticsUserID    string         `json:"analytics_user_id"`
	ScreenWidth        *int           `json:"screen_width"`
	ScreenHeight       *int           `json:"screen_height"`
	ScrollX            *int           `json:"scroll_x"`
	ScrollY            *int           `json:"scroll_y"`
	ViewportWidth      *int           `json:"viewport_width"`
	ViewportHeight     *int           `json:"viewport_height"`
	Metadata           map[string]any `json:"metadata"`
	UTM                map[string]any `json:"utm"`
}

// Presence is what presence answers: the visitor's session, whether the visitor is new,
// the anonymous id to keep, and the token for every later call.
type Presence struct {
	Access       *VisitorAccess
	IsFirstVisit bool
	AnonymousID  string
	Token        string
	TokenExpires time.Time
}

// anonymousID is what a widget's anonymous id may be: long and random enough that nobody
// guesses another browser's, since it resumes that browser's visitor.
var anonymousID = regexp.MustCompile(`^[A-Za-z0-9_-]{16,128}$`)

// maxStateBytes caps the free-form parts of presence (metadata, utm) kept per session.
const maxStateBytes = 8 << 10

// Presence creates or resumes the visitor of in.AnonymousID (a new random one when absent)
// on the active widget of in.PublicKey, resumes the visit session in.VisitSessionID when
// it is that visitor's (else starts one), records the page and the browser, and signs a
// visitor token for the session. Errors: not_found (widget), invalid (anonymous_id,
// metadata, utm).
func (s *Service) Presence(ctx context.Context, in PresenceInput) (*Presence, error) {
	var bad fieldCheck
	bad.check("anonymous_id", in.AnonymousID == "" || anonymousID.MatchString(in.AnonymousID))
	bad.check("metadata", jsonSize(in.Metadata) <= maxStateBytes)
	bad.check("utm", jsonSize(in.UTM) <= maxStateBytes)
	if err := bad.err("invalid_presence"); err != nil {
		return nil, err
	}
	w, err := s.PublicWidget(ctx, in.PublicKey)
	if err != nil {
		return nil, err
	}
	p := &Presence{AnonymousID: in.AnonymousID}
	if p.AnonymousID == "" {
		p.AnonymousID = models.RandomToken(24)
	}
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		visitor, created, err := s.visitorOf(tx, w, p.AnonymousID)
		if err != nil {
			return err
		}
		p.IsFirstVisit = created
		session, err := s.sessionFor(tx, w, visitor, in.VisitSessionID)
		if err != nil {
			return err
		}
		in.applyTo(session)
		now := s.now()
		session.LastActivityAt, session.LeftAt, session.UpdatedAt = now, nil, now
		if err := tx.Save(session).Error; err != nil {
			return models.Internal("save visit session: %w", err)
		}
		if err := tx.Model(visitor).Update("last_seen_at", now).Error; err != nil {
			return models.Internal("touch visitor: %w", err)
		}
		p.Access = &VisitorAccess{Visitor: visitor, Session: session, Widget: w}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if p.Token, p.TokenExpires, err = s.signVisitorToken(p.Access.Session); err != nil {
		return nil, err
	}
	s.publish(ctx, sessionNotice(NoticePresenceUpdate, p.Access.Session))
	return p, nil
}

func jsonSize(v map[string]any) int {
	if v == nil {
		return 0
	}
	b, _ := json.Marshal(v)
	return len(b)
}

// visitorOf finds the widget's visitor with anonID or creates it; created tells which. Two
// first presences of one browser at once both end with the one visitor.
func (s *Service) visitorOf(tx *gorm.DB, w *Widget, anonID string) (*Visitor, bool, error) {
	v, err := take[Visitor](tx, "visitor_not_found", "chat_widget_id = ? AND anonymous_id = ?", w.ID, anonID)
	if err == nil || !models.IsKind(err, models.KindNotFound) {
		return v, false, err
	}
	now := s.now()
	v = &Visitor{ID: models.NewID(), CompanyID: w.CompanyID, ProjectID: w.ProjectID, ChatWidgetID: w.ID, AnonymousID: anonID,
		CreatedAt: now, LastSeenAt: now}
	if err := tx.Create(v).Error; err != nil {
		return nil, false, models.Internal("create visitor: %w", err)
	}
	return v, true, nil
}

// sessionFor resumes the visitor's session id, or starts one that reserves the visitor's
// open conversation (or a new conversation id). A session id of another visitor starts a
// new session: only the visitor's own anonymous id resumes one.
func (s *Service) sessionFor(tx *gorm.DB, w *Widget, v *Visitor, id *uuid.UUID) (*VisitSession, error) {
	if id != nil {
		// Locked: presence rewrites the session's state, which event batches change too.
		session, err := take[VisitSession](
			tx.Clauses(clause.Locking{Strength: "UPDATE"}), "visit_session_not_found", "id = ? AND visitor_id = ?",
			*id, v.ID,
		)
		if err == nil || !models.IsKind(err, models.KindNotFound) {
			return session, err
		}
	}
	conversationID := models.NewID()
	open, err := take[Conversation](tx, "conversation_not_found", "visitor_id = ? AND status = ?", v.ID, ConversationOpen)
	switch {
	case err == nil:
		conversationID = open.ID
	case !models.IsKind(err, models.KindNotFound):
		return nil, err
	}
	now := s.now()
	session := &VisitSession{ID: models.NewID(), CompanyID: w.CompanyID, ProjectID: w.ProjectID, ChatWidgetID: w.ID, VisitorID: v.ID,
		ConversationID: conversationID, MonitoringStatus: MonitoringIdle, LastActivityAt: now, CreatedAt: now, UpdatedAt: now}
	if err := tx.Create(session).Error; err != nil {
		return nil, models.Internal("create visit session: %w", err)
	}
	return session, nil
}

// applyTo records the page and browser the presence reports; absent fields keep their value.
func (in PresenceInput) applyTo(v *VisitSession) {
	setText := func(dst *string, src string, n int) {
		if src != "" {
			*dst = clip(src, n)
		}
	}
	setInt := func(dst *int, src *int) {
		if src != nil {
			*dst = *src
		}
	}
	st := &v.State
	setText(&v.CurrentURL, in.URL, 2048)
	setText(&v.CurrentTitle, in.Title, 500)
	setText(&st.Browser, in.Browser, 100)
	setText(&st.BrowserVersion, in.BrowserVersion, 50)
	setText(&st.DeviceType, in.DeviceType, 50)
	setText(&st.Language, in.Language, 35)
	setText(&st.OS, in.OS, 100)
	setText(&st.Referrer, in.Referrer, 2048)
	setText(&st.Timezone, in.Timezone, 100)
	setText(&st.UserAgent, in.UserAgent, 500)
	setText(&st.Analytics.ClientID, in.AnalyticsClientID, 200)
	setText(&st.Analytics.SessionID, in.AnalyticsSessionID, 200)
	setText(&st.Analytics.UserID, in.AnalyticsUserID, 200)
	setInt(&st.ScreenWidth, in.ScreenWidth)
	setInt(&st.ScreenHeight, in.ScreenHeight)
	setInt(&st.ViewportWidth, in.ViewportWidth)
	setInt(&st.ViewportHeight, in.ViewportHeight)
	setInt(&st.ScrollX, in.ScrollX)
	setInt(&st.ScrollY, in.ScrollY)
	if in.Metadata != nil {
		st.Metadata = in.Metadata
	}
	if in.UTM != nil {
		st.Analytics.UTM = in.UTM
	}
}

// TouchSession records a heartbeat of the visitor's session: it is active now (and no
// longer left). Presence is published only when the session comes back from left.
func (s *Service) TouchSession(ctx context.Context, v *VisitorAccess) error {
	now := s.now()
	res := s.DB.WithContext(ctx).Model(&VisitSession{}).Where("id = ?", v.Session.ID).
		Updates(map[string]any{"last_activity_at": now, "left_at": nil, "updated_at": now})
	if res.Error != nil {
		return models.Internal("touch visit session: %w", res.Error)
	}
	if v.Session.LeftAt != nil {
		s.publish(ctx, sessionNotice(NoticePresenceUpdate, v.Session))
	}
	v.Session.LastActivityAt, v.Session.LeftAt = now, nil
	return nil
}

// MarkVisitorLeft records that the visitor's session ended (its socket closed and the
// grace period passed); a session already left is left alone.
func (s *Service) MarkVisitorLeft(ctx context.Context, v *VisitorAccess) error {
	now := s.now()
	res := s.DB.WithContext(ctx).Model(&VisitSession{}).Where("id = ? AND left_at IS NULL", v.Session.ID).
		Updates(map[string]any{"left_at": now, "chat_open": false, "updated_at": now})
	if res.Error != nil {
		return models.Internal("mark visitor left: %w", res.Error)
	}
	if res.RowsAffected > 0 {
		v.Session.LeftAt, v.Session.ChatOpen = &now, false
		s.publish(ctx, sessionNotice(NoticeVisitorLeft, v.Session))
	}
	return nil
}

// SessionAccess returns a visit session and the caller's standing in its company.
// Errors: not_found.
func (s *Service) SessionAccess(ctx context.Context, userID, id uuid.UUID) (*VisitSession, *company.Access, error) {
	return loadOwned(ctx, s, userID, id, "visit_session_not_found", func(v *VisitSession) uuid.UUID { return v.CompanyID })
}

// Session reads a visit session of a company. Errors: not_found.
func (s *Service) Session(ctx context.Context, companyID, id uuid.UUID) (*VisitSession, error) {
	return take[VisitSession](s.DB.WithContext(ctx), "visit_session_not_found", "id = ? AND company_id = ?", id, companyID)
}

// ActiveVisitors lists a page of the project's visit sessions active within ActiveWindow
// that have not left.
func (s *Service) ActiveVisitors(ctx context.Context, projectID uuid.UUID, page models.PageRequest) ([]VisitSession, string, error) {
	var rows []VisitSession
	q := s.DB.WithContext(ctx).Where("project_id = ? AND last_activity_at >= ? AND left_at IS NULL", projectID, s.now().Add(-ActiveWindow))
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list active visitors: %w", err)
	}
	rows, next := models.Page(page, rows, func(v VisitSession) uuid.UUID { return v.ID })
	return rows, next, nil
}

// IsFirstVisit tells whether the session is its visitor's first visit: no earlier session
// of the visitor exists (session ids are UUIDv7, so in the order they were made).
func (s *Service) IsFirstVisit(ctx context.Context, v *VisitSession) (bool, error) {
	var earlier []uuid.UUID
	err := s.DB.WithContext(ctx).Model(&VisitSession{}).Where("visitor_id = ? AND id < ?", v.VisitorID, v.ID).Limit(1).Pluck("id", &earlier).Error
	if err != nil {
		return false, models.Internal("read earlier visits: %w", err)
	}
	return len(earlier) == 0, nil
}

// Snapshot is the specification's VisitorStateSnapshot of a session, as of now.
func (s *Service) Snapshot(ctx context.Context, v *VisitSession) (map[string]any, error) {
	var snapshotSeq int64
	err := s.DB.WithContext(ctx).Model(&Frame{}).Where("visit_session_id = ? AND kind = ?", v.ID, FrameSnapshot).
		Select("COALESCE(MAX(sequence), 0)").Scan(&snapshotSeq).Error
	if err != nil {
		return nil, models.Internal("read latest snapshot frame: %w", err)
	}
	st := v.State
	activity := map[string]any{
		"last_activity_at": v.LastActivityAt, "active": s.isActive(v), "chat_open": v.ChatOpen,
		"events_total": st.EventsTotal, "monitoring_status": v.MonitoringStatus,
	}
	if st.LastEventType != "" {
		activity["last_event_type"], activity["last_event_at"] = st.LastEventType, st.LastEventAt
	}
	signals := map[string]any{}
	for k, n := range st.Signals {
		signals[k] = n
	}
	analytics := map[string]any{"client_id": st.Analytics.ClientID, "session_id": st.Analytics.SessionID, "user_id": st.Analytics.UserID,
		"referrer": st.Referrer}
	if st.Analytics.UTM != nil {
		analytics["utm"] = st.Analytics.UTM
	}
	return map[string]any{
		"visitor_id": v.VisitorID, "visit_session_id": v.ID, "chat_widget_id": v.ChatWidgetID,
		"current_url": v.CurrentURL, "current_title": v.CurrentTitle,
		"activity":  activity,
		"analytics": analytics,
		"scroll":    map[string]any{"x": st.ScrollX, "y": st.ScrollY},
		"signals":   signals,
		"viewport": map[string]any{"width": st.ViewportWidth, "height": st.ViewportHeight,
			"screen_width": st.ScreenWidth, "screen_height": st.ScreenHeight, "device_type": st.DeviceType},
		"browser": map[string]any{"name": st.Browser, "version": st.BrowserVersion, "os": st.OS, "language": st.Language,
			"timezone": st.Timezone, "user_agent": st.UserAgent},
		"cobrowse":          map[string]any{"last_sequence": v.FrameSequence, "snapshot_sequence": snapshotSeq},
		"suggested_actions": s.suggestedActions(v),
	}, nil
}

func (s *Service) isActive(v *VisitSession) bool {
	return v.LeftAt == nil && !v.LastActivityAt.Before(s.now().Add(-ActiveWindow))
}

// suggestedActions are what an operator can usefully do next with the visit.
func (s *Service) suggestedActions(v *VisitSession) []string {
	actions := []string{}
	if !s.isActive(v) {
		return actions
	}
	if !v.OperatorInvited && !v.ChatOpen {
		actions = append(actions, "invite")
	}
	if v.MonitoringStatus == MonitoringIdle || v.MonitoringStatus == MonitoringStopped {
		actions = append(actions, "start_monitoring")
	}
	if v.MonitoringStatus == MonitoringActive {
		actions = append(actions, "stop_monitoring")
	}
	return append(actions, "offer_call")
}

// Links are the operator app's pages of a visit: its conversation, its visitor panel and
// its call page, under Settings.AppURL.
func (s *Service) Links(v *VisitSession) (conversationURL, panelURL, callURL string) {
	base := strings.TrimRight(s.Settings.AppURL, "/") + "/site-chat"
	return base + "/conversations/" + v.ConversationID.String(), base + "/visits/" + v.ID.String(), base + "/visits/" + v.ID.String() + "/call"
}
