package billing

import (
	"context"
	"io"
	"slices"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/platform/filestore"
)

// DocumentKinds are what a payment action's document is.
var DocumentKinds = []string{"invoice", "act", "receipt", "other"}

// DocumentLimits are what a payment action's document may be: at most 10 MiB of PDF, an
// image or plain text, by the type sniffed from its bytes.
var DocumentLimits = filestore.Limits{
	MaxBytes:     10 << 20,
	AllowedTypes: []string{"application/pdf", "image/png", "image/jpeg", "image/webp", "text/plain"},
}

// PaymentActionDocument is a file kept with a payment action, in the blob store under
// StorageKey.
type PaymentActionDocument struct {
	ID              uuid.UUID `gorm:"primaryKey"`
	CompanyID       uuid.UUID
	PaymentActionID uuid.UUID
	Kind            string
	filestore.Meta  `gorm:"embedded"`
	CreatedBy       uuid.UUID
	CreatedAt       time.Time
}

// DocumentAccess returns a document and the caller's standing in its company.
// Errors: not_found.
func (s *Service) DocumentAccess(ctx context.Context, userID, id uuid.UUID) (*PaymentActionDocument, *company.Access, error) {
	return company.LoadOwned(
		ctx,
		s.Companies,
		userID,
		id,
		"payment_document_not_found",
		func(d *PaymentActionDocument) uuid.UUID { return d.CompanyID },
	)
}

// Documents lists a page of an action's documents.
func (s *Service) Documents(ctx context.Context, a *PaymentAction, page models.PageRequest) ([]PaymentActionDocument, string, error) {
	var rows []PaymentActionDocument
	q := s.DB.WithContext(ctx).Where("payment_action_id = ?", a.ID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list payment action documents: %w", err)
	}
	rows, next := models.Page(page, rows, func(d PaymentActionDocument) uuid.UUID { return d.ID })
	return rows, next, nil
}

// AddDocument stores body in files as a document of an action, then records it; a record
// that fails removes the file again (filestore.PutRecorded). The name is kept as
// filestore.BaseName makes it. Errors: invalid (kind, file_name; file: too large or of a type
// DocumentLimits refuses).
func (s *Service) AddDocument(ctx context.Context, files *filestore.Store, a *PaymentAction, userID uuid.UUID,
	kind, name string, body io.Reader) (*PaymentActionDocument, error) {
	name, nameOK := filestore.BaseName(name)
	var bad fieldCheck
	bad.check("kind", slices.Contains(DocumentKinds, kind))
	bad.check("file_name", nameOK)
	if err := bad.err("invalid_payment_document"); err != nil {
		return nil, err
	}
	d := PaymentActionDocument{
		ID:              models.NewID(),
		CompanyID:       a.CompanyID,
		PaymentActionID: a.ID,
		Kind:            kind,
		Meta:            filestore.Meta{FileName: name},
		CreatedBy:       userID,
		CreatedAt:       s.now(),
	}
	d.StorageKey = "billing/" + a.CompanyID.String() + "/" + a.ID.String() + "/" + d.ID.String()
	_, err := files.PutRecorded(ctx, d.StorageKey, body, DocumentLimits, func(obj filestore.Object) error {
		d.Fill(obj)
		if err := s.DB.WithContext(ctx).Create(&d).Error; err != nil {
			return models.Internal("record payment action document: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}
