package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
)

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
