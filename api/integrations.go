package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/integration"
)

const actionDependencyKey = "api.action_dependency"

func actionDependency(c *gin.Context) *integration.ActionDependency {
	return c.MustGet(actionDependencyKey).(*integration.ActionDependency)
}

// inProjectResource loads the project of :project_id with the caller's standing there and
// requires perm, as inProject does, then loads the row param names within that project. A
// row of another project or of another company is a 404 like a missing one, so ids cannot
// be probed across projects.
func inProjectResource[T any](s *Server, param, key string, perm company.Permission,
	load func(ctx context.Context, companyID, projectID, id uuid.UUID) (*T, error)) gin.HandlerFunc {
	return inNested(s.inProject(perm), param, key, func(c *gin.Context, id uuid.UUID) (*T, error) {
		p := project(c)
		return load(c, p.CompanyID, p.ID, id)
	})
}

// inActionDependency loads the integration of :action_dependency_id in :project_id.
func (s *Server) inActionDependency(perm company.Permission) gin.HandlerFunc {
	return inProjectResource(s, "action_dependency_id", actionDependencyKey, perm, s.Integrations.ActionDependencyOf)
}

// dependencyTestView is the outcome of a connection test; retry_class is null unless the
// test failed.
type dependencyTestView struct {
	Status     string    `json:"status"`
	RetryClass *string   `json:"retry_class"`
	ReasonCode string    `json:"reason_code"`
	Message    string    `json:"message"`
	CheckedAt  time.Time `json:"checked_at"`
}

func viewDependencyTest(r integration.TestResult) dependencyTestView {
	v := dependencyTestView{Status: r.Status, ReasonCode: r.ReasonCode, Message: r.Message, CheckedAt: r.CheckedAt}
	if r.RetryClass != "" {
		v.RetryClass = &r.RetryClass
	}
	return v
}

// actionDependencyView is an integration on the wire: its auth only ever masked.
type actionDependencyView struct {
	ActionDependencyID uuid.UUID           `json:"action_dependency_id"`
	CompanyID          uuid.UUID           `json:"company_id"`
	ProjectID          uuid.UUID           `json:"project_id"`
	DependencyTypeKey  string              `json:"dependency_type_key"`
	ProviderKey        string              `json:"provider_key"`
	Name               string              `json:"name"`
	Status             string              `json:"status"`
	Metadata           map[string]any      `json:"metadata"`
	AuthMasked         map[string]any      `json:"auth_masked"`
	LastTest           *dependencyTestView `json:"last_test"`
	CreatedAt          time.Time           `json:"created_at"`
	UpdatedAt          time.Time           `json:"updated_at"`
}

func (s *Server) viewActionDependency(d integration.ActionDependency) actionDependencyView {
	v := actionDependencyView{
		ActionDependencyID: d.ID, CompanyID: d.CompanyID, ProjectID: d.ProjectID,
		DependencyTypeKey: d.DependencyTypeKey, Name: d.Name, Status: d.Status,
		Metadata: d.Metadata, AuthMasked: d.AuthMasked, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
	if t, ok := s.Catalog.Dependency(d.DependencyTypeKey); ok {
		v.ProviderKey = t.ProviderKey
	}
	if r := d.LastTest(); r != nil {
		t := viewDependencyTest(*r)
		v.LastTest = &t
	}
	return v
}

// actionDependencyList serves GET /api/v1/projects/{project_id}/action-dependencies.
func (s *Server) actionDependencyList(c *gin.Context) {
	p := project(c)
	servePage(c, func(page models.PageRequest) ([]integration.ActionDependency, string, error) {
		return s.Integrations.ActionDependencies(c, p.CompanyID, p.ID, page)
	}, each(s.viewActionDependency))
}

type actionDependencyCreateRequest struct {
	DependencyTypeKey string         `json:"dependency_type_key"`
	Name              string         `json:"name"`
	Metadata          map[string]any `json:"metadata"`
	Auth              map[string]any `json:"auth"`
}

// actionDependencyCreate serves POST /api/v1/projects/{project_id}/action-dependencies.
func (s *Server) actionDependencyCreate(c *gin.Context) {
	var req actionDependencyCreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	p := project(c)
	d, err := s.Integrations.CreateActionDependency(c, p.CompanyID, p.ID, integration.ActionDependencyInput{
		DependencyTypeKey: req.DependencyTypeKey, Name: req.Name, Metadata: req.Metadata, Auth: req.Auth,
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, s.viewActionDependency(*d))
}

// actionDependencyGet serves GET /api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}.
func (s *Server) actionDependencyGet(c *gin.Context) {
	c.JSON(http.StatusOK, s.viewActionDependency(*actionDependency(c)))
}

type actionDependencyPatchRequest struct {
	Name     *string        `json:"name"`
	Status   *string        `json:"status"`
	Metadata map[string]any `json:"metadata"`
}

// actionDependencyPatch serves PATCH /api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}.
func (s *Server) actionDependencyPatch(c *gin.Context) {
	var req actionDependencyPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	d, err := s.Integrations.PatchActionDependency(c, actionDependency(c), integration.ActionDependencyPatch{
		Name: req.Name, Status: req.Status, Metadata: req.Metadata,
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewActionDependency(*d))
}

// actionDependencyDelete serves DELETE /api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}.
func (s *Server) actionDependencyDelete(c *gin.Context) {
	if err := s.Integrations.DeleteActionDependency(c, actionDependency(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

type rotateSecretRequest struct {
	Auth map[string]any `json:"auth"`
}

// actionDependencyRotateSecret serves POST
// /api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}/rotate-secret.
func (s *Server) actionDependencyRotateSecret(c *gin.Context) {
	var req rotateSecretRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	d, err := s.Integrations.RotateSecret(c, actionDependency(c), req.Auth)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewActionDependency(*d))
}

// actionDependencyTest serves POST
// /api/v1/projects/{project_id}/action-dependencies/{action_dependency_id}/test. A provider
// that refuses the credential is a 200 with status failed: the test itself worked.
func (s *Server) actionDependencyTest(c *gin.Context) {
	_, result, err := s.ProviderCheck.Test(c, actionDependency(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewDependencyTest(result))
}
