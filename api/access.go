package api

import (
	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/company"
)

const (
	actorKey       = "api.actor"
	accessKey      = "api.access"
	projectKey     = "api.project"
	legalEntityKey = "api.legal_entity"
)

func actor(c *gin.Context) *auth.Actor        { return c.MustGet(actorKey).(*auth.Actor) }
func access(c *gin.Context) *company.Access   { return c.MustGet(accessKey).(*company.Access) }
func project(c *gin.Context) *company.Project { return c.MustGet(projectKey).(*company.Project) }
func legalEntity(c *gin.Context) *company.LegalEntity {
	return c.MustGet(legalEntityKey).(*company.LegalEntity)
}

// allow checks the caller's role; a company the caller is not in never reaches it (that is
// a 404 from the loader), so 403 only ever tells a member their role is too low.
func allow(c *gin.Context, a *company.Access, perm company.Permission) bool {
	if !a.Role.Can(perm) {
		httpx.WriteError(c, models.Forbidden("role_too_low"))
		return false
	}
	c.Set(accessKey, a)
	return true
}

// inCompany loads the company of :company_id with the caller's role and requires perm.
func (s *Server) inCompany(perm company.Permission) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := httpx.PathID(c, "company_id")
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		a, err := s.Company.Access(c, actor(c).UserID, id)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		allow(c, a, perm)
	}
}

// inProject loads the project of :project_id, its company and the caller's role there.
func (s *Server) inProject(perm company.Permission) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := httpx.PathID(c, "project_id")
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		p, a, err := s.Company.ProjectAccess(c, actor(c).UserID, id)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		if allow(c, a, perm) {
			c.Set(projectKey, p)
		}
	}
}

// inLegalEntity loads the legal entity of :company_legal_entity_id and the caller's role.
func (s *Server) inLegalEntity(perm company.Permission) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := httpx.PathID(c, "company_legal_entity_id")
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		e, a, err := s.Company.LegalEntityAccess(c, actor(c).UserID, id)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		if allow(c, a, perm) {
			c.Set(legalEntityKey, e)
		}
	}
}
