package schedules

import (
	"context"

	"github.com/google/uuid"

	"agencyhub/engine"
	"agencyhub/models/automation"
)

// Publisher is the one path by which a workflow's current version changes, publish or
// restore: the version and its trigger index are written together, then the workflow's
// schedules follow.
type Publisher struct {
	Workflows *automation.Service
	Schedules *Schedules
	Drafts    *engine.Drafts
}

// Publish freezes the draft as the next version (automation.Service.Publish, which also
// indexes its triggers) and brings the workflow's schedules in line with it. Errors:
// invalid (the draft's problems, Drafts.Validate's, or a cron expression schedules cannot
// run), conflict (archived, or a concurrent publish), unavailable (the version is
// published but its schedules could not be updated; publishing or restoring again repairs
// them).
func (p *Publisher) Publish(ctx context.Context, w *automation.Workflow, userID uuid.UUID,
	description *string) (*automation.Version, error) {
	if err := w.RequireLive(); err != nil {
		return nil, err
	}
	d := w.Draft()
	if err := p.Drafts.Require(ctx, w, d.Graph); err != nil {
		return nil, err
	}
	if err := checkSchedules(d.Graph); err != nil {
		return nil, err
	}
	v, err := p.Workflows.Publish(ctx, w, userID, description)
	if err != nil {
		return nil, err
	}
	return v, p.Schedules.Sync(ctx, w)
}

// Restore makes a version current again (automation.Service.Restore) and brings the
// workflow's schedules in line with it. Errors: not_found, invalid (a cron expression
// schedules cannot run), conflict (archived), unavailable (restored, but the schedules
// could not be updated).
func (p *Publisher) Restore(ctx context.Context, w *automation.Workflow, versionID uuid.UUID) (*automation.Workflow, error) {
	if err := w.RequireLive(); err != nil {
		return nil, err
	}
	v, err := p.Workflows.Version(ctx, w.ID, versionID)
	if err != nil {
		return nil, err
	}
	if err := checkSchedules(v.Graph()); err != nil {
		return nil, err
	}
	restored, err := p.Workflows.Restore(ctx, w, versionID)
	if err != nil {
		return nil, err
	}
	return restored, p.Schedules.Sync(ctx, w)
}

// Patch changes a workflow's own settings (automation.Service.Patch); archiving pauses its
// schedules and restoring resumes those its current version enables. Errors: invalid,
// not_found, unavailable (changed, but the schedules could not be updated; patching
// "archived" again repairs them).
func (p *Publisher) Patch(ctx context.Context, w *automation.Workflow, patch automation.WorkflowSettingsPatch) (*automation.Workflow, error) {
	out, err := p.Workflows.Patch(ctx, w, patch)
	if err != nil || patch.Archived == nil {
		return out, err
	}
	return out, p.Schedules.Sync(ctx, out)
}
