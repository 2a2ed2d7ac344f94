package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/work"
)

// taskBoardView is a board with its ordered columns and its custom fields.
type taskBoardView struct {
	TaskBoardID    uuid.UUID             `json:"task_board_id"`
	CompanyID      uuid.UUID             `json:"company_id"`
	ProjectID      *uuid.UUID            `json:"project_id,omitempty"`
	TaskWorkflowID *uuid.UUID            `json:"task_workflow_id,omitempty"`
	Name           string                `json:"name"`
	Columns        []taskColumnView      `json:"columns"`
	CustomFields   []taskCustomFieldView `json:"custom_fields"`
	CreatedAt      time.Time             `json:"created_at"`
}

type taskColumnView struct {
	TaskBoardColumnID uuid.UUID `json:"task_board_column_id"`
	Status            string    `json:"status"`
	Name              string    `json:"name"`
	Position          int       `json:"position"`
	IsDone            bool      `json:"is_done"`
	TaskCount         int       `json:"task_count"`
}

type taskCustomFieldView struct {
	TaskCustomFieldID uuid.UUID `json:"task_custom_field_id"`
	Name              string    `json:"name"`
	FieldType         string    `json:"field_type"`
	Options           []string  `json:"options"`
}

func viewCustomField(f work.CustomField) taskCustomFieldView {
	return taskCustomFieldView{TaskCustomFieldID: f.ID, Name: f.Name, FieldType: f.FieldType, Options: append([]string{}, f.Options...)}
}

func viewBoard(d work.BoardDetail) taskBoardView {
	v := taskBoardView{TaskBoardID: d.ID, CompanyID: d.CompanyID, ProjectID: d.ProjectID, TaskWorkflowID: d.TaskWorkflowID, Name: d.Name,
		Columns: []taskColumnView{}, CustomFields: []taskCustomFieldView{}, CreatedAt: d.CreatedAt}
	for _, c := range d.Columns {
		v.Columns = append(v.Columns, taskColumnView{
			TaskBoardColumnID: c.ID,
			Status:            c.Status,
			Name:              c.Name,
			Position:          c.Position,
			IsDone:            c.IsDone,
			TaskCount:         d.TaskCounts[c.ID],
		})
	}
	for _, f := range d.CustomFields {
		v.CustomFields = append(v.CustomFields, viewCustomField(f))
	}
	return v
}

// stageFields is a column or a stage as a request gives it.
type stageFields struct {
	Status string `json:"status"`
	Name   string `json:"name"`
	IsDone bool   `json:"is_done"`
}

func stageInputs(in []stageFields) []work.StageInput {
	out := make([]work.StageInput, len(in))
	for i, st := range in {
		out[i] = work.StageInput{Status: st.Status, Name: st.Name, IsDone: st.IsDone}
	}
	return out
}

// workBoardList serves GET /api/v1/work/boards (?project_id= narrows it to one project).
func (s *Server) workBoardList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]work.BoardDetail, string, error) {
		projectID, err := queryID(c, "project_id")
		if err != nil {
			return nil, "", err
		}
		return s.Work.Boards(c, workAccess(c), projectID, page)
	}, each(viewBoard))
}

// workBoardCreate serves POST /api/v1/work/boards.
func (s *Server) workBoardCreate(c *gin.Context) {
	var req struct {
		Name           string        `json:"name"`
		ProjectID      *uuid.UUID    `json:"project_id"`
		TaskWorkflowID *uuid.UUID    `json:"task_workflow_id"`
		Columns        []stageFields `json:"columns"`
		CustomFields   []struct {
			Name      string   `json:"name"`
			FieldType string   `json:"field_type"`
			Options   []string `json:"options"`
		} `json:"custom_fields"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	in := work.BoardInput{Name: req.Name, ProjectID: req.ProjectID, TaskWorkflowID: req.TaskWorkflowID, Columns: stageInputs(req.Columns)}
	for _, f := range req.CustomFields {
		in.CustomFields = append(in.CustomFields, work.CustomFieldInput{Name: f.Name, FieldType: f.FieldType, Options: f.Options})
	}
	d, err := s.Work.CreateBoard(c, workAccess(c), in)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewBoard(*d))
}

// workBoardGet serves GET /api/v1/work/boards/{task_board_id}.
func (s *Server) workBoardGet(c *gin.Context) {
	d, err := s.Work.BoardDetail(c, taskBoard(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewBoard(*d))
}

// taskView is a task as lists show it; position is its rank in its column.
type taskView struct {
	TaskID         uuid.UUID  `json:"task_id"`
	CompanyID      uuid.UUID  `json:"company_id"`
	TaskBoardID    uuid.UUID  `json:"task_board_id"`
	Status         string     `json:"status"`
	Position       string     `json:"position"`
	Title          string     `json:"title"`
	Description    string     `json:"description"`
	AssigneeUserID *uuid.UUID `json:"assignee_user_id,omitempty"`
	ReporterUserID *uuid.UUID `json:"reporter_user_id,omitempty"`
	Priority       string     `json:"priority"`
	DueDate        *string    `json:"due_date,omitempty"`
	Labels         []string   `json:"labels"`
	ProjectID      *uuid.UUID `json:"project_id,omitempty"`
	ClientID       *uuid.UUID `json:"client_id,omitempty"`
	CompletedAt    *time.Time `json:"completed_at,omitempty"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
}

func viewTask(t work.TaskRow) taskView {
	v := taskView{TaskID: t.ID, CompanyID: t.CompanyID, TaskBoardID: t.BoardID, Status: t.Status, Position: t.Rank, Title: t.Title,
		Description: t.Description, AssigneeUserID: t.AssigneeID, ReporterUserID: t.ReporterID, Priority: t.Priority,
		Labels: append([]string{}, t.Labels...), ProjectID: t.ProjectID, ClientID: t.ClientID, CompletedAt: t.CompletedAt,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
	if t.DueDate != nil {
		d := t.DueDate.String()
		v.DueDate = &d
	}
	return v
}

// taskDetailView is a task with its comments, checklist and custom fields.
type taskDetailView struct {
	taskView
	Comments     []taskCommentView    `json:"comments"`
	Checklist    []checklistItemView  `json:"checklist"`
	CustomFields []taskFieldValueView `json:"custom_fields"`
}

type taskCommentView struct {
	TaskCommentID uuid.UUID  `json:"task_comment_id"`
	TaskID        uuid.UUID  `json:"task_id"`
	AuthorUserID  *uuid.UUID `json:"author_user_id,omitempty"`
	Body          string     `json:"body"`
	CreatedAt     time.Time  `json:"created_at"`
}

func viewComment(cm work.Comment) taskCommentView {
	return taskCommentView{TaskCommentID: cm.ID, TaskID: cm.TaskID, AuthorUserID: cm.AuthorID, Body: cm.Body, CreatedAt: cm.CreatedAt}
}

type checklistItemView struct {
	TaskChecklistItemID uuid.UUID  `json:"task_checklist_item_id"`
	TaskID              uuid.UUID  `json:"task_id"`
	Title               string     `json:"title"`
	Done                bool       `json:"done"`
	Position            string     `json:"position"`
	DoneAt              *time.Time `json:"done_at,omitempty"`
	DoneBy              *uuid.UUID `json:"done_by,omitempty"`
	CreatedAt           time.Time  `json:"created_at"`
}

func viewChecklistItem(it work.ChecklistItem) checklistItemView {
	return checklistItemView{TaskChecklistItemID: it.ID, TaskID: it.TaskID, Title: it.Title, Done: it.Done, Position: it.Rank,
		DoneAt: it.DoneAt, DoneBy: it.DoneBy, CreatedAt: it.CreatedAt}
}

type taskFieldValueView struct {
	taskCustomFieldView
	TaskID uuid.UUID `json:"task_id"`
	Value  any       `json:"value"`
}

func viewFieldValue(taskID uuid.UUID, v work.FieldValue) taskFieldValueView {
	return taskFieldValueView{taskCustomFieldView: viewCustomField(v.Field), TaskID: taskID, Value: v.Value}
}

func viewTaskDetail(d *work.TaskDetail) taskDetailView {
	v := taskDetailView{
		taskView:     viewTask(d.TaskRow),
		Comments:     []taskCommentView{},
		Checklist:    []checklistItemView{},
		CustomFields: []taskFieldValueView{},
	}
	for _, cm := range d.Comments {
		v.Comments = append(v.Comments, viewComment(cm))
	}
	for _, it := range d.Checklist {
		v.Checklist = append(v.Checklist, viewChecklistItem(it))
	}
	for _, f := range d.Fields {
		v.CustomFields = append(v.CustomFields, viewFieldValue(d.ID, f))
	}
	return v
}

// renderTask answers a task with its detail.
func (s *Server) renderTask(c *gin.Context, status int, row *work.TaskRow) {
	d, err := s.Work.Detail(c, row)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(status, viewTaskDetail(d))
}

// queryID reads an optional UUID query parameter. Errors: invalid (name).
func queryID(c *gin.Context, name string) (*uuid.UUID, error) {
	raw := c.Query(name)
	if raw == "" {
		return nil, nil
	}
	id, err := models.ParseID(name, raw)
	if err != nil {
		return nil, err
	}
	return &id, nil
}

// taskFilter reads the task list's filters from the query.
func taskFilter(c *gin.Context) (work.TaskFilter, error) {
	var f work.TaskFilter
	var err error
	for name, dst := range map[string]**uuid.UUID{"task_board_id": &f.BoardID, "project_id": &f.ProjectID, "assignee_user_id": &f.AssigneeID} {
		if *dst, err = queryID(c, name); err != nil {
			return f, err
		}
	}
	if raw := c.Query("status"); raw != "" {
		f.Statuses = strings.Split(raw, ",")
	}
	if f.DueFrom, err = queryDate(c, "due_from"); err != nil {
		return f, err
	}
	if f.DueTo, err = queryDate(c, "due_to"); err != nil {
		return f, err
	}
	f.Query = strings.TrimSpace(c.Query("q"))
	return f, nil
}

// workTaskList serves GET /api/v1/work/tasks.
func (s *Server) workTaskList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]work.TaskRow, string, error) {
		f, err := taskFilter(c)
		if err != nil {
			return nil, "", err
		}
		return s.Work.Tasks(c, workAccess(c), f, page)
	}, each(viewTask))
}

// taskFields is the body of create (where the contract requires task_board_id and title)
// and of patch.
type taskFields struct {
	TaskBoardID    uuid.UUID                   `json:"task_board_id"`
	Status         string                      `json:"status"`
	Title          *string                     `json:"title"`
	Description    *string                     `json:"description"`
	AssigneeUserID httpx.Optional[uuid.UUID]   `json:"assignee_user_id"`
	ClientID       httpx.Optional[uuid.UUID]   `json:"client_id"`
	Priority       *string                     `json:"priority"`
	DueDate        httpx.Optional[models.Date] `json:"due_date"`
	Labels         *[]string                   `json:"labels"`
}

func optionalDate(o httpx.Optional[models.Date]) work.OptionalDate {
	if !o.Set || o.Null {
		return work.OptionalDate{Set: o.Set}
	}
	return work.OptionalDate{Set: true, Date: &o.Value}
}

// workTaskCreate serves POST /api/v1/work/tasks.
func (s *Server) workTaskCreate(c *gin.Context) {
	var req taskFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	in := work.TaskInput{BoardID: req.TaskBoardID, Status: req.Status, Title: textOf(req.Title), Description: textOf(req.Description),
		AssigneeID: optionalID(req.AssigneeUserID).ID, ClientID: optionalID(req.ClientID).ID, Priority: textOf(req.Priority),
		DueDate: optionalDate(req.DueDate).Date}
	if req.Labels != nil {
		in.Labels = *req.Labels
	}
	row, err := s.Work.CreateTask(c, workAccess(c), in)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderTask(c, http.StatusCreated, row)
}

func textOf(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// workTaskGet serves GET /api/v1/work/tasks/{task_id}.
func (s *Server) workTaskGet(c *gin.Context) { s.renderTask(c, http.StatusOK, task(c)) }

// workTaskPatch serves PATCH /api/v1/work/tasks/{task_id}: absent fields stay, null clears
// the assignee, client or due date. The status changes through move.
func (s *Server) workTaskPatch(c *gin.Context) {
	var req taskFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	row, err := s.Work.PatchTask(c, workAccess(c), task(c), work.TaskPatch{
		Title:       req.Title,
		Description: req.Description,
		Priority:    req.Priority,
		Labels:      req.Labels,
		Assignee:    optionalID(req.AssigneeUserID),
		Client:      optionalID(req.ClientID),
		DueDate:     optionalDate(req.DueDate),
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderTask(c, http.StatusOK, row)
}

// workTaskMove serves POST /api/v1/work/tasks/{task_id}/move.
func (s *Server) workTaskMove(c *gin.Context) {
	var req struct {
		Status       string     `json:"status"`
		AfterTaskID  *uuid.UUID `json:"after_task_id"`
		BeforeTaskID *uuid.UUID `json:"before_task_id"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	row, err := s.Work.MoveTask(c, workAccess(c), task(c), work.Move{Status: req.Status, AfterID: req.AfterTaskID, BeforeID: req.BeforeTaskID})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewTask(*row))
}

// workTaskCommentCreate serves POST /api/v1/work/tasks/{task_id}/comments.
func (s *Server) workTaskCommentCreate(c *gin.Context) {
	var req struct {
		Body string `json:"body"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	cm, err := s.Work.AddComment(c, workAccess(c), task(c), req.Body)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewComment(*cm))
}

// taskAttachmentView is an attachment with a link that downloads it for 15 minutes.
type taskAttachmentView struct {
	TaskAttachmentID uuid.UUID `json:"task_attachment_id"`
	TaskID           uuid.UUID `json:"task_id"`
	fileView
	CreatedBy   uuid.UUID `json:"created_by"`
	CreatedAt   time.Time `json:"created_at"`
	DownloadURL string    `json:"download_url"`
}

func (s *Server) viewAttachments(c *gin.Context) func([]work.Attachment) ([]taskAttachmentView, error) {
	return func(rows []work.Attachment) ([]taskAttachmentView, error) {
		out := make([]taskAttachmentView, len(rows))
		for i, a := range rows {
			url, err := s.Files.DownloadURL(c, a.StorageKey, a.Download())
			if err != nil {
				return nil, err
			}
			out[i] = taskAttachmentView{
				TaskAttachmentID: a.ID,
				TaskID:           a.TaskID,
				fileView:         viewFile(a.Meta),
				CreatedBy:        a.CreatedBy,
				CreatedAt:        a.CreatedAt,
				DownloadURL:      url,
			}
		}
		return out, nil
	}
}

func (s *Server) renderAttachment(c *gin.Context, status int, a *work.Attachment) {
	views, err := s.viewAttachments(c)([]work.Attachment{*a})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(status, views[0])
}

// workTaskAttachmentList serves GET /api/v1/work/tasks/{task_id}/attachments.
func (s *Server) workTaskAttachmentList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]work.Attachment, string, error) {
		return s.Work.Attachments(c, task(c), page)
	}, s.viewAttachments(c))
}

// workTaskAttachmentCreate serves POST /api/v1/work/tasks/{task_id}/attachments: a
// multipart/form-data body with the file in `file`.
func (s *Server) workTaskAttachmentCreate(c *gin.Context) {
	file, name, err := uploadedFile(c, work.AttachmentLimits.MaxBytes, "task_attachment_file_required")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	defer file.Close()
	a, err := s.Work.Attach(c, s.Files, workAccess(c), task(c), name, file)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderAttachment(c, http.StatusCreated, a)
}

// workTaskAttachmentGet serves GET /api/v1/work/task-attachments/{task_attachment_id}.
func (s *Server) workTaskAttachmentGet(c *gin.Context) {
	s.renderAttachment(c, http.StatusOK, taskAttachment(c))
}

// workTaskChecklistCreate serves POST /api/v1/work/tasks/{task_id}/checklist: the item goes
// last, or after after_item_id (first when that is null).
func (s *Server) workTaskChecklistCreate(c *gin.Context) {
	var req struct {
		Title       string                    `json:"title"`
		Done        bool                      `json:"done"`
		AfterItemID httpx.Optional[uuid.UUID] `json:"after_item_id"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	it, err := s.Work.AddChecklistItem(c, workAccess(c), task(c), req.Title, req.Done, checklistPlace(req.AfterItemID))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewChecklistItem(*it))
}

func checklistPlace(o httpx.Optional[uuid.UUID]) work.ChecklistPlace {
	id := optionalID(o)
	return work.ChecklistPlace{Set: id.Set, AfterID: id.ID}
}

// workTaskChecklistPatch serves PATCH /api/v1/work/tasks/{task_id}/checklist/{task_checklist_item_id}.
func (s *Server) workTaskChecklistPatch(c *gin.Context) {
	var req struct {
		Title       *string                   `json:"title"`
		Done        *bool                     `json:"done"`
		AfterItemID httpx.Optional[uuid.UUID] `json:"after_item_id"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	it, err := s.Work.PatchChecklistItem(c, workAccess(c), task(c), checklistItem(c),
		work.ChecklistPatch{Title: req.Title, Done: req.Done, Place: checklistPlace(req.AfterItemID)})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewChecklistItem(*it))
}

// workTaskCustomFieldPut serves PUT /api/v1/work/tasks/{task_id}/custom-fields/{task_custom_field_id}.
func (s *Server) workTaskCustomFieldPut(c *gin.Context) {
	var req struct {
		Value any `json:"value"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	v, err := s.Work.SetFieldValue(c, workAccess(c), task(c), customField(c), req.Value)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewFieldValue(task(c).ID, *v))
}
