package work

import (
	"context"
	"io"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/platform/filestore"
)

// AttachmentLimits are what a task's attachment may be: any type, at most 25 MiB.
var AttachmentLimits = filestore.Limits{MaxBytes: 25 << 20}

// Attachment is a file attached to a task, in the blob store under StorageKey.
type Attachment struct {
	ID             uuid.UUID `gorm:"primaryKey"`
	CompanyID      uuid.UUID
	TaskID         uuid.UUID
	filestore.Meta `gorm:"embedded"`
	CreatedBy      uuid.UUID
	CreatedAt      time.Time
}

func (Attachment) TableName() string { return "work_task_attachments" }

// AttachmentAccess returns an attachment and the caller's standing in its company.
// Errors: not_found.
func (s *Service) AttachmentAccess(ctx context.Context, userID, id uuid.UUID) (*Attachment, *Access, error) {
	return ownedBy(ctx, s, userID, id, "task_attachment_not_found", func(a *Attachment) uuid.UUID { return a.CompanyID })
}

// Attachments lists a page of a task's attachments. Errors: internal.
func (s *Service) Attachments(ctx context.Context, row *TaskRow, page models.PageRequest) ([]Attachment, string, error) {
	var rows []Attachment
	if err := page.Apply(s.DB.WithContext(ctx).Where("task_id = ?", row.ID), "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list task attachments: %w", err)
	}
	rows, next := models.Page(page, rows, func(a Attachment) uuid.UUID { return a.ID })
	return rows, next, nil
}

// Attach stores body in files as an attachment of a task, then records it; a record that
// fails removes the file again (filestore.PutRecorded). The name is kept as filestore.BaseName
// makes it.
// Errors: forbidden, invalid (file_name; file: too large).
func (s *Service) Attach(ctx context.Context, files *filestore.Store, a *Access, row *TaskRow, name string,
	body io.Reader) (*Attachment, error) {
	if err := a.requireWork(row.ProjectID); err != nil {
		return nil, err
	}
	name, ok := filestore.BaseName(name)
	if !ok {
		return nil, models.Invalid("invalid_attachment_name", "file_name")
	}
	at := Attachment{
		ID:        models.NewID(),
		CompanyID: row.CompanyID,
		TaskID:    row.ID,
		Meta:      filestore.Meta{FileName: name},
		CreatedBy: a.UserID,
		CreatedAt: s.now(),
	}
	at.StorageKey = "work/" + row.CompanyID.String() + "/" + row.ID.String() + "/" + at.ID.String()
	_, err := files.PutRecorded(ctx, at.StorageKey, body, AttachmentLimits, func(obj filestore.Object) error {
		at.Fill(obj)
		if err := s.DB.WithContext(ctx).Create(&at).Error; err != nil {
			return models.Internal("record task attachment: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &at, nil
}
