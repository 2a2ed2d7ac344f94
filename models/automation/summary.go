package automation

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
)

// Summary is what a list of workflows tells of each beyond the workflow itself: how it
// starts and how it last ran.
type Summary struct {
	// TriggerTypes are the action types of the workflow's trigger actions, each once, in
	// graph order: the current version's when it has one, else the draft's.
	TriggerTypes []string
	// LastRun is the workflow's newest run of any kind, test runs included; nil when none.
	LastRun *LastRun
}

// LastRun is the part of a run a list of workflows shows.
type LastRun struct {
	ID         uuid.UUID
	WorkflowID uuid.UUID
	Status     RunStatus
	CreatedAt  time.Time
	FinishedAt *time.Time
}

func (LastRun) TableName() string { return "workflow_runs" }

// Summaries answers the Summary of each of a company's workflows ws, by workflow id, in two
// queries whatever the number of workflows: one of the trigger index for the published
// ones, one for the newest run of each. Errors: internal.
func (s *Service) Summaries(ctx context.Context, companyID uuid.UUID, ws []Workflow) (map[uuid.UUID]Summary, error) {
	out := make(map[uuid.UUID]Summary, len(ws))
	if len(ws) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(ws))
	var published []uuid.UUID
	for i := range ws {
		ids[i] = ws[i].ID
		if ws[i].CurrentVersionID != nil {
			published = append(published, ws[i].ID)
		} else {
			out[ws[i].ID] = Summary{TriggerTypes: s.draftTriggerTypes(&ws[i])}
		}
	}
	if len(published) > 0 {
		var triggers []Trigger
		if err := s.DB.WithContext(ctx).Select("workflow_id", "action_type_key").
			Where("company_id = ? AND workflow_id IN ?", companyID, published).
			Order("workflow_id, position").Find(&triggers).Error; err != nil {
			return nil, models.Internal("read triggers of workflows: %w", err)
		}
		for _, id := range published {
			out[id] = Summary{TriggerTypes: []string{}}
		}
		for _, t := range triggers {
			sum := out[t.WorkflowID]
			if !slices.Contains(sum.TriggerTypes, t.ActionTypeKey) {
				sum.TriggerTypes = append(sum.TriggerTypes, t.ActionTypeKey)
			}
			out[t.WorkflowID] = sum
		}
	}
	// Runs are ordered by id, a UUIDv7, so each workflow's newest is one step down the
	// (workflow_id, id) index.
	newest := s.DB.Table("workflows").Where("company_id = ? AND id IN ?", companyID, ids).
		Select("(SELECT r.id FROM workflow_runs r WHERE r.workflow_id = workflows.id ORDER BY r.id DESC LIMIT 1)")
	var runs []LastRun
	if err := s.DB.WithContext(ctx).Select("id", "workflow_id", "status", "created_at", "finished_at").
		Where("company_id = ? AND id IN (?)", companyID, newest).Find(&runs).Error; err != nil {
		return nil, models.Internal("read last runs of workflows: %w", err)
	}
	for i := range runs {
		sum := out[runs[i].WorkflowID]
		sum.LastRun = &runs[i]
		out[runs[i].WorkflowID] = sum
	}
	return out, nil
}

// draftTriggerTypes are the action types of the draft's trigger actions, each once, in
// graph order.
func (s *Service) draftTriggerTypes(w *Workflow) []string {
	types := []string{}
	for _, a := range w.Draft().Graph.Actions {
		if t, ok := s.Catalog.Action(a.ActionTypeKey); ok && t.Trigger && !slices.Contains(types, a.ActionTypeKey) {
			types = append(types, a.ActionTypeKey)
		}
	}
	return types
}
