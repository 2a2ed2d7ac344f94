package api_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/platform/filestore"
)

// TestAStoredFileIsServedBehindItsSignedLinkOnly: the link the file store signs downloads
// the file as an attachment in its sniffed type; the token is the credential, and a
// tampered or expired one answers the same 404.
func TestAStoredFileIsServedBehindItsSignedLinkOnly(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	ctx := context.Background()
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 100)...)
	obj, err := e.server.Files.Put(ctx, "company/acme/chat/logo", bytes.NewReader(png), filestore.Limits{MaxBytes: 1 << 20, AllowedTypes: []string{"image/"}})
	if err != nil {
		t.Fatal(err)
	}
	link, err := e.server.Files.DownloadURL(ctx, obj.Key, filestore.Download{Name: "logo.png", ContentType: obj.ContentType, TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	path, ok := strings.CutPrefix(link, "http://api.test")
	if !ok || !strings.HasPrefix(path, filestore.FilesRoute) {
		t.Fatalf("link %q is not under the API's files route", link)
	}
	e.now = time.Now()

	got := e.do(req{method: "GET", path: path}).expect(t, http.StatusOK)
	h := got.Header()
	if !bytes.Equal(got.Body.Bytes(), png) || h.Get("Content-Type") != "image/png" || h.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.HasPrefix(h.Get("Content-Disposition"), "attachment;") || !strings.Contains(h.Get("Content-Disposition"), "logo.png") {
		t.Fatalf("download: %d bytes, headers %v", got.Body.Len(), h)
	}

	token := strings.TrimPrefix(path, filestore.FilesRoute)
	tampered := token[:len(token)-2] + map[bool]string{true: "AA", false: "BB"}[token[len(token)-2:] != "AA"]
	e.do(req{method: "GET", path: filestore.FilesRoute + tampered}).expect(t, http.StatusNotFound)
	e.advance(2 * time.Hour)
	e.do(req{method: "GET", path: path}).expect(t, http.StatusNotFound)
}
