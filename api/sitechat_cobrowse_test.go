package api_test

import (
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
)

// TestSiteChatCobrowseFiles: the co-browse recorder is served from the console's build
// as the widget is (an ETag, revalidated, gzipped to who accepts it), 404 without a build;
// the view page carries a policy that runs no script at all.
func TestSiteChatCobrowseFiles(t *testing.T) {
	build := fstest.MapFS{
		"index.html":               {Data: []byte(`<!doctype html>`)},
		"site-chat/cobrowse.js":    {Data: []byte(`var SiteChatCobrowse = {};`)},
		"site-chat/cobrowse.js.gz": {Data: []byte("gzipped bytes")},
	}
	e := newEnv(t, dbtest.SQLite(t), func(s *api.Server) { s.Console = build })

	t.Run("the recorder has an ETag and a gzip copy", func(t *testing.T) {
		plain := consoleGet(t, e, "/site-chat/cobrowse.js", nil)
		if plain.Code != http.StatusOK || plain.Body.String() != `var SiteChatCobrowse = {};` || plain.Header().Get("Content-Encoding") != "" {
			t.Fatalf("plain: %d %q %v", plain.Code, plain.Body, plain.Header())
		}
		etag := plain.Header().Get("ETag")
		if etag == "" || !strings.HasPrefix(plain.Header().Get("Content-Type"), "text/javascript") ||
			plain.Header().Get("Cross-Origin-Resource-Policy") != "cross-origin" || !strings.Contains(plain.Header().Get("Cache-Control"), "max-age=300") {
			t.Fatalf("headers: %v", plain.Header())
		}
		gz := consoleGet(t, e, "/site-chat/cobrowse.js", map[string]string{"Accept-Encoding": "gzip, br"})
		if gz.Body.String() != "gzipped bytes" || gz.Header().Get("Content-Encoding") != "gzip" || gz.Header().Get("ETag") != etag {
			t.Fatalf("gzip: %q %v", gz.Body, gz.Header())
		}
		if again := consoleGet(t, e, "/site-chat/cobrowse.js", map[string]string{"If-None-Match": etag}); again.Code != http.StatusNotModified {
			t.Fatalf("revalidation: %d", again.Code)
		}
	})

	t.Run("without a console build the recorder is not found", func(t *testing.T) {
		bare := newEnv(t, dbtest.SQLite(t))
		if rec := consoleGet(t, bare, "/site-chat/cobrowse.js", nil); rec.Code != http.StatusNotFound {
			t.Fatalf("no build: %d", rec.Code)
		}
	})

	t.Run("the view page runs no script and is framed only by the console", func(t *testing.T) {
		rec := consoleGet(t, e, "/site-chat/cobrowse-view.html", nil)
		csp := rec.Header().Get("Content-Security-Policy")
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "<script") {
			t.Fatalf("view: %d %s", rec.Code, rec.Body)
		}
		for _, directive := range []string{"default-src 'none'", "script-src 'none'", "frame-ancestors 'self'", "form-action 'none'"} {
			if !strings.Contains(csp, directive) {
				t.Errorf("policy %q lacks %q", csp, directive)
			}
		}
		if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "script-src 'self'") {
			t.Errorf("policy %q lets scripts run", csp)
		}
	})
}
