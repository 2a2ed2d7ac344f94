package integration

import (
	"context"
	"maps"
	"reflect"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// Outcomes of a connection test.
const (
	TestOK         = "ok"
	TestFailed     = "failed"
	TestUntestable = "untestable"
)

// TestResult is the outcome of a connection test. RetryClass is one of the specification's
// retry classes when Status is failed, empty otherwise; ReasonCode is a machine code (ok,
// untestable, or why it failed) and Message says the same for a person.
type TestResult struct {
	Status, RetryClass, ReasonCode, Message string
	CheckedAt                               time.Time
}

// RecordTest stores the result of a connection test of d, checked now, and the metadata
// fields the provider told (learned: a bot's user name), unless the credential or the
// settings changed since d was read: the result would describe something that no longer
// exists. It answers the dependency as it now is and the result as stored.
func (s *Service) RecordTest(ctx context.Context, d *ActionDependency, r TestResult,
	learned map[string]any) (*ActionDependency, TestResult, error) {
	r.CheckedAt = s.now()
	metadata := d.Metadata
	if len(learned) > 0 {
		metadata = maps.Clone(d.Metadata)
		if metadata == nil {
			metadata = map[string]any{}
		}
		maps.Copy(metadata, learned)
	}
	var out *ActionDependency
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		current, err := loadInProject[ActionDependency](
			tx,
			d.CompanyID,
			d.ProjectID,
			d.ID,
			"action_dependency_not_found",
			clause.Locking{Strength: "UPDATE"},
		)
		if err != nil {
			return err
		}
		out = current
		if current.AuthSealed != d.AuthSealed || !reflect.DeepEqual(current.Metadata, d.Metadata) {
			return nil
		}
		columns := lastTestColumns
		if !reflect.DeepEqual(metadata, d.Metadata) {
			current.Metadata = metadata
			current.UpdatedAt = r.CheckedAt
			columns = append([]string{"metadata", "updated_at"}, lastTestColumns...)
		}
		checkedAt := r.CheckedAt
		current.LastTestStatus, current.LastTestRetryClass, current.LastTestReasonCode = r.Status, r.RetryClass, r.ReasonCode
		current.LastTestMessage, current.LastTestedAt = r.Message, &checkedAt
		err = tx.Model(&ActionDependency{ID: d.ID}).Where("company_id = ? AND project_id = ?", d.CompanyID, d.ProjectID).
			Select(columns).Updates(current).Error
		if err != nil {
			return models.Internal("record test of action dependency: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, TestResult{}, models.AsError(err)
	}
	return out, r, nil
}
