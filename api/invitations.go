package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/company"
)

type invitationView struct {
	InvitationID    uuid.UUID  `json:"invitation_id"`
	CompanyID       uuid.UUID  `json:"company_id"`
	Email           string     `json:"email"`
	Role            string     `json:"role"`
	InvitedByUserID *uuid.UUID `json:"invited_by_user_id"`
	InvitedByName   string     `json:"invited_by_name"`
	CreatedAt       time.Time  `json:"created_at"`
	ExpiresAt       time.Time  `json:"expires_at"`
	Expired         bool       `json:"expired"`
}

func viewInvitation(v company.InvitationView) invitationView {
	return invitationView{
		InvitationID: v.ID, CompanyID: v.CompanyID, Email: v.Email, Role: string(v.Role),
		InvitedByUserID: v.InvitedByUserID, InvitedByName: v.InvitedByName, CreatedAt: v.CreatedAt, ExpiresAt: v.ExpiresAt,
		Expired: v.Expired,
	}
}

// companyInvitationList serves GET /api/v1/companies/{company_id}/invitations (extension).
func (s *Server) companyInvitationList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]company.InvitationView, string, error) {
		return s.Company.Invitations(c, access(c).Company.ID, page)
	}, each(viewInvitation))
}

type invitationCreatedView struct {
	invitationView
	MailConfigured bool   `json:"mail_configured"`
	AcceptURL      string `json:"accept_url,omitempty"`
}

// companyInvitationCreate serves POST /api/v1/companies/{company_id}/invitations
// (extension): 201 for a new invitation, 200 when an open one of the e-mail was refreshed.
func (s *Server) companyInvitationCreate(c *gin.Context) {
	var req memberCreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	via := company.InvitationMail{AcceptURL: s.Auth.Settings.AppURL + "/invitations/accept", Delivered: s.Auth.SendsMail()}
	out, err := s.Company.Invite(c, access(c), actor(c).UserID, req.Email, company.Role(req.Role), via)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	status := http.StatusOK
	if out.Created {
		status = http.StatusCreated
	}
	c.JSON(status, invitationCreatedView{invitationView: viewInvitation(out.Invitation), MailConfigured: via.Delivered, AcceptURL: out.Link})
}

// companyInvitationDelete serves DELETE /api/v1/companies/{company_id}/invitations/{invitation_id}
// (extension): the invitation is revoked.
func (s *Server) companyInvitationDelete(c *gin.Context) {
	id, err := httpx.PathID(c, "invitation_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.Company.RevokeInvitation(c, access(c), id); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

type invitationTokenRequest struct {
	Token string `json:"token"`
}

type invitationPreviewView struct {
	CompanyName   string    `json:"company_name"`
	InvitedByName string    `json:"invited_by_name"`
	Email         string    `json:"email"`
	Role          string    `json:"role"`
	ExpiresAt     time.Time `json:"expires_at"`
}

// invitationLookup serves POST /api/v1/invitations/lookup (extension, public): the link's
// holder learns who invites them to which company before signing in.
func (s *Server) invitationLookup(c *gin.Context) {
	var req invitationTokenRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p, err := s.Company.PreviewInvitation(c, req.Token)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, invitationPreviewView{
		CompanyName: p.CompanyName, InvitedByName: p.InvitedByName, Email: p.Email, Role: string(p.Role), ExpiresAt: p.ExpiresAt,
	})
}

// invitationAccept serves POST /api/v1/invitations/accept (extension): the caller joins
// the company, which becomes their active one, and gets it in the answer.
func (s *Server) invitationAccept(c *gin.Context) {
	var req invitationTokenRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	a, err := s.Company.AcceptInvitation(c, actor(c).UserID, req.Token)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewCompany(*a))
}
