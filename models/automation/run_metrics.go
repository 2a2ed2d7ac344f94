package automation

import (
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// finishingRun reads the run that a write is about to give status, when that write
// finishes it: status is terminal and the stored one is not. A batch written again (a
// replayed workflow task) finds the run finished already, so each finish counts once.
func finishingRun(tx *gorm.DB, runID uuid.UUID, status string) (*Run, error) {
	if !(&Run{Status: status}).Terminal() {
		return nil, nil
	}
	var before Run
	if err := tx.Select("status", "trigger_type").Take(&before, "id = ?", runID).Error; err != nil {
		return nil, err
	}
	if before.Terminal() {
		return nil, nil
	}
	return &before, nil
}

// countFinished records a run that finished with status; finishing is nil when the write
// finished none.
func (s *Service) countFinished(finishing *Run, status string) {
	if finishing != nil {
		s.Metrics.RunFinished(finishing.TriggerType, status)
	}
}
