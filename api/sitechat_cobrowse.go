package api

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
)

// cobrowseRecorder is the co-browse recorder's path in the console's build
// (web/console/vite.cobrowse.config.ts).
const cobrowseRecorder = "site-chat/cobrowse.js"

// siteChatCobrowseScript serves GET /site-chat/cobrowse.js: the co-browse recorder (rrweb,
// built with the console) that the widget loads on a visitor's page when monitoring
// becomes active. Cached and revalidated as the widget is, gzipped to clients that accept
// it; 404 when the binary was built without the console.
func (s *Server) siteChatCobrowseScript(c *gin.Context) {
	body, err := s.consoleFile(cobrowseRecorder)
	if err != nil {
		httpx.NotFound(c)
		return
	}
	sum := sha256.Sum256(body)
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
	h := c.Writer.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=300, stale-while-revalidate=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Set("Vary", "Accept-Encoding")
	if etagMatches(c.GetHeader("If-None-Match"), etag) {
		c.Status(http.StatusNotModified)
		return
	}
	if gz, err := s.consoleFile(cobrowseRecorder + ".gz"); err == nil && acceptsGzip(c.GetHeader("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = gz
	}
	c.Data(http.StatusOK, "text/javascript; charset=utf-8", body)
}

// cobrowseViewCSP is the policy of the page the console shows a visitor's page in: no
// script at all (the console's own script builds the view from outside, through the
// frame's DOM), while the visitor's styles, images, fonts and media load as on their site,
// inline styles included, which the console's own policy forbids. Only the console frames it.
const cobrowseViewCSP = "default-src 'none'; script-src 'none'; style-src 'self' 'unsafe-inline' http: https:; " +
	"img-src 'self' http: https: data: blob:; font-src 'self' http: https: data:; media-src 'self' http: https: blob:; " +
	"frame-ancestors 'self'; base-uri 'none'; form-action 'none'"

// cobrowseView is that page: empty until the console's co-browse view fills it.
const cobrowseView = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Visitor's page</title></head><body></body></html>`

// siteChatCobrowseView serves GET /site-chat/cobrowse-view.html, the empty page the console's
// co-browse panel frames, sandboxed without scripts, and renders the visitor's page into
// (features/sitechat/cobrowse): under this policy, not the console's.
func (s *Server) siteChatCobrowseView(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", cobrowseViewCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	c.Data(http.StatusOK, "text/html; charset=utf-8", []byte(cobrowseView))
}
