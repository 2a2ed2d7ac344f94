package api

import (
	"bytes"
	"mime"
	"net/http"
	"slices"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/integration"
	"agencyhub/schemas"
)

// patchMediaTypes are what ai-import reads: JSON (the patch, an operation, an array of
// operations, or a string holding the AI's answer) and the answer as text.
var patchMediaTypes = []string{"application/json", "text/plain", "text/markdown"}

// readPatchBody reads the ai-import body, at most APP_MAX_BODY_BYTES.
func readPatchBody(c *gin.Context) ([]byte, error) {
	raw, err := httpx.ReadBody(c)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, models.Invalid("patch_not_found", "body")
	}
	if mt, _, _ := mime.ParseMediaType(c.ContentType()); !slices.Contains(patchMediaTypes, mt) {
		return nil, models.Invalid("unsupported_media_type", "body")
	}
	if !utf8.Valid(raw) {
		return nil, models.Invalid("invalid_utf8", "body")
	}
	return raw, nil
}

type aiImportView struct {
	Diagnostics       []automation.Diagnostic       `json:"diagnostics"`
	Draft             draftView                     `json:"draft"`
	AppliedOperations []automation.AppliedOperation `json:"applied_operations"`
	ChangeDescription string                        `json:"change_description"`
}

// workflowAIImport serves POST /api/v1/workflows/{workflow_id}/ai-import: a
// service-workflow-patch-v1 patch (in any form ParsePatch accepts) applied to the draft in
// one transaction and saved, never published; with dry_run=true applied and answered
// without saving. Errors: 400 naming the patch's fields, 413, 415.
func (s *Server) workflowAIImport(c *gin.Context) {
	raw, err := readPatchBody(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	w := workflow(c)
	patch, err := automation.ParsePatch(raw, w.ID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	deps, err := s.projectIntegrations(c, w.CompanyID, w.ProjectID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	// A dry run answers what the import would make of the draft as it is now, and stores
	// nothing: the console shows it as a diff before the person saves it.
	var saved *automation.Workflow
	var result automation.PatchResult
	if c.Query("dry_run") == "true" {
		saved = w
		result, err = automation.ApplyPatch(w.Draft(), patch, s.Workflows.Catalog, patchIntegrations(deps))
	} else {
		saved, result, err = s.Workflows.ImportPatch(c, w, patch, patchIntegrations(deps))
	}
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	d := result.Draft
	c.JSON(http.StatusOK, aiImportView{
		Diagnostics:       nonNil(automation.Localize(httpx.Lang(c), result.Diagnostics)),
		Draft:             viewDraft(saved, d),
		AppliedOperations: nonNil(result.Applied),
		ChangeDescription: d.ChangeDescription,
	})
}

// patchIntegrations is what the importer needs of the project's integrations.
func patchIntegrations(deps []integration.ActionDependency) []automation.ProjectIntegration {
	out := make([]automation.ProjectIntegration, 0, len(deps))
	for _, d := range deps {
		out = append(out, automation.ProjectIntegration{
			ID: d.ID.String(), TypeKey: d.DependencyTypeKey, Name: d.Name, Active: d.Status == integration.StatusActive,
		})
	}
	return out
}

type aiContextWorkflow struct {
	WorkflowID       uuid.UUID  `json:"workflow_id"`
	ProjectID        uuid.UUID  `json:"project_id"`
	Name             string     `json:"name"`
	Description      string     `json:"description"`
	Status           string     `json:"status"`
	CurrentVersionID *uuid.UUID `json:"current_version_id"`
}

type aiContextActionType struct {
	ActionTypeKey      string         `json:"action_type_key"`
	DisplayName        string         `json:"display_name"`
	Category           string         `json:"category"`
	Trigger            bool           `json:"trigger"`
	RequiresDependency bool           `json:"requires_dependency"`
	ProviderKey        string         `json:"provider_key"`
	DependencyTypeKey  string         `json:"dependency_type_key"`
	DependencyField    string         `json:"dependency_field"`
	ConfigSchemaJSON   map[string]any `json:"config_schema_json,omitempty"`
}

type aiContextCatalog struct {
	SupportedNow []aiContextActionType `json:"supported_now"`
	Planned      []aiContextActionType `json:"planned"`
}

type aiContextPatchFormat struct {
	Format        string                         `json:"format"`
	SchemaVersion int                            `json:"schema_version"`
	Operations    []automation.PatchOperationDoc `json:"operations"`
	Rules         []string                       `json:"rules"`
	SchemaJSON    map[string]any                 `json:"schema_json"`
	DocsURL       string                         `json:"docs_url"`
	ImportURL     string                         `json:"import_url"`
}

type aiContextView struct {
	Format                string                         `json:"format"`
	SchemaVersion         int                            `json:"schema_version"`
	Workflow              aiContextWorkflow              `json:"workflow"`
	Draft                 draftView                      `json:"draft"`
	Diagnostics           []automation.Diagnostic        `json:"diagnostics"`
	ActionCatalog         aiContextCatalog               `json:"action_catalog"`
	AvailableIntegrations []availableIntegrationView     `json:"available_integrations"`
	TemplateVariables     []automation.TemplateNamespace `json:"template_variables"`
	PatchFormat           aiContextPatchFormat           `json:"patch_format"`
}

// workflowAIContext serves GET /api/v1/workflows/{workflow_id}/ai-context (extension): the
// service-workflow-context-v1 document an AI editor writes a patch from. It names the
// project's integrations by id, type and name, never their credentials or settings.
func (s *Server) workflowAIContext(c *gin.Context) {
	catalog, ok := s.catalog(c)
	if !ok {
		return
	}
	patchSchema, err := schemas.LoadWorkflowPatchSchema()
	if err != nil {
		httpx.WriteError(c, models.Internal("patch schema: %w", err))
		return
	}
	w := workflow(c)
	deps, err := s.projectIntegrations(c, w.CompanyID, w.ProjectID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	view, err := s.viewWorkflow(c, w)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	out := aiContextView{
		Format: schemas.WorkflowContextFormat, SchemaVersion: schemas.WorkflowPatchVersion,
		Workflow: aiContextWorkflow{WorkflowID: w.ID, ProjectID: w.ProjectID, Name: w.Name, Description: w.Description,
			Status: view.Status, CurrentVersionID: w.CurrentVersionID},
		Draft: view.Draft, Diagnostics: view.Diagnostics,
		ActionCatalog:         aiContextCatalog{SupportedNow: []aiContextActionType{}, Planned: []aiContextActionType{}},
		AvailableIntegrations: []availableIntegrationView{},
		TemplateVariables:     automation.TemplateVariables(w.Draft().Graph, catalog),
		PatchFormat: aiContextPatchFormat{
			Format: schemas.WorkflowPatchFormat, SchemaVersion: schemas.WorkflowPatchVersion,
			Operations: automation.PatchOperationDocs, Rules: automation.PatchRules, SchemaJSON: patchSchema.Document,
			DocsURL:   s.PublicURL + integrationDocPath(schemas.PatchContractSlug),
			ImportURL: s.PublicURL + "/api/v1/workflows/" + w.ID.String() + "/ai-import",
		},
	}
	for _, t := range catalog.Actions() {
		v := aiContextActionType{ActionTypeKey: t.Key, DisplayName: t.DisplayName, Category: t.Category, Trigger: t.Trigger,
			RequiresDependency: t.RequiresDependency, ProviderKey: t.ProviderKey, DependencyTypeKey: t.DependencyTypeKey,
			DependencyField: t.DependencyField}
		if t.Importable {
			v.ConfigSchemaJSON = t.ConfigSchema
			out.ActionCatalog.SupportedNow = append(out.ActionCatalog.SupportedNow, v)
		} else {
			out.ActionCatalog.Planned = append(out.ActionCatalog.Planned, v)
		}
	}
	for _, d := range deps {
		out.AvailableIntegrations = append(out.AvailableIntegrations, s.viewAvailableIntegration(d))
	}
	c.JSON(http.StatusOK, out)
}

// aiTool is one tool an AI editor can call, in function-calling style: a name, what it
// does, the JSON Schema of its input, and the HTTP call it stands for (path parameters
// come from the input fields of the same name, query names the fields sent as query
// parameters, body the field sent as the JSON body).
type aiTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"input_schema"`
	HTTP        aiToolHTTP     `json:"http"`
}

type aiToolHTTP struct {
	Method string   `json:"method"`
	Path   string   `json:"path"`
	Query  []string `json:"query"`
	Body   string   `json:"body"`
	// Auth is bearer (the caller's access token or X-API-Key) or none.
	Auth string `json:"auth"`
}

type aiToolsView struct {
	Version string   `json:"version"`
	BaseURL string   `json:"base_url"`
	Tools   []aiTool `json:"tools"`
}

func objectSchema(required []string, props map[string]any) map[string]any {
	return map[string]any{"type": "object", "additionalProperties": false, "required": required, "properties": props}
}

// docsAITools serves GET /api/v1/docs/ai-tools.json: the tools an AI editor calls to read a
// workflow's context, import a patch, and search and read the integration documents.
func (s *Server) docsAITools(c *gin.Context) {
	patchSchema, err := schemas.LoadWorkflowPatchSchema()
	if err != nil {
		httpx.WriteError(c, models.Internal("patch schema: %w", err))
		return
	}
	docs, ok := integrationDocs(c)
	if !ok {
		return
	}
	var slugs []any
	for _, d := range docs.All() {
		slugs = append(slugs, d.Slug)
	}
	uuidField := func(what string) map[string]any {
		return map[string]any{"type": "string", "format": "uuid", "description": what}
	}
	query := map[string]any{
		"type":        "string",
		"maxLength":   docsMaxQuery,
		"description": "What the workflow should do, in plain words, e.g. \"send a message to the manager when an order arrives\".",
	}
	limit := map[string]any{
		"type":        "integer",
		"minimum":     1,
		"maximum":     docsMaxLimit,
		"default":     docsDefaultLimit,
		"description": "How many documents to answer.",
	}
	importInput := objectSchema([]string{"workflow_id", "patch"}, map[string]any{
		"workflow_id": uuidField("The workflow to change; the patch's base_workflow_id must equal it."),
		"patch":       patchSchema.DocumentSchema(),
	})
	importInput["$defs"] = patchSchema.Definitions()
	c.JSON(http.StatusOK, aiToolsView{Version: s.Contract.Version, BaseURL: s.PublicURL, Tools: []aiTool{
		{
			Name: "get_workflow_ai_context",
			Description: "Read a workflow's " + schemas.WorkflowContextFormat + " context: its draft and " +
				"diagnostics, the action types supported now with their config schemas, " +
				"the project's integrations (id, type, name), the template variables and the patch format. " +
				"Call it before writing a patch.",
			InputSchema: objectSchema([]string{"workflow_id"}, map[string]any{"workflow_id": uuidField("The workflow to read.")}),
			HTTP:        aiToolHTTP{Method: http.MethodGet, Path: "/api/v1/workflows/{workflow_id}/ai-context", Query: []string{}, Auth: "bearer"},
		},
		{
			Name: "import_workflow_patch",
			Description: "Apply a " + schemas.WorkflowPatchFormat + " patch to the workflow's draft, " +
				"all operations or none, and save the draft without publishing. Answers the normalized draft, " +
				"its diagnostics and what each operation did; a rejected patch answers 400 whose validate names " +
				"each failing field (operations.<n>.<field>). Never invent integration ids: " +
				"leave them empty and say what is missing in change_description.",
			InputSchema: importInput,
			HTTP: aiToolHTTP{
				Method: http.MethodPost,
				Path:   "/api/v1/workflows/{workflow_id}/ai-import",
				Query:  []string{},
				Body:   "patch",
				Auth:   "bearer",
			},
		},
		{
			Name:        "search_integration_docs",
			Description: "Find the integration and action documents relevant to an intent, best first, with their markdown URLs.",
			InputSchema: objectSchema([]string{"q"}, map[string]any{"q": query, "limit": limit}),
			HTTP:        aiToolHTTP{Method: http.MethodGet, Path: "/api/v1/docs/integrations/search", Query: []string{"q", "limit"}, Auth: "none"},
		},
		{
			Name: "search_project_integration_docs",
			Description: "Like search_integration_docs, and also answer the project's integrations (id, type, " +
				"name, status) that fit the intent: the ids an action's dependency field may use.",
			InputSchema: objectSchema([]string{"project_id", "q"}, map[string]any{
				"project_id": uuidField("The workflow's project."),
				"q":          query,
				"limit":      limit,
			}),
			HTTP: aiToolHTTP{
				Method: http.MethodGet,
				Path:   "/api/v1/projects/{project_id}/integration-docs/search",
				Query:  []string{"q", "limit"},
				Auth:   "bearer",
			},
		},
		{
			Name:        "get_integration_doc",
			Description: "Read one integration document as markdown; " + schemas.PatchContractSlug + " is the patch contract itself.",
			InputSchema: objectSchema([]string{"public_slug"}, map[string]any{"public_slug": map[string]any{"type": "string", "enum": slugs}}),
			HTTP:        aiToolHTTP{Method: http.MethodGet, Path: "/api/v1/docs/integrations/{public_slug}.md", Query: []string{}, Auth: "none"},
		},
	}})
}
