package engine

import (
	"context"
	"testing"

	"agencyhub/activities"
	"agencyhub/models/automation"
)

// terminalUpdate is the run update of the execution's last batch that wrote one.
func terminalUpdate(t *testing.T, l *progressLog) *automation.RunUpdate {
	t.Helper()
	batches := l.snapshot()
	for i := len(batches) - 1; i >= 0; i-- {
		if u := batches[i].Run; u != nil {
			return u
		}
	}
	t.Fatal("no batch wrote the run")
	return nil
}

// TestTheEndOfAFailedRunNamesTheActionThatFailedIt: the terminal write of a failed run
// carries the action whose failure failed it, which the run's end event hands to
// run.event_trigger as run_event.failed_action_key; a failure an error path handles
// fails no run and names none.
func TestTheEndOfAFailedRunNamesTheActionThatFailedIt(t *testing.T) {
	refuse := func(context.Context, activities.Request) (activities.Result, error) {
		return activities.Result{}, activities.Fail(activities.ClassPermanent, "declined", "the card was declined", "Use another card")
	}
	t.Run("a failure that fails the run", func(t *testing.T) {
		h := newEngineTest(t)
		h.fakes.on("charge", refuse)
		wantRun(t, h.execute(h.newRun(failureGraph(), "start", nil)), automation.RunFailed)
		if u := terminalUpdate(t, h.log); u.Status != automation.RunFailed || u.FailedActionKey != "charge" {
			t.Fatalf("the run's end %+v, want failed by charge", u)
		}
	})
	t.Run("a failure an error path handles", func(t *testing.T) {
		h := newEngineTest(t)
		h.fakes.on("charge", refuse)
		h.fakes.on("receipt", func(context.Context, activities.Request) (activities.Result, error) {
			return activities.Result{Output: map[string]any{"message_id": "m1"}}, nil
		})
		g := failureGraph()
		g.Connections = []automation.Connection{{From: "start", To: "charge"}, {From: "charge", To: "receipt", Branch: automation.BranchError}}
		wantRun(t, h.execute(h.newRun(g, "start", nil)), automation.RunSucceeded)
		if u := terminalUpdate(t, h.log); u.FailedActionKey != "" {
			t.Fatalf("the run's end %+v names a failed action", u)
		}
	})
}
