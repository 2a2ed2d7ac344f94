package api

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/company"
)

type draftView struct {
	Actions           []automation.Action     `json:"actions"`
	Connections       []automation.Connection `json:"connections"`
	TestInputJSON     map[string]any          `json:"test_input_json"`
	ChangeDescription string                  `json:"change_description"`
	UpdatedAt         time.Time               `json:"updated_at"`
	Revision          int                     `json:"revision"`
}

// viewDraft answers a draft d of w as it was saved.
func viewDraft(w *automation.Workflow, d automation.Draft) draftView {
	return draftView{Actions: d.Graph.Actions, Connections: d.Graph.Connections, TestInputJSON: d.TestInput,
		ChangeDescription: d.ChangeDescription, UpdatedAt: w.DraftUpdatedAt, Revision: w.DraftRevision}
}

type workflowView struct {
	WorkflowID       uuid.UUID               `json:"workflow_id"`
	CompanyID        uuid.UUID               `json:"company_id"`
	ProjectID        uuid.UUID               `json:"project_id"`
	Name             string                  `json:"name"`
	Description      string                  `json:"description"`
	Status           string                  `json:"status"`
	CurrentVersionID *uuid.UUID              `json:"current_version_id"`
	ArchivedAt       *time.Time              `json:"archived_at"`
	Draft            draftView               `json:"draft"`
	Diagnostics      []automation.Diagnostic `json:"diagnostics"`
	CreatedAt        time.Time               `json:"created_at"`
	UpdatedAt        time.Time               `json:"updated_at"`
}

// Workflow states: a workflow is published once it has a current version.
const (
	workflowDraft     = "draft"
	workflowPublished = "published"
)

// viewWorkflow answers a workflow with its draft's diagnostics. Errors: a failed lookup
// of what the draft names.
func (s *Server) viewWorkflow(c *gin.Context, w *automation.Workflow) (workflowView, error) {
	d := w.Draft()
	diagnostics, err := s.Drafts.Validate(c, w, d.Graph)
	if err != nil {
		return workflowView{}, err
	}
	status := workflowDraft
	if w.CurrentVersionID != nil {
		status = workflowPublished
	}
	return workflowView{
		WorkflowID: w.ID, CompanyID: w.CompanyID, ProjectID: w.ProjectID, Name: w.Name, Description: w.Description,
		Status: status, CurrentVersionID: w.CurrentVersionID, ArchivedAt: w.ArchivedAt,
		Draft:       viewDraft(w, d),
		Diagnostics: nonNil(diagnostics),
		CreatedAt:   w.CreatedAt, UpdatedAt: w.UpdatedAt,
	}, nil
}

// serveWorkflow answers a workflow with status.
func (s *Server) serveWorkflow(c *gin.Context, status int, w *automation.Workflow) {
	view, err := s.viewWorkflow(c, w)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(status, view)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// workflowListItem is a workflow as the project's list shows it: with how it starts and
// how it last ran.
type workflowListItem struct {
	workflowView
	TriggerTypes []string         `json:"trigger_types"`
	LastRun      *workflowLastRun `json:"last_run"`
}

type workflowLastRun struct {
	WorkflowRunID uuid.UUID            `json:"workflow_run_id"`
	Status        automation.RunStatus `json:"status"`
	CreatedAt     time.Time            `json:"created_at"`
	FinishedAt    *time.Time           `json:"finished_at"`
}

// workflowList serves GET /api/v1/projects/{project_id}/workflows, those whose name
// contains q when it is given; the archived ones with archived=true, else the others.
func (s *Server) workflowList(c *gin.Context) {
	p := project(c)
	servePage(c, func(page models.PageRequest) ([]automation.Workflow, string, error) {
		return s.Workflows.List(c, p.ID, c.Query("q"), c.Query("archived") == "true", page)
	},
		func(rows []automation.Workflow) ([]workflowListItem, error) {
			summaries, err := s.Workflows.Summaries(c, p.CompanyID, rows)
			if err != nil {
				return nil, err
			}
			items := make([]workflowListItem, len(rows))
			for i := range rows {
				if items[i].workflowView, err = s.viewWorkflow(c, &rows[i]); err != nil {
					return nil, err
				}
				sum := summaries[rows[i].ID]
				items[i].TriggerTypes = sum.TriggerTypes
				if r := sum.LastRun; r != nil {
					items[i].LastRun = &workflowLastRun{WorkflowRunID: r.ID, Status: r.Status, CreatedAt: r.CreatedAt, FinishedAt: r.FinishedAt}
				}
			}
			return items, nil
		})
}

type workflowCreateRequest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// workflowCreate serves POST /api/v1/projects/{project_id}/workflows.
func (s *Server) workflowCreate(c *gin.Context) {
	var req workflowCreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	w, err := s.Workflows.Create(c, project(c), actor(c).UserID, req.Name, req.Description)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.serveWorkflow(c, http.StatusCreated, w)
}

// workflowGet serves GET /api/v1/workflows/{workflow_id}, with the draft's revision as its
// ETag.
func (s *Server) workflowGet(c *gin.Context) {
	w := workflow(c)
	c.Header("ETag", draftETag(w))
	s.serveWorkflow(c, http.StatusOK, w)
}

// workflowPatchRequest holds the settings of a workflow a PATCH may change; absent fields
// stay as they are.
type workflowPatchRequest struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Archived    *bool   `json:"archived"`
}

// workflowPatch serves PATCH /api/v1/workflows/{workflow_id}: name, description, and
// archiving (archived true) or restoring (false), which pauses or resumes its schedules.
func (s *Server) workflowPatch(c *gin.Context) {
	var req workflowPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	w, err := s.Publisher.Patch(c, workflow(c), automation.WorkflowSettingsPatch{
		Name: req.Name, Description: req.Description, Archived: req.Archived,
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.serveWorkflow(c, http.StatusOK, w)
}

// draftETag is the entity tag of a workflow's draft: its revision, quoted.
func draftETag(w *automation.Workflow) string { return strconv.Quote(strconv.Itoa(w.DraftRevision)) }

// draftRevisions reads If-Match: the draft revisions a save is conditional on, as entity
// tags ("7"), weak ones (W/"7") or bare numbers, comma-separated; none when the header is
// absent or "*". Errors: invalid (If-Match).
func draftRevisions(c *gin.Context) ([]int, error) {
	header := strings.TrimSpace(c.GetHeader("If-Match"))
	if header == "" || header == "*" {
		return nil, nil
	}
	var out []int
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if unquoted, err := strconv.Unquote(tag); err == nil && strings.HasPrefix(tag, `"`) {
			tag = unquoted
		}
		n, err := strconv.Atoi(tag)
		if err != nil || n < 1 {
			return nil, models.Invalid("invalid_if_match", "If-Match")
		}
		out = append(out, n)
	}
	return out, nil
}

type draftRequest struct {
	Actions           []automation.Action     `json:"actions"`
	Connections       []automation.Connection `json:"connections"`
	TestInputJSON     map[string]any          `json:"test_input_json"`
	ChangeDescription string                  `json:"change_description"`
}

// workflowPutDraft serves PUT /api/v1/workflows/{workflow_id}/draft: the draft is saved
// even when invalid, and the answer carries its diagnostics and the new revision as its
// ETag. With If-Match it is saved only while the draft is at one of the revisions named
// (409 draft_revision_changed otherwise, nothing saved).
func (s *Server) workflowPutDraft(c *gin.Context) {
	var req draftRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	revisions, err := draftRevisions(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	w, err := s.Workflows.PutDraft(c, workflow(c), automation.Draft{
		Graph:     automation.Graph{Actions: req.Actions, Connections: req.Connections},
		TestInput: req.TestInputJSON, ChangeDescription: req.ChangeDescription,
	}, revisions...)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Header("ETag", draftETag(w))
	s.serveWorkflow(c, http.StatusOK, w)
}

type validationView struct {
	Valid       bool                    `json:"valid"`
	Diagnostics []automation.Diagnostic `json:"diagnostics"`
}

// workflowValidate serves POST /api/v1/workflows/{workflow_id}/validate.
func (s *Server) workflowValidate(c *gin.Context) {
	w := workflow(c)
	ds, err := s.Drafts.Validate(c, w, w.Draft().Graph)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, validationView{Valid: !automation.HasErrors(ds), Diagnostics: nonNil(ds)})
}

type versionView struct {
	WorkflowVersionID uuid.UUID               `json:"workflow_version_id"`
	WorkflowID        uuid.UUID               `json:"workflow_id"`
	VersionNumber     int                     `json:"version_number"`
	Description       string                  `json:"description"`
	Actions           []automation.Action     `json:"actions"`
	Connections       []automation.Connection `json:"connections"`
	TestInputJSON     map[string]any          `json:"test_input_json"`
	IsCurrent         bool                    `json:"is_current"`
	CreatedBy         uuid.UUID               `json:"created_by"`
	CreatedAt         time.Time               `json:"created_at"`
}

func viewVersion(v *automation.Version, current *uuid.UUID) versionView {
	g := v.Graph()
	return versionView{
		WorkflowVersionID: v.ID, WorkflowID: v.WorkflowID, VersionNumber: v.VersionNumber, Description: v.Description,
		Actions: g.Actions, Connections: g.Connections, TestInputJSON: automation.DecodeObject(v.TestInput),
		IsCurrent: current != nil && *current == v.ID, CreatedBy: v.CreatedBy, CreatedAt: v.CreatedAt,
	}
}

type publishRequest struct {
	Description *string `json:"description"`
}

// workflowPublish serves POST /api/v1/workflows/{workflow_id}/publish.
func (s *Server) workflowPublish(c *gin.Context) {
	var req publishRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	w := workflow(c)
	if err := mayRunWrites(c, w.Draft().Graph); err != nil {
		httpx.WriteError(c, err)
		return
	}
	v, err := s.Publisher.Publish(c, w, actor(c).UserID, req.Description)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewVersion(v, &v.ID))
}

// mayRunWrites refuses a graph with a db.query that writes (engine.Writes) unless the
// caller is an owner or admin of the company: publishing, restoring or testing it lets
// every run change the project's database.
func mayRunWrites(c *gin.Context, g automation.Graph) error {
	if engine.Writes(g) && !access(c).Role.Can(company.PermManage) {
		return models.Forbidden("database_write_needs_admin")
	}
	return nil
}

// workflowVersions serves GET /api/v1/workflows/{workflow_id}/versions.
func (s *Server) workflowVersions(c *gin.Context) {
	w := workflow(c)
	servePage(c, func(page models.PageRequest) ([]automation.Version, string, error) {
		return s.Workflows.Versions(c, w.ID, page)
	},
		each(func(v automation.Version) versionView { return viewVersion(&v, w.CurrentVersionID) }))
}

// workflowVersionGet serves GET /api/v1/workflow-versions/{workflow_version_id}.
func (s *Server) workflowVersionGet(c *gin.Context) {
	v := version(c)
	w, _, err := s.Workflows.WorkflowAccess(c, actor(c).UserID, v.WorkflowID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewVersion(v, w.CurrentVersionID))
}

// workflowVersionRestore serves POST /api/v1/workflows/{workflow_id}/versions/{workflow_version_id}/restore.
func (s *Server) workflowVersionRestore(c *gin.Context) {
	id, err := httpx.PathID(c, "workflow_version_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	v, err := s.Workflows.Version(c, workflow(c).ID, id)
	if err == nil {
		err = mayRunWrites(c, v.Graph())
	}
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	w, err := s.Publisher.Restore(c, workflow(c), id)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.serveWorkflow(c, http.StatusOK, w)
}
