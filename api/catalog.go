package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/schemas"
)

// actionTypeView is the wire form of an action type: the specification's
// ActionTypeCatalogItem plus importable, trigger, dependency_field and idempotent.
type actionTypeView struct {
	ActionKey          string         `json:"action_key"`
	DisplayName        string         `json:"display_name"`
	Category           string         `json:"category"`
	RequiresDependency bool           `json:"requires_dependency"`
	ProviderKey        string         `json:"provider_key"`
	DependencyField    string         `json:"dependency_field"`
	Importable         bool           `json:"importable"`
	Trigger            bool           `json:"trigger"`
	Idempotent         bool           `json:"idempotent"`
	ConfigSchemaJSON   map[string]any `json:"config_schema_json"`
	ResultSchemaJSON   map[string]any `json:"result_schema_json"`
}

// dependencyTypeView is the wire form of a dependency type (DependencyTypeCatalogItem).
type dependencyTypeView struct {
	DependencyTypeKey  string         `json:"dependency_type_key"`
	DisplayName        string         `json:"display_name"`
	ProviderKey        string         `json:"provider_key"`
	AuthSchemaJSON     map[string]any `json:"auth_schema_json"`
	MetadataSchemaJSON map[string]any `json:"metadata_schema_json"`
}

func viewActionType(t *schemas.ActionType) actionTypeView {
	return actionTypeView{
		ActionKey: t.Key, DisplayName: t.DisplayName, Category: t.Category,
		RequiresDependency: t.RequiresDependency, ProviderKey: t.ProviderKey, DependencyField: t.DependencyField,
		Importable: t.Importable, Trigger: t.Trigger, Idempotent: t.Idempotent,
		ConfigSchemaJSON: t.ConfigSchema, ResultSchemaJSON: t.ResultSchema,
	}
}

func viewDependencyType(d *schemas.DependencyType) dependencyTypeView {
	return dependencyTypeView{
		DependencyTypeKey: d.Key, DisplayName: d.DisplayName, ProviderKey: d.ProviderKey,
		AuthSchemaJSON: d.AuthSchema, MetadataSchemaJSON: d.MetadataSchema,
	}
}

// catalog is the loaded catalog, or writes 500 (the specification's "catalog could not be
// loaded") when the server was built without one.
func (s *Server) catalog(c *gin.Context) (*schemas.Catalog, bool) {
	if s.Catalog == nil {
		httpx.WriteError(c, models.Internal("the action catalog is not loaded"))
		return nil, false
	}
	return s.Catalog, true
}

// actionTypeList serves GET /api/v1/action-types: every action type, importable and planned.
func (s *Server) actionTypeList(c *gin.Context) {
	cat, ok := s.catalog(c)
	if !ok {
		return
	}
	out := []actionTypeView{}
	for _, t := range cat.Actions() {
		out = append(out, viewActionType(t))
	}
	c.JSON(http.StatusOK, out)
}

// actionTypeGet serves GET /api/v1/action-types/{action_type_key}; 404 for an unknown key.
func (s *Server) actionTypeGet(c *gin.Context) {
	cat, ok := s.catalog(c)
	if !ok {
		return
	}
	t, ok := cat.Action(c.Param("action_type_key"))
	if !ok {
		httpx.WriteError(c, models.NotFound("action_type_not_found"))
		return
	}
	c.JSON(http.StatusOK, viewActionType(t))
}

// actionDependencyTypeList serves GET /api/v1/action-dependency-types.
func (s *Server) actionDependencyTypeList(c *gin.Context) {
	cat, ok := s.catalog(c)
	if !ok {
		return
	}
	out := []dependencyTypeView{}
	for _, d := range cat.Dependencies() {
		out = append(out, viewDependencyType(d))
	}
	c.JSON(http.StatusOK, out)
}

// actionDependencyTypeGet serves GET /api/v1/action-dependency-types/{dependency_type_key};
// 404 for an unknown key.
func (s *Server) actionDependencyTypeGet(c *gin.Context) {
	cat, ok := s.catalog(c)
	if !ok {
		return
	}
	d, ok := cat.Dependency(c.Param("dependency_type_key"))
	if !ok {
		httpx.WriteError(c, models.NotFound("dependency_type_not_found"))
		return
	}
	c.JSON(http.StatusOK, viewDependencyType(d))
}
