package automation

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models/desktop"
)

// finishingRun reads the run that a write is about to give status, when that write
// finishes it: status is terminal and the stored one is not. A batch written again (a
// replayed workflow task) finds the run finished already, so each finish counts once.
func finishingRun(tx *gorm.DB, runID uuid.UUID, status string) (*Run, error) {
	if !(&Run{Status: status}).Terminal() {
		return nil, nil
	}
	var before Run
	if err := tx.Select("id", "company_id", "project_id", "workflow_id", "status", "trigger_type", "is_test").Take(&before, "id = ?", runID).Error; err != nil {
		return nil, err
	}
	if before.Terminal() {
		return nil, nil
	}
	return &before, nil
}

// runFinished counts a run that finished with status, and tells the owner of its workflow
// when it failed (a test run's author watches it already). finishing is nil when the write
// finished none. The finish is stored: a notice that cannot be posted is logged, not
// retried.
func (s *Service) runFinished(ctx context.Context, finishing *Run, status, reason string) {
	if finishing == nil {
		return
	}
	s.Metrics.RunFinished(finishing.TriggerType, status)
	if status != RunFailed || finishing.IsTest {
		return
	}
	var w Workflow
	err := s.DB.WithContext(ctx).Select("name", "created_by").Take(&w, "id = ?", finishing.WorkflowID).Error
	if err == nil {
		err = s.Inbox.Post(ctx, desktop.Notice{CompanyID: finishing.CompanyID, UserID: w.CreatedBy, ProjectID: &finishing.ProjectID,
			Kind: desktop.KindRunFailed, Title: fmt.Sprintf("A run of %s failed", w.Name), Body: reason,
			SubjectType: "workflow_run", SubjectID: finishing.ID.String(),
			DedupeKey: fmt.Sprintf("%s:%s:%d", desktop.KindRunFailed, finishing.ID, s.now().UnixMicro())})
	}
	if err != nil {
		slog.WarnContext(ctx, "failed run not told to its owner", "workflow_run_id", finishing.ID, "err", err)
	}
}
