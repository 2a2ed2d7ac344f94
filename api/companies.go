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

type companyView struct {
	CompanyID uuid.UUID `json:"company_id"`
	Slug      string    `json:"slug"`
	Name      string    `json:"name"`
	Role      string    `json:"role"`
}

func viewCompany(a company.Access) companyView {
	return companyView{CompanyID: a.Company.ID, Slug: a.Company.Slug, Name: a.Company.Name, Role: string(a.Role)}
}

// companyList serves GET /api/v1/companies: the caller's companies.
func (s *Server) companyList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]company.Access, string, error) {
		return s.Company.List(c, actor(c).UserID, page)
	},
		each(viewCompany))
}

type companyCreateRequest struct {
	Name string `json:"name"`
}

// companyCreate serves POST /api/v1/companies.
func (s *Server) companyCreate(c *gin.Context) {
	var req companyCreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	a, err := s.Company.Create(c, actor(c).UserID, req.Name)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewCompany(*a))
}

// companyGet serves GET /api/v1/companies/{company_id}.
func (s *Server) companyGet(c *gin.Context) {
	c.JSON(http.StatusOK, viewCompany(*access(c)))
}

type companyPatchRequest struct {
	Name *string `json:"name"`
	Slug *string `json:"slug"`
}

// companyPatch serves PATCH /api/v1/companies/{company_id}.
func (s *Server) companyPatch(c *gin.Context) {
	var req companyPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	a, err := s.Company.Patch(c, access(c), company.CompanyPatch{Name: req.Name, Slug: req.Slug})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewCompany(*a))
}

// companySwitch serves POST /api/v1/companies/{company_id}/switch: it makes the company
// the caller's active one and answers the new workspace context.
func (s *Server) companySwitch(c *gin.Context) {
	wc, err := s.Company.Switch(c, actor(c).UserID, access(c).Company.ID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	renderWorkspace(c, wc)
}

type memberView struct {
	UserID    uuid.UUID `json:"user_id"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"created_at"`
}

func viewMember(m company.MemberView) memberView {
	return memberView{UserID: m.UserID, Email: m.Email, Name: m.Name, Role: string(m.Role), CreatedAt: m.CreatedAt}
}

// companyMemberList serves GET /api/v1/companies/{company_id}/members (extension).
func (s *Server) companyMemberList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]company.MemberView, string, error) {
		return s.Company.Members(c, access(c).Company.ID, page)
	}, each(viewMember))
}

type memberCreateRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// companyMemberCreate serves POST /api/v1/companies/{company_id}/members (extension).
func (s *Server) companyMemberCreate(c *gin.Context) {
	var req memberCreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	m, err := s.Company.AddMember(c, access(c), req.Email, company.Role(req.Role))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewMember(*m))
}

type memberPatchRequest struct {
	Role string `json:"role"`
}

// companyMemberPatch serves PATCH /api/v1/companies/{company_id}/members/{user_id} (extension).
func (s *Server) companyMemberPatch(c *gin.Context) {
	userID, err := httpx.PathID(c, "user_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	var req memberPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	m, err := s.Company.SetMemberRole(c, access(c), userID, company.Role(req.Role))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewMember(*m))
}

// companyMemberDelete serves DELETE /api/v1/companies/{company_id}/members/{user_id} (extension).
func (s *Server) companyMemberDelete(c *gin.Context) {
	userID, err := httpx.PathID(c, "user_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.Company.RemoveMember(c, access(c), userID); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
