package api

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/work"
)

const (
	workAccessKey    = "api.work_access"
	taskBoardKey     = "api.task_board"
	taskKey          = "api.task"
	taskAttachKey    = "api.task_attachment"
	taskChecklistKey = "api.task_checklist_item"
	taskFieldKey     = "api.task_custom_field"
	taskWorkflowKey  = "api.task_workflow"
	processRoleKey   = "api.task_process_role"
)

func workAccess(c *gin.Context) *work.Access { return c.MustGet(workAccessKey).(*work.Access) }
func taskBoard(c *gin.Context) *work.Board   { return c.MustGet(taskBoardKey).(*work.Board) }
func task(c *gin.Context) *work.TaskRow      { return c.MustGet(taskKey).(*work.TaskRow) }
func taskAttachment(c *gin.Context) *work.Attachment {
	return c.MustGet(taskAttachKey).(*work.Attachment)
}
func checklistItem(c *gin.Context) *work.ChecklistItem {
	return c.MustGet(taskChecklistKey).(*work.ChecklistItem)
}
func customField(c *gin.Context) *work.CustomField {
	return c.MustGet(taskFieldKey).(*work.CustomField)
}
func taskWorkflow(c *gin.Context) *work.TaskWorkflow {
	return c.MustGet(taskWorkflowKey).(*work.TaskWorkflow)
}
func processRole(c *gin.Context) *work.ProcessRole {
	return c.MustGet(processRoleKey).(*work.ProcessRole)
}

// inWorkspace loads the tracker access of the caller in their active company (the
// workspace context), for the tracker's operations that name no resource. A caller with no
// active company is told to choose one.
func (s *Server) inWorkspace(c *gin.Context) {
	wc, err := s.Company.Workspace(c, actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if wc.ActiveCompanyID == nil {
		httpx.WriteError(c, models.Conflict("no_active_company", "active_company_id"))
		return
	}
	ca, err := s.Company.Access(c, actor(c).UserID, *wc.ActiveCompanyID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	a, err := s.Work.Access(c, ca, actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Set(accessKey, ca)
	c.Set(workAccessKey, a)
}

// inWork loads the tracker resource a path parameter names, in whichever of the caller's
// companies it is (another tenant's is a 404), with the caller's tracker access there.
// Every member may read; what a change needs the domain decides from the company role and
// the project membership.
func inWork[T any](param, key string, load func(ctx context.Context, userID, id uuid.UUID) (*T, *work.Access, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := httpx.PathID(c, param)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		row, a, err := load(c, actor(c).UserID, id)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		c.Set(accessKey, &a.Access)
		c.Set(workAccessKey, a)
		c.Set(key, row)
	}
}

// inTaskBoard loads the board of :task_board_id.
func (s *Server) inTaskBoard() gin.HandlerFunc {
	return inWork("task_board_id", taskBoardKey, s.Work.BoardAccess)
}

// inTask loads the task of :task_id.
func (s *Server) inTask() gin.HandlerFunc { return inWork("task_id", taskKey, s.Work.TaskAccess) }

// inTaskAttachment loads the attachment of :task_attachment_id.
func (s *Server) inTaskAttachment() gin.HandlerFunc {
	return inWork("task_attachment_id", taskAttachKey, s.Work.AttachmentAccess)
}

// inTaskWorkflow loads the task workflow of :task_workflow_id.
func (s *Server) inTaskWorkflow() gin.HandlerFunc {
	return inWork("task_workflow_id", taskWorkflowKey, s.Work.TaskWorkflowAccess)
}

// inChecklistItem loads the checklist item of :task_checklist_item_id of the task of :task_id.
func (s *Server) inChecklistItem() gin.HandlerFunc {
	return inNested(s.inTask(), "task_checklist_item_id", taskChecklistKey, func(c *gin.Context, id uuid.UUID) (*work.ChecklistItem, error) {
		return s.Work.ChecklistItemOf(c, task(c), id)
	})
}

// inTaskCustomField loads the custom field of :task_custom_field_id of the board of the
// task of :task_id.
func (s *Server) inTaskCustomField() gin.HandlerFunc {
	return inNested(s.inTask(), "task_custom_field_id", taskFieldKey, func(c *gin.Context, id uuid.UUID) (*work.CustomField, error) {
		return s.Work.CustomFieldOf(c, task(c), id)
	})
}

// inProcessRole loads the role of :task_process_role_id of the task workflow of :task_workflow_id.
func (s *Server) inProcessRole() gin.HandlerFunc {
	return inNested(s.inTaskWorkflow(), "task_process_role_id", processRoleKey, func(c *gin.Context, id uuid.UUID) (*work.ProcessRole, error) {
		return s.Work.RoleOf(c, taskWorkflow(c), id)
	})
}

// workAccessView is what the caller may do in the tracker of their active company.
type workAccessView struct {
	CompanyID   uuid.UUID           `json:"company_id"`
	CompanyRole company.Role        `json:"company_role"`
	TrackerRole string              `json:"tracker_role"`
	Can         workPermissionsView `json:"can"`
	Projects    []workProjectAccess `json:"projects"`
}

type workPermissionsView struct {
	Read               bool `json:"read"`
	WorkOnTasks        bool `json:"work_on_tasks"`
	ManageBoards       bool `json:"manage_boards"`
	ManageTaskWorkflow bool `json:"manage_task_workflows"`
	SeeEveryonesTime   bool `json:"see_everyones_time"`
}

type workProjectAccess struct {
	ProjectID    uuid.UUID `json:"project_id"`
	ProjectRole  string    `json:"project_role"`
	WorkOnTasks  bool      `json:"work_on_tasks"`
	ManageBoards bool      `json:"manage_boards"`
}

// workAccessGet serves GET /api/v1/work/access.
func (s *Server) workAccessGet(c *gin.Context) {
	a := workAccess(c)
	v := workAccessView{CompanyID: a.CompanyID(), CompanyRole: a.Role, TrackerRole: work.TrackerRole(a.Role),
		Can: workPermissionsView{Read: true, WorkOnTasks: a.CanWork(nil), ManageBoards: a.CanManage(nil),
			ManageTaskWorkflow: a.Manager(), SeeEveryonesTime: a.Manager()},
		Projects: []workProjectAccess{}}
	for id, role := range a.Projects {
		v.Projects = append(v.Projects, workProjectAccess{
			ProjectID:    id,
			ProjectRole:  role,
			WorkOnTasks:  a.CanWork(&id),
			ManageBoards: a.CanManage(&id),
		})
	}
	slices.SortFunc(v.Projects, func(x, y workProjectAccess) int { return strings.Compare(x.ProjectID.String(), y.ProjectID.String()) })
	c.JSON(http.StatusOK, v)
}

// workEmployeeView is a company member with their tracker role and load.
type workEmployeeView struct {
	UserID       uuid.UUID    `json:"user_id"`
	Email        string       `json:"email"`
	Name         string       `json:"name"`
	CompanyRole  company.Role `json:"company_role"`
	TrackerRole  string       `json:"tracker_role"`
	OpenTasks    int          `json:"open_tasks"`
	OverdueTasks int          `json:"overdue_tasks"`
	WeekSeconds  int64        `json:"week_seconds"`
}

func viewEmployee(e work.Employee) workEmployeeView {
	return workEmployeeView{
		UserID:       e.UserID,
		Email:        e.Email,
		Name:         e.Name,
		CompanyRole:  e.CompanyRole,
		TrackerRole:  work.TrackerRole(e.CompanyRole),
		OpenTasks:    e.OpenTasks,
		OverdueTasks: e.OverdueTasks,
		WeekSeconds:  e.WeekSeconds,
	}
}

// workEmployeeList serves GET /api/v1/work/employees.
func (s *Server) workEmployeeList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]work.Employee, string, error) {
		return s.Work.Employees(c, workAccess(c), page)
	}, each(viewEmployee))
}

// workProjectMemberView is a project membership.
type workProjectMemberView struct {
	ProjectID   uuid.UUID `json:"project_id"`
	UserID      uuid.UUID `json:"user_id"`
	ProjectRole string    `json:"project_role"`
	CreatedAt   time.Time `json:"created_at"`
}

// workProjectMemberCreate serves POST /api/v1/work/projects/{project_id}/members: a company
// member joins the project as lead or member (201), or changes their role (200).
func (s *Server) workProjectMemberCreate(c *gin.Context) {
	var req struct {
		UserID      uuid.UUID `json:"user_id"`
		ProjectRole string    `json:"project_role"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	a, err := s.Work.Access(c, access(c), actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	m, created, err := s.Work.AddProjectMember(c, a, project(c), req.UserID, req.ProjectRole)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(httpx.CreatedOrOK(created), workProjectMemberView{ProjectID: m.ProjectID, UserID: m.UserID, ProjectRole: m.ProjectRole, CreatedAt: m.CreatedAt})
}
