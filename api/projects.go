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

type projectView struct {
	ProjectID        uuid.UUID `json:"project_id"`
	CompanyID        uuid.UUID `json:"company_id"`
	Name             string    `json:"name"`
	HookKey          string    `json:"hook_key"`
	HookSecretMasked string    `json:"hook_secret_masked"`
	// BillingHorizonDays is an extension: how far ahead the billing cycle bills.
	BillingHorizonDays int       `json:"billing_horizon_days"`
	CreatedAt          time.Time `json:"created_at"`
	UpdatedAt          time.Time `json:"updated_at"`
}

// projectWithSecret is a project as answered by create and rotate: the only two times its
// webhook secret is shown.
type projectWithSecret struct {
	projectView
	HookSecret string `json:"hook_secret"`
}

func (s *Server) viewProject(p company.Project) (projectView, error) {
	secret, err := s.Company.HookSecret(&p)
	if err != nil {
		return projectView{}, err
	}
	return projectView{
		ProjectID: p.ID, CompanyID: p.CompanyID, Name: p.Name, HookKey: p.HookKey,
		HookSecretMasked: models.Mask(secret), BillingHorizonDays: p.BillingHorizonDays, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
	}, nil
}

func (s *Server) renderProject(c *gin.Context, status int, p *company.Project, secret string) {
	v, err := s.viewProject(*p)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if secret == "" {
		c.JSON(status, v)
		return
	}
	c.JSON(status, projectWithSecret{projectView: v, HookSecret: secret})
}

// projectList serves GET /api/v1/companies/{company_id}/projects.
func (s *Server) projectList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]company.Project, string, error) {
		return s.Company.Projects(c, access(c).Company.ID, page)
	}, func(rows []company.Project) ([]projectView, error) {
		items := make([]projectView, len(rows))
		for i, p := range rows {
			var err error
			if items[i], err = s.viewProject(p); err != nil {
				return nil, err
			}
		}
		return items, nil
	})
}

// projectRequest is a project create or patch; only a patch takes billing_horizon_days.
type projectRequest struct {
	Name               *string `json:"name"`
	BillingHorizonDays *int    `json:"billing_horizon_days"`
}

// projectCreate serves POST /api/v1/companies/{company_id}/projects.
func (s *Server) projectCreate(c *gin.Context) {
	var req projectRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p, secret, err := s.Company.CreateProject(c, access(c).Company.ID, *req.Name)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderProject(c, http.StatusCreated, p, secret)
}

// projectGet serves GET /api/v1/projects/{project_id}.
func (s *Server) projectGet(c *gin.Context) {
	s.renderProject(c, http.StatusOK, project(c), "")
}

// projectPatch serves PATCH /api/v1/projects/{project_id}.
func (s *Server) projectPatch(c *gin.Context) {
	var req projectRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p, err := s.Company.PatchProject(c, project(c), company.ProjectPatch{Name: req.Name, BillingHorizonDays: req.BillingHorizonDays})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderProject(c, http.StatusOK, p, "")
}

// projectHookSecretRotate serves POST /api/v1/projects/{project_id}/hook-secret/rotate.
func (s *Server) projectHookSecretRotate(c *gin.Context) {
	p, secret, err := s.Company.RotateHookSecret(c, project(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderProject(c, http.StatusOK, p, secret)
}
