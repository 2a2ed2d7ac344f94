package work

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/models"
)

// CreateRunTask creates the task of a workflow's task.create action: on a board of the
// run's project or of its company as a whole, with no reporter. It creates one task per
// run and action key however often it is called (a retry answers the task the first call
// made), and answers it as templates read it. Errors: invalid (board_id not a board the
// run may write to, status, the task's fields).
func (s *Service) CreateRunTask(ctx context.Context, companyID, projectID, runID uuid.UUID, actionKey string,
	in TaskInput) (map[string]any, error) {
	b, err := loadIn[Board](s.DB.WithContext(ctx), companyID, in.BoardID, "task_board_not_found")
	if models.IsKind(err, models.KindNotFound) || (err == nil && b.ProjectID != nil && *b.ProjectID != projectID) {
		return nil, models.Invalid("run_task_board_unknown", "board_id")
	}
	if err != nil {
		return nil, err
	}
	key := runID.String() + ":" + actionKey
	row, err := s.createTask(ctx, b, in, nil, &key)
	if err != nil {
		return nil, err
	}
	return TaskScope(row, b), nil
}
