package automation

import (
	"context"
	"log/slog"

	"github.com/google/uuid"
)

// RunTopic is the event bus topic of a run: every change of its projection is published
// there, so its event stream and receipt waits wake at once instead of polling.
func RunTopic(runID uuid.UUID) string { return "run:" + runID.String() }

// notify tells the run's subscribers that its projection changed. The change is stored
// already; a notification that does not go out only delays them until their safety poll.
func (s *Service) notify(ctx context.Context, runID uuid.UUID) {
	if err := s.Bus.Publish(ctx, RunTopic(runID), nil); err != nil {
		slog.WarnContext(ctx, "run change not published", "workflow_run_id", runID, "err", err)
	}
}
