package filestore_test

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"agencyhub/platform/filestore"
)

const (
	invoiceName        = "Счёт №1.pdf"
	invoiceDisposition = "attachment; filename*=UTF-8''%D0%A1%D1%87%D1%91%D1%82%20%E2%84%961.pdf"
)

func wantLinkRefused(t *testing.T, store *filestore.Store, token string, now time.Time) {
	t.Helper()
	link, err := store.OpenLink(token, now)
	if err == nil {
		t.Fatalf("token %q was accepted: %+v", token, link)
	}
	wantNotFound(t, err, filestore.ErrLinkNotFound)
}

// issueToken makes a directory-store link and returns its token with the times between
// which it was issued.
func issueToken(t *testing.T, store *filestore.Store, key string, d filestore.Download) (token string, before, after time.Time) {
	t.Helper()
	before = time.Now()
	link, err := store.DownloadURL(t.Context(), key, d)
	after = time.Now()
	if err != nil {
		t.Fatal(err)
	}
	token, ok := strings.CutPrefix(link, publicURL+"/api/v1/files/")
	if !ok || token == "" || url.PathEscape(token) != token {
		t.Fatalf("link %q is not the files route with a URL-safe token", link)
	}
	return token, before, after
}

func TestDirLinksAreSignedAndExpire(t *testing.T) {
	t.Parallel()
	b, root := newDirBackend(t)
	key := "company-1/billing/invoice-1.pdf"
	token, before, after := issueToken(t, b.store, key, filestore.Download{Name: invoiceName, ContentType: "application/pdf", TTL: 10 * time.Minute})

	link, err := b.store.OpenLink(token, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if want := (filestore.Link{Key: key, Name: invoiceName, ContentType: "application/pdf"}); link != want {
		t.Fatalf("OpenLink gave %+v, want %+v", link, want)
	}
	if got := link.ContentDisposition(); got != invoiceDisposition {
		t.Fatalf("Content-Disposition %q, want %q", got, invoiceDisposition)
	}

	t.Run("any changed byte is refused", func(t *testing.T) {
		t.Parallel()
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
		for i := range len(token) {
			replacement := alphabet[(strings.IndexByte(alphabet, token[i])+1)%len(alphabet)]
			tampered := token[:i] + string(replacement) + token[i+1:]
			wantLinkRefused(t, b.store, tampered, time.Now())
		}
		for _, garbage := range []string{"", ".", "abc", token + ".", token[:len(token)-1], token + "A", "." + token} {
			wantLinkRefused(t, b.store, garbage, time.Now())
		}
	})
	t.Run("a token signed with another key is refused", func(t *testing.T) {
		t.Parallel()
		other, err := filestore.NewDir(root, bytes.Repeat([]byte("o"), 32), publicURL)
		if err != nil {
			t.Fatal(err)
		}
		wantLinkRefused(t, other, token, time.Now())
		forged, _, _ := issueToken(t, other, key, filestore.Download{})
		wantLinkRefused(t, b.store, forged, time.Now())
	})
	t.Run("an expired token is refused", func(t *testing.T) {
		t.Parallel()
		if _, err := b.store.OpenLink(token, before.Add(10*time.Minute-2*time.Second)); err != nil {
			t.Fatalf("refused just before expiry: %v", err)
		}
		wantLinkRefused(t, b.store, token, after.Add(10*time.Minute))
	})
}

func TestDirLinkDefaultsAndTTLClamp(t *testing.T) {
	t.Parallel()
	b, _ := newDirBackend(t)
	token, _, _ := issueToken(t, b.store, "chat/voice-7.ogg", filestore.Download{})
	link, err := b.store.OpenLink(token, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if link.Name != "voice-7.ogg" || link.ContentType != "application/octet-stream" {
		t.Fatalf("defaults gave %+v", link)
	}
	for _, c := range []struct{ asked, lives time.Duration }{
		{0, 15 * time.Minute},
		{time.Second, time.Minute},
		{-time.Hour, time.Minute},
		{2 * time.Hour, 2 * time.Hour},
		{30 * 24 * time.Hour, 7 * 24 * time.Hour},
	} {
		token, before, after := issueToken(t, b.store, "k", filestore.Download{TTL: c.asked})
		if _, err := b.store.OpenLink(token, before.Add(c.lives-2*time.Second)); err != nil {
			t.Fatalf("TTL %v: refused before %v: %v", c.asked, c.lives, err)
		}
		wantLinkRefused(t, b.store, token, after.Add(c.lives))
	}
}

func TestS3DownloadURLIsAPresignedGetWithOverrides(t *testing.T) {
	t.Parallel()
	b, mem := newS3Backend(t)
	key := "company-1/billing/invoice-1.pdf"
	if _, err := b.store.Put(t.Context(), key, bytes.NewReader(pngContent), anyFile); err != nil {
		t.Fatal(err)
	}
	stored, err := mem.HeadObject(testBucket, testPrefix+"/"+key)
	if err != nil {
		t.Fatal(err)
	}
	if got := stored.Metadata["Content-Type"]; got != "image/png" {
		t.Fatalf("uploaded with Content-Type %q, want the sniffed image/png", got)
	}

	link, err := b.store.DownloadURL(t.Context(), key, filestore.Download{Name: invoiceName, ContentType: "application/pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if origin := b.store.LinkOrigin(); origin == "" || !strings.HasPrefix(link, origin+"/") {
		t.Fatalf("link %s is not under the store's link origin %q", link, origin)
	}
	if dir, _ := newDirBackend(t); dir.store.LinkOrigin() != "" {
		t.Fatalf("a directory store's links have the origin %q, want the API's own", dir.store.LinkOrigin())
	}
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, pngContent) {
		t.Fatalf("GET of the presigned URL: %s, %d bytes", resp.Status, len(body))
	}
	if got := resp.Header.Get("Content-Type"); got != "application/pdf" {
		t.Fatalf("Content-Type %q, want the override", got)
	}
	if got := resp.Header.Get("Content-Disposition"); got != invoiceDisposition {
		t.Fatalf("Content-Disposition %q, want %q", got, invoiceDisposition)
	}

	// The fake S3 checks neither signatures nor expiry, so what is checked here is what a
	// real S3 enforces: the signed lifetime and the signed overrides.
	for _, c := range []struct {
		asked   time.Duration
		expires string
	}{
		{0, "900"}, {time.Second, "60"}, {2 * time.Hour, "7200"}, {30 * 24 * time.Hour, "604800"},
	} {
		link, err := b.store.DownloadURL(t.Context(), key, filestore.Download{TTL: c.asked})
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(link)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if got := q.Get("X-Amz-Expires"); got != c.expires {
			t.Fatalf("TTL %v signed as X-Amz-Expires=%s, want %s", c.asked, got, c.expires)
		}
		if q.Get("X-Amz-Signature") == "" || !strings.HasPrefix(q.Get("X-Amz-Credential"), "test-access/") {
			t.Fatalf("link %q is not presigned with the configured key", link)
		}
		if q.Get("response-content-type") != "application/octet-stream" ||
			q.Get("response-content-disposition") != "attachment; filename*=UTF-8''invoice-1.pdf" {
			t.Fatalf("default overrides in %q", link)
		}
		if !strings.HasPrefix(u.Path, "/"+testBucket+"/"+testPrefix+"/") {
			t.Fatalf("link path %q lacks the bucket and prefix", u.Path)
		}
	}
}

func TestS3StoreRefusesEveryToken(t *testing.T) {
	t.Parallel()
	dir, _ := newDirBackend(t)
	token, _, _ := issueToken(t, dir.store, "k", filestore.Download{})
	s3, _ := newS3Backend(t)
	wantLinkRefused(t, s3.store, token, time.Now())
}

func TestNewS3RefusesAMissingBucket(t *testing.T) {
	t.Parallel()
	fake := newFakeS3(t)
	cfg, err := filestore.ParseS3URL("s3://test-access:test-secret@" + fake.host + "/no-such-bucket?secure=false&path_style=true")
	if err != nil {
		t.Fatal(err)
	}
	_, err = filestore.NewS3(t.Context(), cfg)
	if err == nil || !strings.Contains(err.Error(), `"no-such-bucket" does not exist`) {
		t.Fatalf("NewS3 with a missing bucket: %v", err)
	}
	if buckets, _ := fake.mem.ListBuckets(); len(buckets) != 1 {
		t.Fatalf("NewS3 changed the buckets: %v", buckets)
	}
}
