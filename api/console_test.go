package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/platform/filestore"
)

// s3Files is a file store on an in-memory S3 (gofakes3) served on a loopback port.
func s3Files(t *testing.T) *filestore.Store {
	t.Helper()
	mem := s3mem.New()
	if err := mem.CreateBucket("files"); err != nil {
		t.Fatal(err)
	}
	s3 := httptest.NewServer(gofakes3.New(mem).Server())
	t.Cleanup(s3.Close)
	cfg, err := filestore.ParseS3URL("s3://key:secret@" + strings.TrimPrefix(s3.URL, "http://") + "/files?secure=false&path_style=true")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SpoolDir = t.TempDir()
	files, err := filestore.NewS3(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// consoleBuild is a console build as Vite writes it: index.html, a hashed script with its
// gzip copy, and the icons copied from public/.
var consoleBuild = fstest.MapFS{
	"index.html":             {Data: []byte(`<!doctype html><meta property="csp-nonce" nonce="CSP_NONCE"><script type="module" src="/assets/index-abc.js" nonce="CSP_NONCE"></script>`)},
	"assets/index-abc.js":    {Data: []byte(`console.log("console")`)},
	"assets/index-abc.js.gz": {Data: []byte("gzipped bytes")},
	"favicon.svg":            {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
	"favicon.ico":            {Data: []byte("\x00\x00\x01\x00")},
}

func consoleGet(t *testing.T, e *env, path string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, r)
	for _, h := range []string{"X-Request-Id", "Content-Language", "X-App-Result"} {
		if rec.Header().Get(h) == "" {
			t.Errorf("GET %s: no %s", path, h)
		}
	}
	return rec
}

const navigation = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

func TestTheConsoleIsServedToBrowsersAndTheAPIStaysJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t), func(s *api.Server) { s.Console = consoleBuild })

	t.Run("a browser opening any console page gets index.html under a strict policy, never cached", func(t *testing.T) {
		for _, path := range []string{"/", "/workflows/0193", "/runs/0193?tab=events", "/activate?token=x", "/site-chat/conversations/1"} {
			rec := consoleGet(t, e, path, map[string]string{"Accept": navigation})
			if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "/assets/index-abc.js") {
				t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
			}
			h := rec.Header()
			csp := h.Get("Content-Security-Policy")
			for _, directive := range []string{"script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
				if !strings.Contains(csp, directive) {
					t.Errorf("GET %s: policy %q lacks %q", path, csp, directive)
				}
			}
			if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
				t.Errorf("GET %s: policy allows inline or eval: %q", path, csp)
			}
			if h.Get("Cache-Control") != "no-cache" || h.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Errorf("GET %s: Cache-Control %q, Content-Type %q", path, h.Get("Cache-Control"), h.Get("Content-Type"))
			}
		}
	})

	t.Run("with files in S3, pictures and recordings may come from its links' origin only", func(t *testing.T) {
		files := s3Files(t)
		inS3 := newEnv(t, dbtest.SQLite(t), func(s *api.Server) { s.Console, s.Files = consoleBuild, files })
		csp := consoleGet(t, inS3, "/site-chat/visits/1", map[string]string{"Accept": navigation}).Header().Get("Content-Security-Policy")
		origin := files.LinkOrigin()
		for _, directive := range []string{
			"img-src 'self' data: blob: " + origin + ";",
			"media-src 'self' " + origin + ";",
			"connect-src 'self';",
		} {
			if !strings.Contains(csp, directive) {
				t.Errorf("policy %q lacks %q", csp, directive)
			}
		}
		onDisk := consoleGet(t, e, "/", map[string]string{"Accept": navigation}).Header().Get("Content-Security-Policy")
		if !strings.Contains(onDisk, "media-src 'self';") {
			t.Errorf("with files on disk, the policy %q lets media come from elsewhere", onDisk)
		}
	})

	t.Run("each page carries a nonce of its own, which alone lets an inline style in", func(t *testing.T) {
		nonceOf := func() string {
			rec := consoleGet(t, e, "/workflows", map[string]string{"Accept": navigation})
			m := regexp.MustCompile(`style-src 'self' 'nonce-([A-Za-z0-9]{16,})';`).FindStringSubmatch(rec.Header().Get("Content-Security-Policy"))
			if m == nil {
				t.Fatalf("policy %q has no style nonce", rec.Header().Get("Content-Security-Policy"))
			}
			if body := rec.Body.String(); strings.Count(body, `nonce="`+m[1]+`"`) != 2 || strings.Contains(body, "CSP_NONCE") {
				t.Fatalf("the page does not carry the policy's nonce %s: %s", m[1], body)
			}
			return m[1]
		}
		if first, second := nonceOf(), nonceOf(); first == second {
			t.Fatalf("two pages share the nonce %s", first)
		}
	})

	t.Run("hashed assets are cached for good and go gzipped to who accepts it", func(t *testing.T) {
		rec := consoleGet(t, e, "/assets/index-abc.js", map[string]string{"Accept-Encoding": "gzip, br"})
		h := rec.Header()
		if rec.Code != http.StatusOK || rec.Body.String() != "gzipped bytes" || h.Get("Content-Encoding") != "gzip" {
			t.Fatalf("gzip: %d %q encoding %q", rec.Code, rec.Body, h.Get("Content-Encoding"))
		}
		if h.Get("Cache-Control") != "public, max-age=31536000, immutable" || !strings.HasPrefix(h.Get("Content-Type"), "text/javascript") {
			t.Errorf("Cache-Control %q, Content-Type %q", h.Get("Cache-Control"), h.Get("Content-Type"))
		}
		plain := consoleGet(t, e, "/assets/index-abc.js", nil)
		if plain.Body.String() != `console.log("console")` || plain.Header().Get("Content-Encoding") != "" {
			t.Errorf("identity: %q encoding %q", plain.Body, plain.Header().Get("Content-Encoding"))
		}
	})

	t.Run("the icon answers at /favicon.svg, which pages link, and at /favicon.ico", func(t *testing.T) {
		for name, kind := range map[string]string{"/favicon.svg": "image/svg+xml", "/favicon.ico": "image/vnd.microsoft.icon"} {
			rec := consoleGet(t, e, name, map[string]string{"Accept": "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"})
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != kind || rec.Header().Get("Cache-Control") != "public, max-age=86400" {
				t.Errorf("GET %s: %d %q %q", name, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
			}
		}
	})

	t.Run("what is not a console page answers the API's 404", func(t *testing.T) {
		for _, c := range []struct{ path, accept string }{
			{"/assets/missing.js", ""},
			{"/assets/index-abc.js.gz", ""},
			{"/assets/../index.html", ""},
			{"/api/v1/no-such-thing", navigation},
			{"/workflows", "application/json"},
			{"/workflows", ""},
		} {
			rec := consoleGet(t, e, c.path, map[string]string{"Accept": c.accept})
			if rec.Code != http.StatusNotFound || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				t.Errorf("GET %s (Accept %q): %d %s", c.path, c.accept, rec.Code, rec.Header().Get("Content-Type"))
			}
		}
		post := httptest.NewRecorder()
		e.handler.ServeHTTP(post, httptest.NewRequest(http.MethodPost, "/workflows", nil))
		if post.Code != http.StatusNotFound {
			t.Errorf("POST /workflows: %d", post.Code)
		}
	})
}

func TestAServerBuiltWithoutTheConsoleSaysHowToBuildIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	rec := consoleGet(t, e, "/", map[string]string{"Accept": navigation})
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "make build") {
		t.Fatalf("GET /: %d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(rec.Header().Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("policy %q", rec.Header().Get("Content-Security-Policy"))
	}
}

func TestTheAPIReferenceIsFoundWhereAPersonLooks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t), func(s *api.Server) { s.Console = consoleBuild })

	t.Run("the reference page is the console's, under its strict policy, signed out too", func(t *testing.T) {
		for _, accept := range []string{navigation, ""} {
			rec := e.do(req{method: "GET", path: "/reference", header: map[string]string{"Accept": accept}}).expect(t, http.StatusOK)
			if !strings.Contains(rec.Body.String(), "/assets/index-abc.js") || strings.Contains(rec.Body.String(), "CSP_NONCE") {
				t.Fatalf("GET /reference (Accept %q): %s", accept, rec.Body)
			}
			csp := rec.Header().Get("Content-Security-Policy")
			if !strings.Contains(csp, "script-src 'self';") || !regexp.MustCompile(`style-src 'self' 'nonce-[A-Za-z0-9]{16,}';`).MatchString(csp) ||
				strings.Contains(csp, "unsafe-") {
				t.Errorf("GET /reference: policy %q", csp)
			}
		}
	})

	t.Run("a browser asking for the docs is sent to the reference page", func(t *testing.T) {
		for _, path := range []string{"/docs", "/api/v1/docs"} {
			rec := e.do(req{method: "GET", path: path, header: map[string]string{"Accept": navigation}}).expect(t, http.StatusFound)
			if got := rec.Header().Get("Location"); got != "/reference" {
				t.Errorf("GET %s: Location %q, want /reference", path, got)
			}
		}
	})

	t.Run("HEAD answers as GET does, without the body", func(t *testing.T) {
		srv := httptest.NewServer(e.handler)
		defer srv.Close()
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		for path, want := range map[string]int{"/reference": http.StatusOK, "/docs": http.StatusFound} {
			r, _ := http.NewRequest(http.MethodHead, srv.URL+path, nil)
			r.Header.Set("Accept", navigation)
			resp, err := client.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want || len(body) != 0 {
				t.Errorf("HEAD %s: %d with %d bytes, want %d without a body", path, resp.StatusCode, len(body), want)
			}
			if path == "/reference" && !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				t.Errorf("HEAD /reference: Content-Type %q", resp.Header.Get("Content-Type"))
			}
			if path == "/docs" && resp.Header.Get("Location") != "/reference" {
				t.Errorf("HEAD /docs: Location %q", resp.Header.Get("Location"))
			}
		}
	})

	t.Run("an API client asking for the docs gets the JSON 404 Problem", func(t *testing.T) {
		for _, path := range []string{"/docs", "/api/v1/docs"} {
			for _, accept := range []string{"", "application/json", "*/*"} {
				rec := e.do(req{method: "GET", path: path, header: map[string]string{"Accept": accept}}).expect(t, http.StatusNotFound)
				if rec.Header().Get("Location") != "" || rec.str("status") != "error" {
					t.Errorf("GET %s (Accept %q): Location %q, body %s", path, accept, rec.Header().Get("Location"), rec.Body)
				}
			}
		}
	})
}
