package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/company"
)

type userMe struct {
	UserID           uuid.UUID  `json:"user_id"`
	Email            string     `json:"email"`
	Name             string     `json:"name"`
	Language         string     `json:"language"`
	CurrentCompanyID *uuid.UUID `json:"current_company_id"`
}

func (s *Server) renderMe(c *gin.Context, u *auth.User) {
	wc, err := s.Company.Workspace(c, u.ID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, userMe{UserID: u.ID, Email: u.Email, Name: u.Name, Language: u.Lang, CurrentCompanyID: wc.ActiveCompanyID})
}

// authMe serves GET /api/v1/auth/me.
func (s *Server) authMe(c *gin.Context) {
	u, err := s.Auth.User(c, actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderMe(c, u)
}

type profilePatchRequest struct {
	Name     *string `json:"name"`
	Language *string `json:"language"`
}

// authProfilePatch serves PATCH /api/v1/auth/profile.
func (s *Server) authProfilePatch(c *gin.Context) {
	var req profilePatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	u, err := s.Auth.UpdateProfile(c, actor(c).UserID, auth.ProfilePatch{Name: req.Name, Lang: req.Language})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderMe(c, u)
}

// list is the shape of every list response.
type sessionView struct {
	SessionID   uuid.UUID `json:"session_id"`
	ClientType  string    `json:"client_type"`
	DeviceLabel string    `json:"device_label"`
	IPAddress   string    `json:"ip_address"`
	CreatedAt   time.Time `json:"created_at"`
	LastSeenAt  time.Time `json:"last_seen_at"`
	IsCurrent   bool      `json:"is_current"`
}

// authSessionList serves GET /api/v1/auth/sessions.
func (s *Server) authSessionList(c *gin.Context) {
	a := actor(c)
	servePage(c, func(page models.PageRequest) ([]auth.Session, string, error) {
		return s.Auth.Sessions(c, a.UserID, page)
	},
		each(func(s auth.Session) sessionView {
			return sessionView{
				SessionID: s.ID, ClientType: s.ClientType, DeviceLabel: s.DeviceLabel, IPAddress: s.IPAddress,
				CreatedAt: s.CreatedAt, LastSeenAt: s.LastSeenAt, IsCurrent: s.ID == a.SessionID,
			}
		}))
}

// authSessionDelete serves DELETE /api/v1/auth/sessions/{session_id}.
func (s *Server) authSessionDelete(c *gin.Context) {
	id, err := httpx.PathID(c, "session_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.Auth.RevokeSession(c, actor(c).UserID, id); err != nil {
		httpx.WriteError(c, err)
		return
	}
	if id == actor(c).SessionID {
		s.clearSessionCookies(c)
	}
	c.Status(http.StatusNoContent)
}

type apiKeyView struct {
	APIKeyID   uuid.UUID  `json:"api_key_id"`
	Name       string     `json:"name"`
	MaskedKey  string     `json:"masked_key"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

func viewAPIKey(k auth.APIKey) apiKeyView {
	return apiKeyView{
		APIKeyID:   k.ID,
		Name:       k.Name,
		MaskedKey:  k.MaskedKey(),
		CreatedAt:  k.CreatedAt,
		LastUsedAt: k.LastUsedAt,
		ExpiresAt:  k.ExpiresAt,
		RevokedAt:  k.RevokedAt,
	}
}

// apiKeyList serves GET /api/v1/auth/api-keys.
func (s *Server) apiKeyList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]auth.APIKey, string, error) {
		return s.Auth.APIKeys(c, actor(c).UserID, page)
	},
		each(viewAPIKey))
}

type apiKeyCreateRequest struct {
	Name      string     `json:"name"`
	ExpiresAt *time.Time `json:"expires_at"`
}

type apiKeyCreated struct {
	apiKeyView
	Key string `json:"key"`
}

// apiKeyCreate serves POST /api/v1/auth/api-keys; the key is in this answer only.
func (s *Server) apiKeyCreate(c *gin.Context) {
	var req apiKeyCreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	k, secret, err := s.Auth.CreateAPIKey(c, actor(c).UserID, req.Name, req.ExpiresAt)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, apiKeyCreated{apiKeyView: viewAPIKey(*k), Key: secret})
}

type apiKeyRevoked struct {
	APIKeyID uuid.UUID `json:"api_key_id"`
	Status   string    `json:"status"`
}

// apiKeyDelete serves DELETE /api/v1/auth/api-keys/{api_key_id}.
func (s *Server) apiKeyDelete(c *gin.Context) {
	id, err := httpx.PathID(c, "api_key_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.Auth.RevokeAPIKey(c, actor(c).UserID, id); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, apiKeyRevoked{APIKeyID: id, Status: "revoked"})
}

// workspaceContext is the wire form: unset ids are empty strings, as the specification says.
type workspaceContext struct {
	UserID          uuid.UUID `json:"user_id"`
	ActiveCompanyID string    `json:"active_company_id"`
	ActiveProjectID string    `json:"active_project_id"`
}

func renderWorkspace(c *gin.Context, wc *company.WorkspaceContext) {
	idOrEmpty := func(id *uuid.UUID) string {
		if id == nil {
			return ""
		}
		return id.String()
	}
	c.JSON(http.StatusOK, workspaceContext{
		UserID:          wc.UserID,
		ActiveCompanyID: idOrEmpty(wc.ActiveCompanyID),
		ActiveProjectID: idOrEmpty(wc.ActiveProjectID),
	})
}

// workspaceContextGet serves GET /api/v1/auth/workspace-context.
func (s *Server) workspaceContextGet(c *gin.Context) {
	wc, err := s.Company.Workspace(c, actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	renderWorkspace(c, wc)
}

type workspaceContextPatch struct {
	ActiveCompanyID httpx.Optional[uuid.UUID] `json:"active_company_id"`
	ActiveProjectID httpx.Optional[uuid.UUID] `json:"active_project_id"`
}

func optionalID(o httpx.Optional[uuid.UUID]) company.OptionalID {
	if !o.Set || o.Null {
		return company.OptionalID{Set: o.Set}
	}
	return company.OptionalID{Set: true, ID: &o.Value}
}

// workspaceContextPut serves PUT /api/v1/auth/workspace-context: absent fields stay, null
// clears, an id selects.
func (s *Server) workspaceContextPut(c *gin.Context) {
	var req workspaceContextPatch
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	wc, err := s.Company.PutWorkspace(c, actor(c).UserID, company.WorkspacePatch{
		ActiveCompanyID: optionalID(req.ActiveCompanyID), ActiveProjectID: optionalID(req.ActiveProjectID),
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	renderWorkspace(c, wc)
}
