package api

import (
	"bytes"
	"crypto/rand"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
)

// consoleCSP is the console's Content-Security-Policy: its script, styles, workers and
// requests come from this origin only, nothing may frame it, it frames only its own pages
// (the co-browse view), and no inline script runs.
// The one inline thing allowed is a <style> carrying the response's nonce, as the code
// editor (CodeMirror) adds its styles in one. Images and media may also come from
// filesOrigin, where the file store's download links point when they are not this
// origin's (S3's presigned links), so call recordings play.
func consoleCSP(nonce, filesOrigin string) string {
	files := ""
	if filesOrigin != "" {
		files = " " + filesOrigin
	}
	return "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-" + nonce + "'; " +
		"img-src 'self' data: blob:" + files + "; media-src 'self'" + files + "; " +
		"font-src 'self'; connect-src 'self'; worker-src 'self' blob:; frame-src 'self'; frame-ancestors 'none'; " +
		"base-uri 'none'; form-action 'self'; object-src 'none'"
}

// nonceSlot is what the build writes where each index.html served carries a fresh nonce
// (vite.config.ts, html.cspNonce).
var nonceSlot = []byte("CSP_NONCE")

// consoleNotBuilt answers the console's pages when the binary was built without it.
const consoleNotBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><h1>The console was not built</h1>
<p>This binary was built without the browser console. Build it with <code>make build</code>
(it needs Node.js 20.19 or later and npm), then start the server again.</p>
<p>The API answers under <a href="/api/v1/docs/endpoints">/api/v1</a>.</p></body></html>`

// consoleOrNotFound is the router's answer to a path no route claims. The console's
// hashed files are served from /assets/; a browser's navigation to any other page outside
// the API gets the console's index.html, whose router shows the page (or its own "not
// found"). Everything else, API clients included, gets the JSON 404.
func (s *Server) consoleOrNotFound(c *gin.Context) {
	method, p := c.Request.Method, c.Request.URL.Path
	switch {
	case method != http.MethodGet && method != http.MethodHead:
		httpx.NotFound(c)
	case strings.HasPrefix(p, "/assets/"):
		s.consoleAsset(c, strings.TrimPrefix(p, "/"))
	case p == "/favicon.svg" || p == "/favicon.ico":
		s.consoleIcon(c, strings.TrimPrefix(p, "/"))
	case strings.HasPrefix(p, "/api/") || !acceptsHTML(c.GetHeader("Accept")):
		httpx.NotFound(c)
	default:
		s.consolePage(c)
	}
}

func acceptsHTML(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mediaType, _, _ := strings.Cut(part, ";")
		if strings.TrimSpace(mediaType) == "text/html" {
			return true
		}
	}
	return false
}

// consolePage answers index.html, never cached, so a new build reaches the next load, with
// a nonce of its own.
func (s *Server) consolePage(c *gin.Context) {
	nonce := rand.Text()
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", consoleCSP(nonce, s.Files.LinkOrigin()))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-cache")
	index, err := s.consoleFile("index.html")
	if err != nil {
		index = []byte(consoleNotBuilt)
	}
	c.Data(http.StatusOK, "text/html; charset=utf-8", bytes.ReplaceAll(index, nonceSlot, []byte(nonce)))
}

// consoleAsset answers a hashed build file: its name changes with its content, so it is
// cached for a year; scripts and styles go gzipped to a client that accepts it.
func (s *Server) consoleAsset(c *gin.Context, name string) {
	if !fs.ValidPath(name) || path.Ext(name) == ".gz" {
		httpx.NotFound(c)
		return
	}
	body, err := s.consoleFile(name)
	if err != nil {
		httpx.NotFound(c)
		return
	}
	h := c.Writer.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	if gz, err := s.consoleFile(name + ".gz"); err == nil {
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(c.GetHeader("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			body = gz
		}
	}
	c.Data(http.StatusOK, mime.TypeByExtension(path.Ext(name)), body)
}

// consoleIcon answers the console's icon (web/console/public): the SVG its pages link, and
// the ICO browsers and other clients ask /favicon.ico for by habit. Their names do not
// change with their content, so they are cached for a day, not forever.
func (s *Server) consoleIcon(c *gin.Context, name string) {
	body, err := s.consoleFile(name)
	if err != nil {
		httpx.NotFound(c)
		return
	}
	h := c.Writer.Header()
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	kind := "image/svg+xml"
	if path.Ext(name) == ".ico" {
		kind = "image/vnd.microsoft.icon"
	}
	c.Data(http.StatusOK, kind, body)
}

func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		if strings.TrimSpace(coding) == "gzip" && strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

func (s *Server) consoleFile(name string) ([]byte, error) {
	if s.Console == nil {
		return nil, fs.ErrNotExist
	}
	return fs.ReadFile(s.Console, name)
}
