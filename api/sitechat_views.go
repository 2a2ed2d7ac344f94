package api

import (
	"encoding/json"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/models/sitechat"
)

// siteChatWidgetView is the specification's SiteChatWidget.
type siteChatWidgetView struct {
	ChatWidgetID         uuid.UUID       `json:"chat_widget_id"`
	CompanyID            uuid.UUID       `json:"company_id"`
	ProjectID            uuid.UUID       `json:"project_id"`
	PublicKey            string          `json:"public_key"`
	Name                 string          `json:"name"`
	Status               string          `json:"status"`
	Title                string          `json:"title"`
	Subtitle             string          `json:"subtitle"`
	AccentColor          string          `json:"accent_color"`
	Position             string          `json:"position"`
	HeavyTrackingDefault bool            `json:"heavy_tracking_default"`
	SamplingRate         float64         `json:"sampling_rate"`
	SettingsJSON         json.RawMessage `json:"settings_json"`
	EmbedScript          string          `json:"embed_script"`
	CreatedAt            time.Time       `json:"created_at"`
	UpdatedAt            time.Time       `json:"updated_at"`
}

func (s *Server) viewChatWidget(w sitechat.Widget) siteChatWidgetView {
	return siteChatWidgetView{
		ChatWidgetID: w.ID, CompanyID: w.CompanyID, ProjectID: w.ProjectID, PublicKey: w.PublicKey, Name: w.Name, Status: w.Status,
		Title: w.Title, Subtitle: w.Subtitle, AccentColor: w.AccentColor, Position: w.Position, HeavyTrackingDefault: w.HeavyTrackingDefault,
		SamplingRate: w.SamplingRate, SettingsJSON: json.RawMessage(w.SettingsJSON), EmbedScript: s.SiteChat.EmbedScript(&w),
		CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt,
	}
}

// siteChatPublicConfigView is the specification's SiteChatPublicConfig.
type siteChatPublicConfigView struct {
	ChatWidgetID         uuid.UUID `json:"chat_widget_id"`
	ProjectID            uuid.UUID `json:"project_id"`
	PublicKey            string    `json:"public_key"`
	Title                string    `json:"title"`
	Subtitle             string    `json:"subtitle"`
	AccentColor          string    `json:"accent_color"`
	EndpointBase         string    `json:"endpoint_base"`
	Position             string    `json:"position"`
	HeavyTrackingDefault bool      `json:"heavy_tracking_default"`
	SamplingRate         float64   `json:"sampling_rate"`
}

// siteVisitorSessionView is the specification's SiteVisitorSession, plus the invitation,
// when the visit started and whether it is the visitor's first (extensions). The presence response is the same minus the page, plus the token.
type siteVisitorSessionView struct {
	VisitorID            uuid.UUID      `json:"visitor_id"`
	VisitSessionID       uuid.UUID      `json:"visit_session_id"`
	ChatWidgetID         uuid.UUID      `json:"chat_widget_id"`
	ProjectID            uuid.UUID      `json:"project_id"`
	ConversationID       uuid.UUID      `json:"conversation_id"`
	ConversationURL      string         `json:"conversation_url"`
	PanelURL             string         `json:"panel_url"`
	CallURL              string         `json:"call_url"`
	CurrentURL           string         `json:"current_url"`
	CurrentTitle         string         `json:"current_title"`
	LastActivityAt       time.Time      `json:"last_activity_at"`
	MonitoringStatus     string         `json:"monitoring_status"`
	OperatorInvited      bool           `json:"operator_invited"`
	ChatOpen             bool           `json:"chat_open"`
	InviteStatus         string         `json:"invite_status"`
	InviteMessage        string         `json:"invite_message"`
	InviteForce          bool           `json:"invite_force"`
	StartedAt            time.Time      `json:"started_at"`
	IsFirstVisit         bool           `json:"is_first_visit"`
	VisitorStateSnapshot map[string]any `json:"visitor_state_snapshot"`
}

func (s *Server) viewVisitSession(c *gin.Context, v *sitechat.VisitSession) (siteVisitorSessionView, error) {
	snapshot, err := s.SiteChat.Snapshot(c, v)
	if err != nil {
		return siteVisitorSessionView{}, err
	}
	first, err := s.SiteChat.IsFirstVisit(c, v)
	if err != nil {
		return siteVisitorSessionView{}, err
	}
	conversationURL, panelURL, callURL := s.SiteChat.Links(v)
	return siteVisitorSessionView{
		VisitorID: v.VisitorID, VisitSessionID: v.ID, ChatWidgetID: v.ChatWidgetID, ProjectID: v.ProjectID, ConversationID: v.ConversationID,
		ConversationURL: conversationURL, PanelURL: panelURL, CallURL: callURL, CurrentURL: v.CurrentURL, CurrentTitle: v.CurrentTitle,
		LastActivityAt: v.LastActivityAt, MonitoringStatus: v.MonitoringStatus, OperatorInvited: v.OperatorInvited, ChatOpen: v.ChatOpen,
		InviteStatus: v.InviteStatus, InviteMessage: v.InviteMessage, InviteForce: v.InviteForce, StartedAt: v.CreatedAt,
		IsFirstVisit: first, VisitorStateSnapshot: snapshot,
	}, nil
}

// siteChatConversationView is the specification's SiteChatConversation; the operator's
// desk adds the last message and the caller's unread count (extensions).
type siteChatConversationView struct {
	ConversationID uuid.UUID               `json:"conversation_id"`
	ProjectID      uuid.UUID               `json:"project_id"`
	ChatWidgetID   uuid.UUID               `json:"chat_widget_id"`
	VisitorID      uuid.UUID               `json:"visitor_id"`
	VisitSessionID *uuid.UUID              `json:"visit_session_id,omitempty"`
	Status         string                  `json:"status"`
	Title          string                  `json:"title"`
	VisitorName    string                  `json:"visitor_name"`
	VisitorContact string                  `json:"visitor_contact"`
	OperatorURL    string                  `json:"operator_url"`
	CallURL        string                  `json:"call_url"`
	CreatedAt      time.Time               `json:"created_at"`
	UpdatedAt      time.Time               `json:"updated_at"`
	UnreadCount    *int                    `json:"unread_count,omitempty"`
	LastMessageAt  *time.Time              `json:"last_message_at,omitempty"`
	LastMessage    *siteChatMessagePreview `json:"last_message,omitempty"`
}

// siteChatMessagePreview is the start of a conversation's last message, for a list.
type siteChatMessagePreview struct {
	MessageID       uuid.UUID `json:"message_id"`
	AuthorKind      string    `json:"author_kind"`
	AuthorName      string    `json:"author_name"`
	Body            string    `json:"body"`
	AttachmentCount int       `json:"attachment_count"`
	CreatedAt       time.Time `json:"created_at"`
}

// previewRunes is how much of a message's body a preview carries.
const previewRunes = 200

func (s *Server) viewConversation(c *gin.Context, conv *sitechat.Conversation) (siteChatConversationView, error) {
	cv, err := s.SiteChat.ConversationView(c, conv)
	if err != nil {
		return siteChatConversationView{}, err
	}
	return s.conversationOf(cv), nil
}

func (s *Server) conversationOf(cv *sitechat.ConversationView) siteChatConversationView {
	conv := &cv.Conversation
	v := siteChatConversationView{
		ConversationID: conv.ID, ProjectID: conv.ProjectID, ChatWidgetID: conv.ChatWidgetID, VisitorID: conv.VisitorID,
		VisitSessionID: conv.VisitSessionID, Status: conv.Status, Title: conv.Title, VisitorName: cv.VisitorName,
		VisitorContact: cv.VisitorContact, CreatedAt: conv.CreatedAt, UpdatedAt: conv.UpdatedAt,
	}
	if conv.VisitSessionID != nil {
		_, _, v.CallURL = s.SiteChat.Links(&sitechat.VisitSession{ID: *conv.VisitSessionID, ConversationID: conv.ID})
	}
	v.OperatorURL, _, _ = s.SiteChat.Links(&sitechat.VisitSession{ConversationID: conv.ID})
	return v
}

// viewConversationSummary is a conversation as the caller's desk lists it.
func (s *Server) viewConversationSummary(cs sitechat.ConversationSummary) siteChatConversationView {
	v := s.conversationOf(&cs.ConversationView)
	v.UnreadCount = &cs.Unread
	if m := cs.LastMessage; m != nil {
		body := []rune(m.Body)
		if len(body) > previewRunes {
			body = append(body[:previewRunes-1], '…')
		}
		v.LastMessageAt = &m.CreatedAt
		v.LastMessage = &siteChatMessagePreview{MessageID: m.ID, AuthorKind: m.AuthorKind, AuthorName: m.AuthorName, Body: string(body),
			AttachmentCount: len(m.Attachments), CreatedAt: m.CreatedAt}
	}
	return v
}

// siteChatAttachmentView is a file a message carries (extension), with a link that
// downloads it until download_expires_at.
type siteChatAttachmentView struct {
	AttachmentID uuid.UUID `json:"attachment_id"`
	fileView
	DownloadURL       string    `json:"download_url"`
	DownloadExpiresAt time.Time `json:"download_expires_at"`
}

// siteChatMessageView is the specification's SiteChatMessage, plus its attachments.
type siteChatMessageView struct {
	MessageID      uuid.UUID                `json:"message_id"`
	ConversationID uuid.UUID                `json:"conversation_id"`
	AuthorKind     string                   `json:"author_kind"`
	AuthorUserID   *uuid.UUID               `json:"author_user_id,omitempty"`
	AuthorName     string                   `json:"author_name"`
	Body           string                   `json:"body"`
	CreatedAt      time.Time                `json:"created_at"`
	Attachments    []siteChatAttachmentView `json:"attachments"`
}

// viewMessage renders a message; its attachment links are signed anew on every read.
func (s *Server) viewMessage(m sitechat.Message) siteChatMessageView {
	v := siteChatMessageView{MessageID: m.ID, ConversationID: m.ConversationID, AuthorKind: m.AuthorKind, AuthorUserID: m.AuthorUserID,
		AuthorName: m.AuthorName, Body: m.Body, CreatedAt: m.CreatedAt, Attachments: make([]siteChatAttachmentView, len(m.Attachments))}
	for i, a := range m.Attachments {
		link := s.SiteChat.LinkAttachment(&a)
		v.Attachments[i] = siteChatAttachmentView{
			AttachmentID:      a.ID,
			fileView:          viewFile(a.Meta),
			DownloadURL:       s.PublicURL + "/api/v1/site-chat/attachments/" + a.ID.String() + "/" + link.DownloadToken,
			DownloadExpiresAt: link.Expires,
		}
	}
	return v
}

// siteChatCallView is the specification's SiteChatCallSession.
type siteChatCallView struct {
	CallSessionID              uuid.UUID       `json:"call_session_id"`
	CompanyID                  uuid.UUID       `json:"company_id"`
	ProjectID                  uuid.UUID       `json:"project_id"`
	ChatWidgetID               uuid.UUID       `json:"chat_widget_id"`
	VisitorID                  uuid.UUID       `json:"visitor_id"`
	ConversationID             *uuid.UUID      `json:"conversation_id,omitempty"`
	VisitSessionID             uuid.UUID       `json:"visit_session_id"`
	Direction                  string          `json:"direction"`
	RequestedBy                string          `json:"requested_by"`
	RequestedByUserID          *uuid.UUID      `json:"requested_by_user_id,omitempty"`
	Status                     string          `json:"status"`
	MediaKind                  string          `json:"media_kind"`
	RecordingEnabled           bool            `json:"recording_enabled"`
	EndReason                  string          `json:"end_reason"`
	MetadataJSON               json.RawMessage `json:"metadata_json"`
	StartedAt                  *time.Time      `json:"started_at,omitempty"`
	EndedAt                    *time.Time      `json:"ended_at,omitempty"`
	LastSignalAt               *time.Time      `json:"last_signal_at,omitempty"`
	PrivacyConsentAcceptedAt   *time.Time      `json:"privacy_consent_accepted_at,omitempty"`
	RecordingConsentAcceptedAt *time.Time      `json:"recording_consent_accepted_at,omitempty"`
	CreatedAt                  time.Time       `json:"created_at"`
	UpdatedAt                  time.Time       `json:"updated_at"`
}

func viewCall(c *sitechat.CallSession) siteChatCallView {
	return siteChatCallView{
		CallSessionID: c.ID, CompanyID: c.CompanyID, ProjectID: c.ProjectID, ChatWidgetID: c.ChatWidgetID, VisitorID: c.VisitorID,
		ConversationID: c.ConversationID, VisitSessionID: c.VisitSessionID, Direction: c.Direction, RequestedBy: c.RequestedBy,
		RequestedByUserID: c.RequestedByUserID, Status: string(c.Status), MediaKind: c.MediaKind, RecordingEnabled: c.RecordingEnabled,
		EndReason: c.EndReason, MetadataJSON: json.RawMessage(c.MetadataJSON), StartedAt: c.StartedAt, EndedAt: c.EndedAt,
		LastSignalAt: c.LastSignalAt, PrivacyConsentAcceptedAt: c.PrivacyConsentAcceptedAt,
		RecordingConsentAcceptedAt: c.RecordingConsentAcceptedAt, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
	}
}

// siteCobrowseFrameView is the specification's SiteCobrowseFrame.
type siteCobrowseFrameView struct {
	FrameID        uuid.UUID       `json:"frame_id"`
	VisitSessionID uuid.UUID       `json:"visit_session_id"`
	Sequence       int64           `json:"sequence"`
	Kind           string          `json:"kind"`
	OccurredAt     time.Time       `json:"occurred_at"`
	PayloadJSON    json.RawMessage `json:"payload_json"`
	CreatedAt      time.Time       `json:"created_at"`
}

func viewFrame(f sitechat.Frame) siteCobrowseFrameView {
	return siteCobrowseFrameView{FrameID: f.ID, VisitSessionID: f.VisitSessionID, Sequence: f.Sequence, Kind: f.Kind,
		OccurredAt: f.OccurredAt, PayloadJSON: json.RawMessage(f.PayloadJSON), CreatedAt: f.CreatedAt}
}

// siteChatRecordingView is a recording of a call (extension), with a 15-minute download link.
type siteChatRecordingView struct {
	RecordingID   uuid.UUID `json:"recording_id"`
	CallSessionID uuid.UUID `json:"call_session_id"`
	fileView
	CreatedBy   uuid.UUID `json:"created_by"`
	CreatedAt   time.Time `json:"created_at"`
	DownloadURL string    `json:"download_url"`
}

func (s *Server) viewRecordings(c *gin.Context) func([]sitechat.Recording) ([]siteChatRecordingView, error) {
	return func(rows []sitechat.Recording) ([]siteChatRecordingView, error) {
		out := make([]siteChatRecordingView, len(rows))
		for i, r := range rows {
			url, err := s.Files.DownloadURL(c, r.StorageKey, r.Download())
			if err != nil {
				return nil, err
			}
			out[i] = siteChatRecordingView{
				RecordingID:   r.ID,
				CallSessionID: r.CallSessionID,
				fileView:      viewFile(r.Meta),
				CreatedBy:     r.CreatedBy,
				CreatedAt:     r.CreatedAt,
				DownloadURL:   url,
			}
		}
		return out, nil
	}
}

// iceServerView is one RTCIceServer.
type iceServerView struct {
	URLs       []string `json:"urls"`
	Username   string   `json:"username,omitempty"`
	Credential string   `json:"credential,omitempty"`
}

// voiceConfigView answers the ICE servers of calls and how long their TURN credentials
// last (0: none).
type voiceConfigView struct {
	ICEServers           []iceServerView `json:"ice_servers"`
	CredentialTTLSeconds int             `json:"credential_ttl_seconds"`
}

func viewVoiceConfig(cfg sitechat.VoiceConfig) voiceConfigView {
	v := voiceConfigView{ICEServers: make([]iceServerView, len(cfg.ICEServers)), CredentialTTLSeconds: int(cfg.TTL.Seconds())}
	for i, s := range cfg.ICEServers {
		v.ICEServers[i] = iceServerView{URLs: s.URLs, Username: s.Username, Credential: s.Credential}
	}
	return v
}
