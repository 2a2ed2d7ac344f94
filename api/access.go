package api

import (
	"context"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/automation"
	"agencyhub/models/company"
)

const (
	actorKey       = "api.actor"
	accessKey      = "api.access"
	projectKey     = "api.project"
	legalEntityKey = "api.legal_entity"
	workflowKey    = "api.workflow"
	versionKey     = "api.workflow_version"
	runKey         = "api.run"
)

func actor(c *gin.Context) *auth.Actor        { return c.MustGet(actorKey).(*auth.Actor) }
func access(c *gin.Context) *company.Access   { return c.MustGet(accessKey).(*company.Access) }
func project(c *gin.Context) *company.Project { return c.MustGet(projectKey).(*company.Project) }
func legalEntity(c *gin.Context) *company.LegalEntity {
	return c.MustGet(legalEntityKey).(*company.LegalEntity)
}

func workflow(c *gin.Context) *automation.Workflow {
	return c.MustGet(workflowKey).(*automation.Workflow)
}
func version(c *gin.Context) *automation.Version { return c.MustGet(versionKey).(*automation.Version) }
func run(c *gin.Context) *automation.Run         { return c.MustGet(runKey).(*automation.Run) }

// inResource loads the resource a path parameter names together with the caller's
// standing in its company, requires perm, and stores both for the handler. A resource of a
// company the caller is not in is a 404 from load, so 403 only ever tells a member that
// their role is too low.
func inResource[T any](param, key string, perm company.Permission,
	load func(ctx context.Context, userID, id uuid.UUID) (*T, *company.Access, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := httpx.PathID(c, param)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		resource, a, err := load(c, actor(c).UserID, id)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		if !a.Role.Can(perm) {
			httpx.WriteError(c, models.Forbidden("role_too_low"))
			return
		}
		c.Set(accessKey, a)
		c.Set(key, resource)
	}
}

// inCompany loads the company of :company_id with the caller's role and requires perm.
func (s *Server) inCompany(perm company.Permission) gin.HandlerFunc {
	return inResource("company_id", accessKey, perm, func(ctx context.Context, userID, id uuid.UUID) (*company.Access, *company.Access, error) {
		a, err := s.Company.Access(ctx, userID, id)
		return a, a, err
	})
}

// inProject loads the project of :project_id, its company and the caller's role there.
func (s *Server) inProject(perm company.Permission) gin.HandlerFunc {
	return inResource("project_id", projectKey, perm, s.Company.ProjectAccess)
}

// inLegalEntity loads the legal entity of :company_legal_entity_id and the caller's role.
func (s *Server) inLegalEntity(perm company.Permission) gin.HandlerFunc {
	return inResource("company_legal_entity_id", legalEntityKey, perm, s.Company.LegalEntityAccess)
}

// inWorkflow loads the workflow of :workflow_id and the caller's role in its company.
func (s *Server) inWorkflow(perm company.Permission) gin.HandlerFunc {
	return inResource("workflow_id", workflowKey, perm, s.Workflows.WorkflowAccess)
}

// inVersion loads the workflow version of :workflow_version_id.
func (s *Server) inVersion(perm company.Permission) gin.HandlerFunc {
	return inResource("workflow_version_id", versionKey, perm, s.Workflows.VersionAccess)
}

// inRun loads the run of :workflow_run_id.
func (s *Server) inRun(perm company.Permission) gin.HandlerFunc {
	return inResource("workflow_run_id", runKey, perm, s.Workflows.RunAccess)
}
