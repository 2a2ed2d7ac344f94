package httpx

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"agencyhub/schemas"
)

func TestBothLanguagesHaveEveryMessage(t *testing.T) {
	for key := range catalog["en"] {
		if _, ok := catalog["ru"][key]; !ok {
			t.Errorf("ru lacks %q", key)
		}
	}
	for key := range catalog["ru"] {
		if _, ok := catalog["en"][key]; !ok {
			t.Errorf("en lacks %q", key)
		}
	}
	for lang, texts := range catalog {
		for key, m := range texts {
			if m.Title == "" || m.Detail == "" || m.Action == "" {
				t.Errorf("%s %q has an empty part", lang, key)
			}
		}
	}
}

// errorKey finds the message keys domain code passes when it builds an error.
var errorKey = regexp.MustCompile(`(?:models\.(?:Invalid|NotFound|Unauthenticated|Forbidden|Conflict|RateLimited|Unavailable)\(|\bKey:\s*)"([a-z_]+)"`)

func TestEveryErrorKeyTheCodeUsesIsInTheCatalog(t *testing.T) {
	root := filepath.Join("..", "..")
	used := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range errorKey.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(used) < 20 {
		t.Fatalf("found only %d error keys; the scan is broken", len(used))
	}
	for key, path := range used {
		if _, ok := catalog["en"][key]; !ok {
			t.Errorf("%s uses error key %q, which the catalog lacks", path, key)
		}
	}
}

func TestLanguageNegotiation(t *testing.T) {
	cases := map[string]string{
		"":                           "en",
		"ru":                         "ru",
		"ru-RU,ru;q=0.9,en;q=0.8":    "ru",
		"en-US,en;q=0.9,ru;q=0.8":    "en",
		"de-DE":                      "en",
		"fr;q=0.9, ru;q=0.5":         "ru",
		"this is not a header value": "en",
	}
	for header, want := range cases {
		if got := negotiate(header); got != want {
			t.Errorf("Accept-Language %q → %q, want %q", header, got, want)
		}
	}
}

func router() *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.Use(Start, Recover)
	r.GET("/boom", func(*gin.Context) { panic("database password is hunter2") })
	r.GET("/things/:id", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{}) })
	r.NoRoute(NotFound)
	r.NoMethod(MethodNotAllowed(func(string) string { return "GET" }))
	return r
}

func serve(r http.Handler, method, path string, header map[string]string) (*httptest.ResponseRecorder, Problem) {
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	var p Problem
	_ = json.Unmarshal(rec.Body.Bytes(), &p)
	return rec, p
}

func isASCII(s string) bool {
	for _, b := range []byte(s) {
		if b < 0x20 || b > 0x7e {
			return false
		}
	}
	return true
}

func TestTransportProblems(t *testing.T) {
	r := router()
	t.Run("a panic answers 500 error with a generic detail that leaks nothing", func(t *testing.T) {
		rec, p := serve(r, "GET", "/boom", nil)
		if rec.Code != 500 || p.Status != ResultError || rec.Header().Get("X-App-Result") != ResultError {
			t.Fatalf("got %d %+v", rec.Code, p)
		}
		if strings.Contains(rec.Body.String(), "hunter2") || p.Detail != catalog["en"]["internal"].Detail {
			t.Fatalf("panic text leaked or detail not generic: %s", rec.Body)
		}
		if p.RequestID == "" || p.RequestID != rec.Header().Get("X-Request-Id") {
			t.Fatalf("request id %q vs header %q", p.RequestID, rec.Header().Get("X-Request-Id"))
		}
	})
	t.Run("an unknown route answers 404 in the negotiated language", func(t *testing.T) {
		rec, p := serve(r, "GET", "/nowhere", map[string]string{"Accept-Language": "ru"})
		if rec.Code != 404 || p.Title != catalog["ru"]["route_not_found"].Title || rec.Header().Get("Content-Language") != "ru" {
			t.Fatalf("got %d %+v lang %q", rec.Code, p, rec.Header().Get("Content-Language"))
		}
		header := rec.Header().Get("X-App-Action")
		action, err := new(mime.WordDecoder).DecodeHeader(header)
		if !isASCII(header) || err != nil || action != p.Action {
			t.Fatalf("X-App-Action %q decodes to %q (%v), want the Problem's action %q", header, action, err, p.Action)
		}
	})
	t.Run("a wrong method answers 405 with Allow", func(t *testing.T) {
		rec, p := serve(r, "DELETE", "/things/1", nil)
		if rec.Code != 405 || rec.Header().Get("Allow") != "GET" || p.Status != ResultFixRequired {
			t.Fatalf("got %d allow %q %+v", rec.Code, rec.Header().Get("Allow"), p)
		}
	})
	t.Run("a sane incoming request id is kept and an insane one replaced", func(t *testing.T) {
		rec, _ := serve(r, "GET", "/things/1", map[string]string{"X-Request-Id": "req-12345678"})
		if rec.Header().Get("X-Request-Id") != "req-12345678" {
			t.Fatalf("kept id = %q", rec.Header().Get("X-Request-Id"))
		}
		rec, _ = serve(r, "GET", "/things/1", map[string]string{"X-Request-Id": "<script>"})
		if id := rec.Header().Get("X-Request-Id"); id == "<script>" || id == "" {
			t.Fatalf("replaced id = %q", id)
		}
	})
	t.Run("a success says ok", func(t *testing.T) {
		rec, _ := serve(r, "GET", "/things/1", nil)
		if rec.Code != 200 || rec.Header().Get("X-App-Result") != ResultOK || rec.Header().Get("Content-Language") != "en" {
			t.Fatalf("got %d %v", rec.Code, rec.Header())
		}
	})
}

func TestAnInvalidBodyIsWordedFieldByField(t *testing.T) {
	one := schemas.Violations{{Field: "password", Rule: schemas.RuleMinLength, Limit: "12"}}
	cases := []struct {
		name, lang string
		vs         schemas.Violations
		want       string
	}{
		{"one field says its rule alone", "en", one, "Use at least 12 characters."},
		{"in Russian", "ru", one, "Нужно не меньше 12 символов."},
		{"a count of 21 takes the Russian singular", "ru", schemas.Violations{{Field: "name", Rule: schemas.RuleMaxLength, Limit: "21"}}, "Можно не больше 21 символа."},
		{"a format with words of its own", "en", schemas.Violations{{Field: "email", Rule: schemas.RuleFormat, Limit: "email"}}, "Enter an e-mail address, like name@example.com."},
		{"a format without", "en", schemas.Violations{{Field: "at", Rule: schemas.RuleFormat, Limit: "time"}}, "This is not in the time format."},
		{"a pattern shows the contract's example", "en", schemas.Violations{{Field: "accent_color", Rule: schemas.RuleOther, Example: "#2563eb"}}, "This is not in the form the field takes, like #2563eb."},
		{"several fields are each named", "en", schemas.Violations{{Field: "email", Rule: schemas.RuleRequired}, {Field: "role", Rule: schemas.RuleEnum, Limit: "admin, member"}},
			"email: This field is required. role: Choose one of: admin, member."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := violationsText(c.lang, c.vs); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	t.Run("past five fields the rest are counted", func(t *testing.T) {
		var vs schemas.Violations
		for _, f := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			vs = append(vs, schemas.Violation{Field: f, Rule: schemas.RuleRequired})
		}
		if got := violationsText("en", vs); !strings.HasSuffix(got, "e: This field is required. And 2 more fields.") {
			t.Fatalf("got %q", got)
		}
	})
}
