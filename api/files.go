package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/platform/filestore"
)

// fileView is what every view of a stored file shows of it (payment documents, task and
// chat attachments, call recordings): views embed it where these fields stand, and JSON
// flattens it into them.
type fileView struct {
	FileName    string `json:"file_name"`
	ContentType string `json:"content_type"`
	SizeBytes   int64  `json:"size_bytes"`
	SHA256      string `json:"sha256"`
}

func viewFile(m filestore.Meta) fileView {
	return fileView{
		FileName:    m.FileName,
		ContentType: m.ContentType,
		SizeBytes:   m.SizeBytes,
		SHA256:      m.SHA256,
	}
}

// fileDownload serves GET /api/v1/files/{file_token} (extension, public): a stored file
// behind an expiring link that the file store signed (the directory store's links; links
// of the S3 store lead to S3 itself). The token is the credential: a bad, forged or expired
// one answers the same 404. The browser gets the file as an attachment, never sniffed into
// something it may render.
func (s *Server) fileDownload(c *gin.Context) {
	link, err := s.Files.OpenLink(c.Param("file_token"), s.Now())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	body, err := s.Files.Open(c, link.Key)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	defer body.Close()
	c.DataFromReader(http.StatusOK, -1, link.ContentType, body, map[string]string{
		"Content-Disposition":    link.ContentDisposition(),
		"X-Content-Type-Options": "nosniff",
		"Cache-Control":          "private, no-store",
	})
}
