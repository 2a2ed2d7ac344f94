package automation

import (
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// RunStarted is the domain event of a run handed to the engine: created, or re-opened to
// run again (retry-action), so that the runs started less the runs finished are the runs
// not finished.
type RunStarted struct {
	RunID       uuid.UUID `json:"workflow_run_id"`
	TriggerType string    `json:"trigger_type"`
}

func (RunStarted) EventName() string { return "workflow_run.started" }

// RunFinished is the domain event of a run that reached a terminal status, once per
// finish: a batch written again (a replayed workflow task) finds the run finished already.
type RunFinished struct {
	RunID       uuid.UUID `json:"workflow_run_id"`
	CompanyID   uuid.UUID `json:"company_id"`
	ProjectID   uuid.UUID `json:"project_id"`
	WorkflowID  uuid.UUID `json:"workflow_id"`
	TriggerType string    `json:"trigger_type"`
	IsTest      bool      `json:"is_test"`
	Status      RunStatus `json:"status"`
	// Reason is the run's terminal reason.
	Reason     string    `json:"reason"`
	FinishedAt time.Time `json:"finished_at"`
}

func (RunFinished) EventName() string { return "workflow_run.finished" }

// recordFinish reads the run that the write u is about to give its status and, when that
// write finishes it (the status is terminal and the stored one is not), records RunFinished
// in tx and queues the run's end for run.event_trigger (queueRunEnd). It answers whether
// it recorded one.
func recordFinish(tx *gorm.DB, runID uuid.UUID, u *RunUpdate, at time.Time) (bool, error) {
	if !(&Run{Status: u.Status}).Terminal() {
		return false, nil
	}
	var before Run
	err := tx.Select("id", "company_id", "project_id", "workflow_id", "status", "trigger_type", "trigger_action_key", "is_test").
		Take(&before, "id = ?", runID).Error
	if err != nil {
		return false, err
	}
	if before.Terminal() {
		return false, nil
	}
	if err := queueRunEnd(tx, &before, u, at); err != nil {
		return false, err
	}
	return true, models.RecordEvent(tx, at, RunFinished{
		RunID:       before.ID,
		CompanyID:   before.CompanyID,
		ProjectID:   before.ProjectID,
		WorkflowID:  before.WorkflowID,
		TriggerType: before.TriggerType,
		IsTest:      before.IsTest,
		Status:      u.Status,
		Reason:      u.TerminalReason,
		FinishedAt:  at,
	})
}
