package api

import (
	"errors"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/models"
)

// uploadOverhead is what a multipart body may add to its file: the other fields and the
// part headers.
const uploadOverhead = 1 << 20

// uploadedFile opens the file of a multipart/form-data body's `file` field, reading at
// most maxBytes of file (and uploadOverhead of the rest), and answers it with its name;
// the caller closes it. Errors: invalid (body: not multipart, 415; too large, 413; file:
// missing, under missingKey).
func uploadedFile(c *gin.Context, maxBytes int64, missingKey string) (multipart.File, string, error) {
	if mt, _, _ := mime.ParseMediaType(c.ContentType()); mt != "multipart/form-data" {
		return nil, "", models.Invalid("unsupported_media_type", "body")
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxBytes+uploadOverhead)
	fh, err := c.FormFile("file")
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, "", models.Invalid("body_too_large", "body")
	case err != nil:
		return nil, "", models.Invalid(missingKey, "file")
	}
	file, err := fh.Open()
	if err != nil {
		return nil, "", models.Internal("open uploaded file: %w", err)
	}
	return file, fh.Filename, nil
}
