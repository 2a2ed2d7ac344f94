package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/billing"
)

// paymentActionDocumentView is a document of a payment action with a link that downloads
// it for 15 minutes.
type paymentActionDocumentView struct {
	PaymentActionDocumentID uuid.UUID `json:"payment_action_document_id"`
	PaymentActionID         uuid.UUID `json:"payment_action_id"`
	Kind                    string    `json:"kind"`
	fileView
	CreatedBy   uuid.UUID `json:"created_by"`
	CreatedAt   time.Time `json:"created_at"`
	DownloadURL string    `json:"download_url"`
}

func (s *Server) viewDocuments(c *gin.Context) func([]billing.PaymentActionDocument) ([]paymentActionDocumentView, error) {
	return func(docs []billing.PaymentActionDocument) ([]paymentActionDocumentView, error) {
		out := make([]paymentActionDocumentView, len(docs))
		for i, d := range docs {
			url, err := s.Files.DownloadURL(c, d.StorageKey, d.Download())
			if err != nil {
				return nil, err
			}
			out[i] = paymentActionDocumentView{
				PaymentActionDocumentID: d.ID,
				PaymentActionID:         d.PaymentActionID,
				Kind:                    d.Kind,
				fileView:                viewFile(d.Meta),
				CreatedBy:               d.CreatedBy,
				CreatedAt:               d.CreatedAt,
				DownloadURL:             url,
			}
		}
		return out, nil
	}
}

// renderDocument answers one document with status.
func (s *Server) renderDocument(c *gin.Context, status int, d *billing.PaymentActionDocument) {
	views, err := s.viewDocuments(c)([]billing.PaymentActionDocument{*d})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(status, views[0])
}

// paymentActionDocumentList serves GET /api/v1/payment-actions/{payment_action_id}/documents.
func (s *Server) paymentActionDocumentList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]billing.PaymentActionDocument, string, error) {
		return s.Billing.Documents(c, paymentAction(c), page)
	}, s.viewDocuments(c))
}

// paymentActionDocumentCreate serves POST /api/v1/payment-actions/{payment_action_id}/documents:
// a multipart/form-data body with the file in `file` and its `kind` (default other).
func (s *Server) paymentActionDocumentCreate(c *gin.Context) {
	file, name, err := uploadedFile(c, billing.DocumentLimits.MaxBytes, "payment_document_file_required")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	defer file.Close()
	kind := c.DefaultPostForm("kind", "other")
	d, err := s.Billing.AddDocument(c, s.Files, paymentAction(c), actor(c).UserID, kind, name, file)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderDocument(c, http.StatusCreated, d)
}

// paymentActionDocumentGet serves GET /api/v1/payment-action-documents/{payment_action_document_id}.
func (s *Server) paymentActionDocumentGet(c *gin.Context) {
	s.renderDocument(c, http.StatusOK, paymentDocument(c))
}
