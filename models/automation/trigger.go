package automation

import (
	"context"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// Trigger is one row of the trigger index: a trigger action of a workflow's current
// version, with the key events find it by. Publish and Restore rewrite a workflow's rows in
// the transaction that changes its current version, so the engine's trigger intake answers
// "which workflows start on this event" with an index hit instead of reading graphs.
type Trigger struct {
	WorkflowID        uuid.UUID `gorm:"primaryKey"`
	ActionKey         string    `gorm:"primaryKey"`
	CompanyID         uuid.UUID
	ProjectID         uuid.UUID
	WorkflowVersionID uuid.UUID
	ActionTypeKey     string
	// TriggerKey is the config value events of the type are addressed by (TriggerKeyFields),
	// "" for types addressed by workflow alone.
	TriggerKey string
	// Position is the action's place in the graph: lookups answer triggers in graph order.
	Position int
	// Config is the trigger action's config as the version holds it.
	Config map[string]any `gorm:"serializer:json"`
}

func (Trigger) TableName() string { return "workflow_triggers" }

// TriggerKeyFields names, per trigger type, the config field its events are addressed by:
// a webhook delivery by its endpoint key, a bot update by the bot's integration. Manual and
// schedule triggers are addressed by workflow and action key. A new kind of trigger is a
// line here (when its events carry a key) and an adapter in the engine's intake.
var TriggerKeyFields = map[string]string{
	TypeWebhook: "endpoint_key",
	TypeRelay:   "action_dependency_id",
}

// TriggerQuery selects index rows; zero fields match anything, but every lookup names the
// trigger type and a workflow or a project.
type TriggerQuery struct {
	ActionTypeKey string
	CompanyID     uuid.UUID
	ProjectID     uuid.UUID
	WorkflowID    uuid.UUID
	TriggerKey    string
	ActionKey     string
}

// Triggers answers the indexed triggers that match q, by workflow and then graph order,
// of workflows that are not archived: an archived workflow's triggers stay indexed, for
// its restore, but no event finds them. Errors: internal.
func (s *Service) Triggers(ctx context.Context, q TriggerQuery) ([]Trigger, error) {
	db := s.DB.WithContext(ctx).Where("action_type_key = ?", q.ActionTypeKey).
		Where("workflow_id NOT IN (SELECT id FROM workflows WHERE archived_at IS NOT NULL)")
	for column, value := range map[string]uuid.UUID{"company_id": q.CompanyID, "project_id": q.ProjectID, "workflow_id": q.WorkflowID} {
		if value != uuid.Nil {
			db = db.Where(column+" = ?", value)
		}
	}
	if q.TriggerKey != "" {
		db = db.Where("trigger_key = ?", q.TriggerKey)
	}
	if q.ActionKey != "" {
		db = db.Where("action_key = ?", q.ActionKey)
	}
	var rows []Trigger
	if err := db.Order("workflow_id, position").Find(&rows).Error; err != nil {
		return nil, models.Internal("read trigger index: %w", err)
	}
	return rows, nil
}

// indexTriggers makes the index hold exactly the triggers of v, w's new current version; it
// runs inside the transaction that makes v current.
func (s *Service) indexTriggers(tx *gorm.DB, w *Workflow, v *Version) error {
	// The workflow's row lock keeps a concurrent publish or restore from mixing its rows in.
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Select("id").Take(&Workflow{}, "id = ?", w.ID).Error; err != nil {
		return err
	}
	if err := tx.Where("workflow_id = ?", v.WorkflowID).Delete(&Trigger{}).Error; err != nil {
		return err
	}
	var rows []Trigger
	for i, a := range v.Graph().Actions {
		if t, ok := s.Catalog.Action(a.ActionTypeKey); !ok || !t.Trigger {
			continue
		}
		key, _ := a.Config[TriggerKeyFields[a.ActionTypeKey]].(string)
		config := a.Config
		if config == nil {
			config = map[string]any{}
		}
		rows = append(rows, Trigger{
			WorkflowID: v.WorkflowID, ActionKey: a.ActionKey, CompanyID: w.CompanyID, ProjectID: w.ProjectID,
			WorkflowVersionID: v.ID, ActionTypeKey: a.ActionTypeKey, TriggerKey: key, Position: i, Config: config,
		})
	}
	if len(rows) == 0 {
		return nil
	}
	return tx.Create(&rows).Error
}
