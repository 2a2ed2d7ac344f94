package activities

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/work"
)

// ActionTaskCreate is the action type key of TaskCreate.
const ActionTaskCreate = "task.create"

// TaskStore creates the tasks of task.create; *work.Service is the real one.
type TaskStore interface {
	CreateRunTask(ctx context.Context, companyID, projectID, runID uuid.UUID, actionKey string, in work.TaskInput) (map[string]any, error)
}

// TaskCreate is the task.create action: it creates a task in the work tracker, on a board
// of the run's project (or of its company as a whole). The task is keyed by the run and
// the action, so a retry of an attempt whose answer was lost, or a replay's retry of the
// action, answers the task the first attempt created instead of creating a second one.
//
// Config: board_id, title (required); status (a column's status, default the first),
// description, assignee_user_id, priority, due_date (YYYY-MM-DD), labels; templates
// rendered. Output: the task as {{ task.* }} reads it (task_id, title, status, ...).
type TaskCreate struct {
	Tasks TaskStore
}

// Run creates the task, or finds the one an earlier attempt created.
func (a TaskCreate) Run(ctx context.Context, req Request) (Result, error) {
	var in work.TaskInput
	var err error
	text := func(field string) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = optionalString(req.Config, field)
		return s
	}
	id := func(field string) *uuid.UUID {
		s := text(field)
		if err != nil || s == "" {
			return nil
		}
		parsed, perr := uuid.Parse(s)
		if perr != nil {
			err = invalidField(field, "field_uuid", nil)
			return nil
		}
		return &parsed
	}
	board := id("board_id")
	in.Status, in.Title, in.Priority = text("status"), text("title"), text("priority")
	in.Description, _ = rawString(req.Config, "description")
	in.AssigneeID = id("assignee_user_id")
	if due := text("due_date"); err == nil && due != "" {
		d, perr := models.ParseDate(due)
		if perr != nil {
			return Result{}, invalidField("due_date", "field_date", nil)
		}
		in.DueDate = &d
	}
	if err != nil {
		return Result{}, err
	}
	if board == nil {
		return Result{}, invalidField("board_id", "field_required", nil)
	}
	in.BoardID = *board
	if labels, ok := req.Config["labels"].([]any); ok {
		for _, l := range labels {
			if s, ok := l.(string); ok && strings.TrimSpace(s) != "" {
				in.Labels = append(in.Labels, s)
			}
		}
	}
	task, err := a.Tasks.CreateRunTask(ctx, req.CompanyID, req.ProjectID, req.RunID, req.ActionKey, in)
	switch {
	case models.IsKind(err, models.KindInvalid):
		e := models.AsError(err)
		return Result{}, Failed(ClassValidation, e.Key, "task_invalid", "", Args{"fields": strings.Join(e.Fields, ", ")})
	case err != nil:
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, Failed(ClassTransient, "task_not_saved", "task_not_saved", "retried.next", nil)
	}
	return Result{Output: task}, nil
}
