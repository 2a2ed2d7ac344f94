package api

import (
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/sitechat"
)

// siteChatWidgetFields is the specification's SiteChatWidgetInput and SiteChatWidgetPatch.
type siteChatWidgetFields struct {
	Name                 *string         `json:"name"`
	Title                *string         `json:"title"`
	Subtitle             *string         `json:"subtitle"`
	AccentColor          *string         `json:"accent_color"`
	Position             *string         `json:"position"`
	HeavyTrackingDefault *bool           `json:"heavy_tracking_default"`
	SamplingRate         *float64        `json:"sampling_rate"`
	SettingsJSON         json.RawMessage `json:"settings_json"`
	Status               *string         `json:"status"`
}

func (f siteChatWidgetFields) domain() sitechat.WidgetFields {
	return sitechat.WidgetFields{Name: f.Name, Title: f.Title, Subtitle: f.Subtitle, AccentColor: f.AccentColor, Position: f.Position,
		HeavyTrackingDefault: f.HeavyTrackingDefault, SamplingRate: f.SamplingRate, SettingsJSON: f.SettingsJSON, Status: f.Status}
}

// siteChatWidgetList serves GET /api/v1/projects/{project_id}/site-chat-widgets.
func (s *Server) siteChatWidgetList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]sitechat.Widget, string, error) {
		return s.SiteChat.Widgets(c, project(c).ID, page)
	}, each(s.viewChatWidget))
}

// siteChatWidgetCreate serves POST /api/v1/projects/{project_id}/site-chat-widgets: a new
// widget with its public key and the tag to paste into the site.
func (s *Server) siteChatWidgetCreate(c *gin.Context) {
	var req siteChatWidgetFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	w, err := s.SiteChat.CreateWidget(c, project(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, s.viewChatWidget(*w))
}

// siteChatWidgetPatch serves PATCH /api/v1/site-chat-widgets/{chat_widget_id}; pausing or
// archiving takes the widget off every site at once (its config answers 404).
func (s *Server) siteChatWidgetPatch(c *gin.Context) {
	var req siteChatWidgetFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	w, err := s.SiteChat.PatchWidget(c, chatWidget(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewChatWidget(*w))
}

// siteChatPublicConfig serves GET /api/v1/public/site-chat/widgets/{public_key}/config
// (public): what the widget script needs to draw itself. A paused, archived or unknown
// widget answers 404, so the script shows nothing.
func (s *Server) siteChatPublicConfig(c *gin.Context) {
	key := c.Param("public_key")
	if err := s.limitPublic(c, key); err != nil {
		httpx.WriteError(c, err)
		return
	}
	w, err := s.SiteChat.PublicWidget(c, key)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Header("Cache-Control", "public, max-age=60")
	c.JSON(http.StatusOK, siteChatPublicConfigView{
		ChatWidgetID:         w.ID,
		ProjectID:            w.ProjectID,
		PublicKey:            w.PublicKey,
		Title:                w.Title,
		Subtitle:             w.Subtitle,
		AccentColor:          w.AccentColor,
		EndpointBase:         s.SiteChat.PublicEndpointBase(),
		Position:             w.Position,
		HeavyTrackingDefault: w.HeavyTrackingDefault,
		SamplingRate:         w.SamplingRate,
	})
}
