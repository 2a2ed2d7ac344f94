package automation

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
)

// Bulk operations and what they do to each run.
const (
	BulkRetry  = "retry"
	BulkReplay = "replay"
	BulkCancel = "cancel"
)

// BulkOperations are the operations a bulk operation may perform.
var BulkOperations = []string{BulkRetry, BulkReplay, BulkCancel}

// MaxBulkRuns is the most runs one bulk operation may select.
const MaxBulkRuns = 10_000

// Statuses of a bulk operation.
const (
	BulkRunning   = "running"
	BulkSucceeded = "succeeded"
	BulkCancelled = "cancelled"
)

// Outcomes of one run of a bulk operation: pending until its turn, acting while it acts
// (an activity that finds its item acting may have acted already), then done, failed (the
// engine could not act, after its retries), refused (the run was not in a state the
// operation applies to; the reason is the refusal's error key) or skipped (the operation
// was cancelled first).
const (
	BulkItemPending = "pending"
	BulkItemActing  = "acting"
	BulkItemDone    = "done"
	BulkItemFailed  = "failed"
	BulkItemRefused = "refused"
	BulkItemSkipped = "skipped"
)

// BulkOperation is one retry, replay or cancel of many runs of a project.
type BulkOperation struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	ProjectID uuid.UUID
	Operation string
	// Version is a replay's: original or latest.
	Version        string
	IdempotencyKey string
	// RequestHash identifies the request the key was first sent with: the same key with
	// another selection is a conflict, not that operation again.
	RequestHash string
	Status      string
	CreatedBy   *uuid.UUID
	CreatedAt   time.Time
	UpdatedAt   time.Time
	FinishedAt  *time.Time
}

func (BulkOperation) TableName() string { return "bulk_operations" }

// BulkItem is one run of a bulk operation.
type BulkItem struct {
	BulkOperationID uuid.UUID `gorm:"primaryKey"`
	RunID           uuid.UUID `gorm:"primaryKey"`
	Position        int
	Outcome         string
	Reason          string
	// ResultRunID is the run a replay started.
	ResultRunID *uuid.UUID
}

func (BulkItem) TableName() string { return "bulk_operation_runs" }

// BulkCounts are how far a bulk operation got: Total runs, of which Done acted, Failed
// could not, Refused did not apply, and the rest are pending or were skipped.
type BulkCounts struct {
	Total, Done, Failed, Refused, Skipped int
}

// SelectRuns answers the runs of the project that filter keeps, oldest first, at most
// limit of them. Errors: invalid (the filter's).
func (s *Service) SelectRuns(ctx context.Context, companyID, projectID uuid.UUID, filter RunFilter, limit int) ([]Run, error) {
	q, order, err := filter.apply(s.DB.WithContext(ctx).Table("workflow_runs").Select("workflow_runs.*").
		Where("workflow_runs.project_id = ? AND workflow_runs.company_id = ?", projectID, companyID), projectID)
	if err != nil {
		return nil, err
	}
	var rows []Run
	if err := q.Order(order).Limit(limit).Find(&rows).Error; err != nil {
		return nil, models.Internal("select runs: %w", err)
	}
	return rows, nil
}

// ProjectRunsByID answers those of ids that are runs of the project, in the order of ids;
// the others are left out.
func (s *Service) ProjectRunsByID(ctx context.Context, companyID, projectID uuid.UUID, ids []uuid.UUID) ([]Run, error) {
	var rows []Run
	for chunk := range slices.Chunk(ids, 500) {
		var part []Run
		if err := s.DB.WithContext(ctx).Where("company_id = ? AND project_id = ? AND id IN ?", companyID, projectID, chunk).
			Find(&part).Error; err != nil {
			return nil, models.Internal("read runs: %w", err)
		}
		rows = append(rows, part...)
	}
	at := make(map[uuid.UUID]int, len(ids))
	for i, id := range ids {
		if _, seen := at[id]; !seen {
			at[id] = i
		}
	}
	slices.SortFunc(rows, func(a, b Run) int { return at[a.ID] - at[b.ID] })
	return rows, nil
}

// CreateBulkOperation stores op with its runs, all pending, or answers the operation the
// project already has under op's idempotency key (created false). Errors: conflict (the
// key was used for another request), internal.
func (s *Service) CreateBulkOperation(ctx context.Context, op *BulkOperation, runIDs []uuid.UUID) (*BulkOperation, bool, error) {
	if existing, err := s.bulkOperationByKey(ctx, op.ProjectID, op.IdempotencyKey); err == nil {
		return sameRequest(existing, op)
	} else if !models.IsKind(err, models.KindNotFound) {
		return nil, false, err
	}
	now := time.Now().UTC()
	op.ID, op.Status, op.CreatedAt, op.UpdatedAt = models.NewID(), BulkRunning, now, now
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(op).Error; err != nil {
			return err
		}
		items := make([]BulkItem, len(runIDs))
		for i, id := range runIDs {
			items[i] = BulkItem{BulkOperationID: op.ID, RunID: id, Position: i, Outcome: BulkItemPending}
		}
		return tx.CreateInBatches(items, 500).Error
	})
	if models.IsUniqueViolation(err) {
		existing, err := s.bulkOperationByKey(ctx, op.ProjectID, op.IdempotencyKey)
		if err != nil {
			return nil, false, err
		}
		return sameRequest(existing, op)
	}
	if err != nil {
		return nil, false, models.Internal("create bulk operation: %w", err)
	}
	return op, true, nil
}

// sameRequest answers existing, found under the key op was sent with, when op is the same
// request. Errors: conflict.
func sameRequest(existing, op *BulkOperation) (*BulkOperation, bool, error) {
	if existing.RequestHash != op.RequestHash {
		return nil, false, models.Conflict("bulk_key_reused", "Idempotency-Key")
	}
	return existing, false, nil
}

func (s *Service) bulkOperationByKey(ctx context.Context, projectID uuid.UUID, key string) (*BulkOperation, error) {
	var op BulkOperation
	err := s.DB.WithContext(ctx).Take(&op, "project_id = ? AND idempotency_key = ?", projectID, key).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("bulk_operation_not_found")
	}
	if err != nil {
		return nil, models.Internal("read bulk operation: %w", err)
	}
	return &op, nil
}

// BulkOperationAccess reads a bulk operation with the caller's standing in its company.
// Errors: not_found (also for another company's).
func (s *Service) BulkOperationAccess(ctx context.Context, userID, id uuid.UUID) (*BulkOperation, *company.Access, error) {
	return company.LoadOwned(ctx, s.Company, userID, id, "bulk_operation_not_found",
		func(op *BulkOperation) uuid.UUID { return op.CompanyID })
}

// BulkOperation reads a bulk operation. Errors: not_found.
func (s *Service) BulkOperation(ctx context.Context, id uuid.UUID) (*BulkOperation, error) {
	var op BulkOperation
	err := s.DB.WithContext(ctx).Take(&op, "id = ?", id).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("bulk_operation_not_found")
	}
	if err != nil {
		return nil, models.Internal("read bulk operation: %w", err)
	}
	return &op, nil
}

// BulkOperations lists a project's bulk operations in the order page asks (by start).
func (s *Service) BulkOperations(ctx context.Context, projectID uuid.UUID, page models.PageRequest) ([]BulkOperation, string, error) {
	var rows []BulkOperation
	q := s.DB.WithContext(ctx).Where("project_id = ?", projectID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list bulk operations: %w", err)
	}
	items, next := models.Page(page, rows, func(op BulkOperation) uuid.UUID { return op.ID })
	return items, next, nil
}

// BulkCounts counts a bulk operation's runs by outcome.
func (s *Service) BulkCounts(ctx context.Context, id uuid.UUID) (BulkCounts, error) {
	var rows []struct {
		Outcome string
		N       int
	}
	if err := s.DB.WithContext(ctx).Model(&BulkItem{}).Select("outcome, COUNT(*) AS n").
		Where("bulk_operation_id = ?", id).Group("outcome").Scan(&rows).Error; err != nil {
		return BulkCounts{}, models.Internal("count bulk operation runs: %w", err)
	}
	var c BulkCounts
	for _, r := range rows {
		c.Total += r.N
		switch r.Outcome {
		case BulkItemDone:
			c.Done = r.N
		case BulkItemFailed:
			c.Failed = r.N
		case BulkItemRefused:
			c.Refused = r.N
		case BulkItemSkipped:
			c.Skipped = r.N
		}
	}
	return c, nil
}

// BulkItems lists a bulk operation's runs in their order.
func (s *Service) BulkItems(ctx context.Context, id uuid.UUID) ([]BulkItem, error) {
	var rows []BulkItem
	if err := s.DB.WithContext(ctx).Where("bulk_operation_id = ?", id).Order("position").Find(&rows).Error; err != nil {
		return nil, models.Internal("list bulk operation runs: %w", err)
	}
	return rows, nil
}

// NextBulkItems answers up to limit of a bulk operation's runs not yet settled (pending, or
// acting when a worker died while it acted), in their order.
func (s *Service) NextBulkItems(ctx context.Context, id uuid.UUID, limit int) ([]BulkItem, error) {
	var rows []BulkItem
	if err := s.DB.WithContext(ctx).Where("bulk_operation_id = ? AND outcome IN ?", id, []string{BulkItemPending, BulkItemActing}).
		Order("position").Limit(limit).Find(&rows).Error; err != nil {
		return nil, models.Internal("list bulk operation runs: %w", err)
	}
	return rows, nil
}

// BeginBulkItem marks a run of a running operation acting, and answers what it was before:
// pending (it has not acted), acting (an earlier attempt may have), or another outcome
// (it is settled, or the operation was cancelled and it is skipped). Errors: internal.
func (s *Service) BeginBulkItem(ctx context.Context, opID, runID uuid.UUID) (string, error) {
	var before string
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var op BulkOperation
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&op, "id = ?", opID).Error; err != nil {
			return err
		}
		var item BulkItem
		if err := tx.Take(&item, "bulk_operation_id = ? AND run_id = ?", opID, runID).Error; err != nil {
			return err
		}
		before = item.Outcome
		if item.Outcome != BulkItemPending && item.Outcome != BulkItemActing {
			return nil
		}
		next := BulkItemActing
		if op.Status != BulkRunning {
			next, before = BulkItemSkipped, BulkItemSkipped
		}
		return tx.Model(&item).Where("bulk_operation_id = ? AND run_id = ?", opID, runID).Update("outcome", next).Error
	})
	if err != nil {
		return "", models.Internal("begin bulk operation run: %w", err)
	}
	return before, nil
}

// SettleBulkItem records what became of a run of a bulk operation.
func (s *Service) SettleBulkItem(ctx context.Context, item BulkItem) error {
	err := s.DB.WithContext(ctx).Model(&BulkItem{}).
		Where("bulk_operation_id = ? AND run_id = ?", item.BulkOperationID, item.RunID).
		Updates(map[string]any{"outcome": item.Outcome, "reason": item.Reason, "result_run_id": item.ResultRunID}).Error
	if err != nil {
		return models.Internal("settle bulk operation run: %w", err)
	}
	return nil
}

// CancelBulkOperation stops a running operation: its runs not yet begun are skipped.
// Errors: conflict (it has finished).
func (s *Service) CancelBulkOperation(ctx context.Context, op *BulkOperation) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := time.Now().UTC()
		res := tx.Model(&BulkOperation{}).Where("id = ? AND status = ?", op.ID, BulkRunning).
			Updates(map[string]any{"status": BulkCancelled, "updated_at": now, "finished_at": now})
		if res.Error != nil {
			return models.Internal("cancel bulk operation: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return models.Conflict("bulk_operation_finished")
		}
		if err := tx.Model(&BulkItem{}).Where("bulk_operation_id = ? AND outcome = ?", op.ID, BulkItemPending).
			Update("outcome", BulkItemSkipped).Error; err != nil {
			return models.Internal("skip bulk operation runs: %w", err)
		}
		op.Status, op.FinishedAt, op.UpdatedAt = BulkCancelled, &now, now
		return nil
	})
}

// FinishBulkOperation records a running operation finished once its runs have settled; a
// cancelled one stays cancelled.
func (s *Service) FinishBulkOperation(ctx context.Context, id uuid.UUID) error {
	now := time.Now().UTC()
	err := s.DB.WithContext(ctx).Model(&BulkOperation{}).Where("id = ? AND status = ?", id, BulkRunning).
		Updates(map[string]any{"status": BulkSucceeded, "updated_at": now, "finished_at": now}).Error
	if err != nil {
		return models.Internal("finish bulk operation: %w", err)
	}
	return nil
}
