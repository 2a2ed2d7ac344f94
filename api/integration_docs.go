package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/integration"
	"agencyhub/schemas"
)

// Bounds of the docs search query.
const (
	docsDefaultLimit = 5
	docsMaxLimit     = 20
	docsMaxQuery     = 500
)

// integrationDocPath is where a document is served.
func integrationDocPath(slug string) string { return "/api/v1/docs/integrations/" + slug + ".md" }

// integrationDocs is the loaded documents, or writes 500 when they do not load (they are
// embedded and checked by the tests, so this is a build defect).
func integrationDocs(c *gin.Context) (*schemas.IntegrationDocs, bool) {
	docs, err := schemas.LoadIntegrationDocs()
	if err != nil {
		httpx.WriteError(c, models.Internal("integration docs: %w", err))
		return nil, false
	}
	return docs, true
}

type integrationDocView struct {
	PublicSlug         string   `json:"public_slug"`
	Title              string   `json:"title"`
	Summary            string   `json:"summary"`
	Keywords           []string `json:"keywords"`
	ActionTypeKeys     []string `json:"action_type_keys"`
	DependencyTypeKeys []string `json:"dependency_type_keys"`
	URL                string   `json:"url"`
	Score              int      `json:"score"`
	Snippet            string   `json:"snippet"`
}

type integrationDocSearchView struct {
	Query string               `json:"query"`
	Items []integrationDocView `json:"items"`
}

type projectIntegrationDocSearchView struct {
	Query                 string                     `json:"query"`
	Items                 []integrationDocView       `json:"items"`
	AvailableIntegrations []availableIntegrationView `json:"available_integrations"`
}

// availableIntegrationView names a project integration an action may use: never its
// credential or settings.
type availableIntegrationView struct {
	ActionDependencyID uuid.UUID `json:"action_dependency_id"`
	DependencyTypeKey  string    `json:"dependency_type_key"`
	ProviderKey        string    `json:"provider_key"`
	Name               string    `json:"name"`
	Status             string    `json:"status"`
}

func (s *Server) viewDocMatches(matches []schemas.IntegrationDocMatch) []integrationDocView {
	out := make([]integrationDocView, 0, len(matches))
	for _, m := range matches {
		d := m.Doc
		out = append(out, integrationDocView{
			PublicSlug: d.Slug, Title: d.Title, Summary: d.Summary, Keywords: nonNil(d.Keywords),
			ActionTypeKeys: nonNil(d.ActionTypeKeys), DependencyTypeKeys: nonNil(d.DependencyTypeKeys),
			URL: s.PublicURL + integrationDocPath(d.Slug), Score: m.Score, Snippet: m.Snippet,
		})
	}
	return out
}

func (s *Server) viewAvailableIntegration(d integration.ActionDependency) availableIntegrationView {
	v := availableIntegrationView{ActionDependencyID: d.ID, DependencyTypeKey: d.DependencyTypeKey, Name: d.Name, Status: d.Status}
	if s.Catalog != nil {
		if t, ok := s.Catalog.Dependency(d.DependencyTypeKey); ok {
			v.ProviderKey = t.ProviderKey
		}
	}
	return v
}

// docsQuery reads q (at most 500 characters) and limit (1-20, default 5).
func docsQuery(c *gin.Context) (string, int, error) {
	q := strings.TrimSpace(c.Query("q"))
	if utf8.RuneCountInString(q) > docsMaxQuery {
		return "", 0, models.Invalid("invalid_docs_query", "q")
	}
	limit := docsDefaultLimit
	if raw := c.Query("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > docsMaxLimit {
			return "", 0, models.Invalid("invalid_docs_limit", "limit")
		}
		limit = n
	}
	return q, limit, nil
}

// docsIntegrationSearch serves GET /api/v1/docs/integrations/search: the documents ranked
// for the intent in q. With project_id it answers as projectIntegrationDocsSearch does,
// adding the project's integrations that fit, for a signed-in caller who may read the
// project (401 without credentials, 404 for a project of another company, as on every
// project route): the documents are public, the integrations are not.
func (s *Server) docsIntegrationSearch(c *gin.Context) {
	if raw, scoped := c.GetQuery("project_id"); scoped {
		s.docsIntegrationSearchInProject(c, raw)
		return
	}
	q, limit, err := docsQuery(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	docs, ok := integrationDocs(c)
	if !ok {
		return
	}
	c.JSON(http.StatusOK, integrationDocSearchView{Query: q, Items: s.viewDocMatches(docs.Search(q, limit))})
}

// docsIntegrationMarkdown serves GET /api/v1/docs/integrations/{public_slug}.md. Errors:
// 404 for a slug no document has (or a path without .md).
func (s *Server) docsIntegrationMarkdown(c *gin.Context) {
	docs, ok := integrationDocs(c)
	if !ok {
		return
	}
	slug, hasSuffix := strings.CutSuffix(c.Param("public_slug.md"), ".md")
	doc, found := docs.Get(slug)
	if !hasSuffix || !found {
		httpx.WriteError(c, models.NotFound("integration_doc_not_found"))
		return
	}
	c.Data(http.StatusOK, "text/markdown; charset=utf-8", doc.Markdown)
}

func (s *Server) docsIntegrationSearchInProject(c *gin.Context, rawID string) {
	id, err := models.ParseID("project_id", rawID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if s.authenticate(c); c.IsAborted() {
		return
	}
	p, a, err := s.Company.ProjectAccess(c, actor(c).UserID, id)
	if err == nil && !a.Role.Can(company.PermRead) {
		err = models.Forbidden("role_too_low")
	}
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Set(projectKey, p)
	s.projectIntegrationDocsSearch(c)
}

// projectIntegrationDocsSearch serves GET /api/v1/projects/{project_id}/integration-docs/search:
// the public search plus the project's integrations that fit the query: those of a type a
// found document covers, or whose name or type the query names (all of them for an empty
// query).
func (s *Server) projectIntegrationDocsSearch(c *gin.Context) {
	q, limit, err := docsQuery(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	docs, ok := integrationDocs(c)
	if !ok {
		return
	}
	p := project(c)
	all, err := s.projectIntegrations(c, p.CompanyID, p.ID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	matches := docs.Search(q, limit)
	relevant := []availableIntegrationView{}
	for _, d := range all {
		v := s.viewAvailableIntegration(d)
		covered := slices.ContainsFunc(matches, func(m schemas.IntegrationDocMatch) bool {
			return slices.Contains(m.Doc.DependencyTypeKeys, d.DependencyTypeKey)
		})
		if q == "" || covered || schemas.Mentions(q, d.Name+" "+d.DependencyTypeKey+" "+v.ProviderKey) {
			relevant = append(relevant, v)
		}
	}
	c.JSON(http.StatusOK, projectIntegrationDocSearchView{Query: q, Items: s.viewDocMatches(matches), AvailableIntegrations: relevant})
}

// projectIntegrations lists every integration of a project, page by page.
func (s *Server) projectIntegrations(ctx context.Context, companyID, projectID uuid.UUID) ([]integration.ActionDependency, error) {
	var all []integration.ActionDependency
	page := models.PageRequest{Limit: models.MaxPageLimit}
	for {
		rows, next, err := s.Integrations.ActionDependencies(ctx, companyID, projectID, page)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
		if next == "" {
			return all, nil
		}
		page.Cursor = next
	}
}

type providerDependencyView struct {
	DependencyTypeKey string `json:"dependency_type_key"`
	DisplayName       string `json:"display_name"`
}

type providerView struct {
	ProviderKey     string                   `json:"provider_key"`
	DisplayName     string                   `json:"display_name"`
	SupportedNow    bool                     `json:"supported_now"`
	DependencyTypes []providerDependencyView `json:"dependency_types"`
	ActionTypeKeys  []string                 `json:"action_type_keys"`
	DocsSlug        string                   `json:"docs_slug"`
	DocsURL         string                   `json:"docs_url"`
}

// providerCatalog serves GET /api/v1/providers/catalog: the integration providers of the
// dependency type catalog with their types, the action types that use them and their
// documents.
func (s *Server) providerCatalog(c *gin.Context) {
	catalog, ok := s.catalog(c)
	if !ok {
		return
	}
	docs, ok := integrationDocs(c)
	if !ok {
		return
	}
	out := []providerView{}
	for _, p := range schemas.Providers(catalog, docs) {
		v := providerView{ProviderKey: p.Key, DisplayName: p.DisplayName, SupportedNow: p.SupportedNow,
			DependencyTypes: []providerDependencyView{}, ActionTypeKeys: nonNil(p.ActionTypeKeys), DocsSlug: p.DocsSlug}
		for _, d := range p.DependencyTypes {
			v.DependencyTypes = append(v.DependencyTypes, providerDependencyView{DependencyTypeKey: d.Key, DisplayName: d.DisplayName})
		}
		if p.DocsSlug != "" {
			v.DocsURL = s.PublicURL + integrationDocPath(p.DocsSlug)
		}
		out = append(out, v)
	}
	c.JSON(http.StatusOK, out)
}
