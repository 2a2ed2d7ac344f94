package aiemployee

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Proposal statuses.
const (
	ProposalOpen    = "proposed"
	ProposalApplied = "applied"
)

// Proposal is a workflow patch the employee proposed, checked by the patch importer
// without saving: applying it to the draft is a write tool.
type Proposal struct {
	ID          uuid.UUID `gorm:"primaryKey"`
	CompanyID   uuid.UUID
	ProjectID   uuid.UUID
	SessionID   uuid.UUID
	WorkflowID  uuid.UUID
	Patch       map[string]any `gorm:"column:patch_json;serializer:json"`
	Diagnostics []any          `gorm:"column:diagnostics_json;serializer:json"`
	Status      string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// TableName is the proposals' table.
func (Proposal) TableName() string { return "ai_patch_proposals" }

// Propose stores a proposal of the session and makes it the session's active one.
func (s *Service) Propose(ctx context.Context, sess *Session, workflowID uuid.UUID, patch map[string]any,
	diagnostics []any) (*Proposal, error) {
	now := s.now()
	p := &Proposal{ID: models.NewID(), CompanyID: sess.CompanyID, ProjectID: sess.ProjectID, SessionID: sess.ID, WorkflowID: workflowID,
		Patch: patch, Diagnostics: diagnostics, Status: ProposalOpen, CreatedAt: now, UpdatedAt: now}
	_, err := s.change(ctx, sess.ID, func(tx *gorm.DB, cur *Session) error {
		if err := tx.Create(p).Error; err != nil {
			return models.Internal("store ai proposal: %w", err)
		}
		cur.ActivePatchProposalID = &p.ID
		return nil
	})
	return p, err
}

// ProposalOf loads a proposal of the session.
func (s *Service) ProposalOf(ctx context.Context, sess *Session, id uuid.UUID) (*Proposal, error) {
	var p Proposal
	err := s.DB.WithContext(ctx).Take(&p, "id = ? AND session_id = ? AND company_id = ?", id, sess.ID, sess.CompanyID).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, models.NotFound("ai_proposal_not_found")
	}
	if err != nil {
		return nil, models.Internal("read ai proposal: %w", err)
	}
	return &p, nil
}

// MarkApplied records that a proposal was applied to its workflow's draft.
func (s *Service) MarkApplied(ctx context.Context, p *Proposal) error {
	err := s.DB.WithContext(ctx).Model(p).Updates(map[string]any{"status": ProposalApplied, "updated_at": s.now()}).Error
	if err != nil {
		return models.Internal("mark ai proposal applied: %w", err)
	}
	return nil
}
