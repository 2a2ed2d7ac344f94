package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/work"
)

// taskStageView is a stage of a task workflow or a preset.
type taskStageView struct {
	Status string `json:"status"`
	Name   string `json:"name"`
	IsDone bool   `json:"is_done"`
}

// roleTemplateView is a process role of a preset or of a task workflow's defaults.
type roleTemplateView struct {
	RoleKey     string `json:"role_key"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

func viewStages(stages work.Stages) []taskStageView {
	out := make([]taskStageView, len(stages))
	for i, st := range stages {
		out[i] = taskStageView(st)
	}
	return out
}

func viewRoleTemplates(roles work.RoleTemplates) []roleTemplateView {
	out := make([]roleTemplateView, len(roles))
	for i, r := range roles {
		out[i] = roleTemplateView(r)
	}
	return out
}

// workPresetView is a ready task workflow.
type workPresetView struct {
	PresetKey   string             `json:"preset_key"`
	Name        string             `json:"name"`
	Description string             `json:"description"`
	Stages      []taskStageView    `json:"stages"`
	Roles       []roleTemplateView `json:"roles"`
}

// workPresets serves GET /api/v1/work/presets: the ready task workflows, not paged.
func (s *Server) workPresets(c *gin.Context) {
	renderList(c, work.Presets, "", func(p work.Preset) workPresetView {
		return workPresetView{
			PresetKey:   p.Slug,
			Name:        p.Name,
			Description: p.Description,
			Stages:      viewStages(p.Stages),
			Roles:       viewRoleTemplates(p.Roles),
		}
	})
}

// taskWorkflowView is a task workflow: its stages and the roles a reset restores.
type taskWorkflowView struct {
	TaskWorkflowID uuid.UUID          `json:"task_workflow_id"`
	CompanyID      uuid.UUID          `json:"company_id"`
	Name           string             `json:"name"`
	Description    string             `json:"description"`
	PresetKey      string             `json:"preset_key"`
	Stages         []taskStageView    `json:"stages"`
	DefaultRoles   []roleTemplateView `json:"default_roles"`
	CreatedAt      time.Time          `json:"created_at"`
}

func viewTaskWorkflow(w work.TaskWorkflow) taskWorkflowView {
	return taskWorkflowView{TaskWorkflowID: w.ID, CompanyID: w.CompanyID, Name: w.Name, Description: w.Description, PresetKey: w.PresetKey,
		Stages: viewStages(w.Stages), DefaultRoles: viewRoleTemplates(w.DefaultRoles), CreatedAt: w.CreatedAt}
}

// processRoleView is a role of a task workflow and the employee who fills it.
type processRoleView struct {
	TaskProcessRoleID uuid.UUID  `json:"task_process_role_id"`
	TaskWorkflowID    uuid.UUID  `json:"task_workflow_id"`
	RoleKey           string     `json:"role_key"`
	Name              string     `json:"name"`
	Description       string     `json:"description"`
	UserID            *uuid.UUID `json:"user_id,omitempty"`
	Position          int        `json:"position"`
}

func viewProcessRole(r work.ProcessRole) processRoleView {
	return processRoleView{TaskProcessRoleID: r.ID, TaskWorkflowID: r.TaskWorkflowID, RoleKey: r.RoleKey, Name: r.Name,
		Description: r.Description, UserID: r.UserID, Position: r.Position}
}

// roleFields is a process role in a request.
type roleFields struct {
	RoleKey     string     `json:"role_key"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	UserID      *uuid.UUID `json:"user_id"`
}

func (r roleFields) domain() work.RoleInput {
	return work.RoleInput{RoleKey: r.RoleKey, Name: r.Name, Description: r.Description, UserID: r.UserID}
}

// workTaskWorkflowList serves GET /api/v1/work/task-workflows.
func (s *Server) workTaskWorkflowList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]work.TaskWorkflow, string, error) {
		return s.Work.TaskWorkflows(c, workAccess(c), page)
	}, each(viewTaskWorkflow))
}

// workTaskWorkflowCreate serves POST /api/v1/work/task-workflows: from a preset, or from
// stages and roles.
func (s *Server) workTaskWorkflowCreate(c *gin.Context) {
	var req struct {
		PresetKey   string        `json:"preset_key"`
		Name        string        `json:"name"`
		Description string        `json:"description"`
		Stages      []stageFields `json:"stages"`
		Roles       []roleFields  `json:"roles"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	in := work.TaskWorkflowInput{PresetKey: req.PresetKey, Name: req.Name, Description: req.Description, Stages: stageInputs(req.Stages)}
	for _, r := range req.Roles {
		in.Roles = append(in.Roles, r.domain())
	}
	w, err := s.Work.CreateTaskWorkflow(c, workAccess(c), in)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewTaskWorkflow(*w))
}

// renderRoles answers a task workflow's roles, in order, not paged (at most 30).
func (s *Server) renderRoles(c *gin.Context, roles []work.ProcessRole) {
	renderList(c, roles, "", viewProcessRole)
}

// workTaskWorkflowRoleList serves GET /api/v1/work/task-workflows/{task_workflow_id}/roles.
func (s *Server) workTaskWorkflowRoleList(c *gin.Context) {
	roles, err := s.Work.Roles(c, taskWorkflow(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderRoles(c, roles)
}

// workTaskWorkflowRoleCreate serves POST /api/v1/work/task-workflows/{task_workflow_id}/roles.
func (s *Server) workTaskWorkflowRoleCreate(c *gin.Context) {
	var req roleFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Work.AddRole(c, workAccess(c), taskWorkflow(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewProcessRole(*r))
}

// workTaskWorkflowRolePatch serves PATCH /api/v1/work/task-workflows/{task_workflow_id}/roles/{task_process_role_id}.
func (s *Server) workTaskWorkflowRolePatch(c *gin.Context) {
	var req struct {
		Name        *string                   `json:"name"`
		Description *string                   `json:"description"`
		UserID      httpx.Optional[uuid.UUID] `json:"user_id"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	user := optionalID(req.UserID)
	r, err := s.Work.PatchRole(c, workAccess(c), processRole(c), work.RolePatch{
		Name:        req.Name,
		Description: req.Description,
		UserSet:     user.Set,
		UserID:      user.ID,
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewProcessRole(*r))
}

// workTaskWorkflowRoleReset serves POST /api/v1/work/task-workflows/{task_workflow_id}/roles/reset.
func (s *Server) workTaskWorkflowRoleReset(c *gin.Context) {
	roles, err := s.Work.ResetRoles(c, workAccess(c), taskWorkflow(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderRoles(c, roles)
}
