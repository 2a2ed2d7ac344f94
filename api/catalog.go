package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/schemas"
)

// actionTypeView is the wire form of an action type: the specification's
// ActionTypeCatalogItem plus dependency_type_key, dependency_field, importable, trigger
// and idempotent.
type actionTypeView struct {
	ActionKey          string         `json:"action_key"`
	DisplayName        string         `json:"display_name"`
	Category           string         `json:"category"`
	RequiresDependency bool           `json:"requires_dependency"`
	ProviderKey        string         `json:"provider_key"`
	DependencyTypeKey  string         `json:"dependency_type_key"`
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

// viewActionType is the action type in the reader's language (ActionType.In).
func viewActionType(lang string, t *schemas.ActionType) actionTypeView {
	t = t.In(lang)
	return actionTypeView{
		ActionKey: t.Key, DisplayName: t.DisplayName, Category: t.Category,
		RequiresDependency: t.RequiresDependency, ProviderKey: t.ProviderKey,
		DependencyTypeKey: t.DependencyTypeKey, DependencyField: t.DependencyField,
		Importable: t.Importable, Trigger: t.Trigger, Idempotent: t.Idempotent,
		ConfigSchemaJSON: t.ConfigSchema, ResultSchemaJSON: t.ResultSchema,
	}
}

// viewDependencyType is the dependency type in the reader's language.
func viewDependencyType(lang string, d *schemas.DependencyType) dependencyTypeView {
	d = d.In(lang)
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

// catalogList writes every entry list returns from the loaded catalog, as view renders it
// in the reader's language.
func catalogList[T, V any](s *Server, c *gin.Context, list func(*schemas.Catalog) []T, view func(string, T) V) {
	cat, ok := s.catalog(c)
	if !ok {
		return
	}
	out := []V{}
	lang := httpx.Lang(c)
	for _, t := range list(cat) {
		out = append(out, view(lang, t))
	}
	c.JSON(http.StatusOK, out)
}

// catalogGet writes the entry of the loaded catalog that find returns for the key in the
// path parameter param, as view renders it in the reader's language; a key find does not
// know is notFound.
func catalogGet[T, V any](s *Server, c *gin.Context, param string, notFound error,
	find func(cat *schemas.Catalog, key string) (T, bool), view func(string, T) V) {
	cat, ok := s.catalog(c)
	if !ok {
		return
	}
	t, ok := find(cat, c.Param(param))
	if !ok {
		httpx.WriteError(c, notFound)
		return
	}
	c.JSON(http.StatusOK, view(httpx.Lang(c), t))
}

// actionTypeList serves GET /api/v1/action-types: every action type, importable and planned.
func (s *Server) actionTypeList(c *gin.Context) {
	catalogList(s, c, (*schemas.Catalog).Actions, viewActionType)
}

// actionTypeGet serves GET /api/v1/action-types/{action_type_key}; 404 for an unknown key.
func (s *Server) actionTypeGet(c *gin.Context) {
	catalogGet(s, c, "action_type_key", models.NotFound("action_type_not_found"), (*schemas.Catalog).Action, viewActionType)
}

// actionDependencyTypeList serves GET /api/v1/action-dependency-types.
func (s *Server) actionDependencyTypeList(c *gin.Context) {
	catalogList(s, c, (*schemas.Catalog).Dependencies, viewDependencyType)
}

// actionDependencyTypeGet serves GET /api/v1/action-dependency-types/{dependency_type_key};
// 404 for an unknown key.
func (s *Server) actionDependencyTypeGet(c *gin.Context) {
	catalogGet(s, c, "dependency_type_key", models.NotFound("dependency_type_not_found"), (*schemas.Catalog).Dependency, viewDependencyType)
}
