package filestore_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"agencyhub/platform/filestore"
)

// Sniffable contents: net/http.DetectContentType knows these by their first bytes.
var (
	pngContent = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{7}, 2000)...)
	pdfContent = []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")
)

// backendUnderTest is one freshly made store with ways to look behind it.
type backendUnderTest struct {
	store *filestore.Store
	// prefix is what the backend puts before keys in the names leftovers lists.
	prefix string
	// leftovers lists every object and every spool file the backend holds, sorted.
	leftovers func(t *testing.T) []string
	// requests counts the requests the backend's server has received; nil for the
	// directory, which has no server.
	requests *atomic.Int64
}

// eachBackend runs test against the directory backend and the S3 backend, each new.
func eachBackend(t *testing.T, test func(t *testing.T, b backendUnderTest)) {
	t.Run("dir", func(t *testing.T) {
		t.Parallel()
		b, _ := newDirBackend(t)
		test(t, b)
	})
	t.Run("s3", func(t *testing.T) {
		t.Parallel()
		b, _ := newS3Backend(t)
		test(t, b)
	})
}

const publicURL = "https://app.example.test"

func newDirBackend(t *testing.T) (backendUnderTest, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "files") // NewDir creates it
	store, err := filestore.NewDir(root, bytes.Repeat([]byte("k"), 32), publicURL)
	if err != nil {
		t.Fatal(err)
	}
	return backendUnderTest{store: store, leftovers: func(t *testing.T) []string { return filesUnder(t, root) }}, root
}

// filesUnder lists every non-directory under root, by slash-separated relative path.
func filesUnder(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

const (
	testBucket = "uploads"
	testPrefix = "tenant-a"
)

// fakeS3 is an in-memory S3 (gofakes3) served on a loopback port.
type fakeS3 struct {
	mem  *s3mem.Backend
	host string // host:port
	// requests counts the requests the server has received.
	requests *atomic.Int64
}

func newFakeS3(t *testing.T) fakeS3 {
	t.Helper()
	mem := s3mem.New()
	if err := mem.CreateBucket(testBucket); err != nil {
		t.Fatal(err)
	}
	fake := gofakes3.New(mem).Server()
	var requests atomic.Int64
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(server.Close)
	return fakeS3{mem: mem, host: strings.TrimPrefix(server.URL, "http://"), requests: &requests}
}

// newS3Backend points a store at a new fake S3 through an s3:// URL with a prefix, so the
// URL parsing is exercised too.
func newS3Backend(t *testing.T) (backendUnderTest, *s3mem.Backend) {
	t.Helper()
	fake := newFakeS3(t)
	cfg, err := filestore.ParseS3URL("s3://test-access:test-secret@" + fake.host + "/" + testBucket + "/" + testPrefix + "?secure=false&path_style=true")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SpoolDir = t.TempDir()
	store, err := filestore.NewS3(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	leftovers := func(t *testing.T) []string {
		t.Helper()
		list, err := fake.mem.ListBucket(testBucket, nil, gofakes3.ListBucketPage{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, obj := range list.Contents {
			names = append(names, obj.Key)
		}
		for _, spooled := range filesUnder(t, cfg.SpoolDir) {
			names = append(names, "spool:"+spooled)
		}
		slices.Sort(names)
		return names
	}
	return backendUnderTest{store: store, prefix: testPrefix + "/", leftovers: leftovers, requests: fake.requests}, fake.mem
}

// wantRefusal fails t unless err is the store's refusal with code, naming field.
func wantRefusal(t *testing.T, err error, code, field string) {
	t.Helper()
	var r *filestore.Refusal
	if !errors.As(err, &r) || r.Code != code || r.Field != field {
		t.Fatalf("got error %v, want the refusal %s [%s]", err, code, field)
	}
}

// wantNotFound fails t unless err is the not-found answer want.
func wantNotFound(t *testing.T, err error, want *filestore.NotFoundError) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got error %v, want %v", err, want)
	}
}

func readAll(t *testing.T, store *filestore.Store, key string) []byte {
	t.Helper()
	r, err := store.Open(t.Context(), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer r.Close()
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return got
}

func wantNotStored(t *testing.T, store *filestore.Store, key string) {
	t.Helper()
	r, err := store.Open(t.Context(), key)
	if err == nil {
		r.Close()
	}
	wantNotFound(t, err, filestore.ErrNotFound)
}

func wantLeftovers(t *testing.T, b backendUnderTest, keys ...string) {
	t.Helper()
	var want []string
	for _, k := range keys {
		want = append(want, b.prefix+k)
	}
	slices.Sort(want)
	if got := b.leftovers(t); !slices.Equal(got, want) {
		t.Fatalf("backend holds %q, want %q", got, want)
	}
}

var anyFile = filestore.Limits{MaxBytes: 1 << 20}

func TestPutThenOpenGivesTheSameBytesAndTheSniffedType(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backendUnderTest) {
		// The key claims a PDF; the bytes are a PNG, and the bytes decide.
		key := "company-1/chat/claimed.pdf"
		obj, err := b.store.Put(t.Context(), key, bytes.NewReader(pngContent), filestore.Limits{MaxBytes: 1 << 20, AllowedTypes: []string{"image/"}})
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(pngContent)
		want := filestore.Object{Key: key, Size: int64(len(pngContent)), ContentType: "image/png", SHA256: hex.EncodeToString(sum[:])}
		if obj != want {
			t.Fatalf("Put gave %+v, want %+v", obj, want)
		}
		if got := readAll(t, b.store, key); !bytes.Equal(got, pngContent) {
			t.Fatalf("Open gave %d bytes that differ from the %d put", len(got), len(pngContent))
		}

		text, err := b.store.Put(t.Context(), "company-1/notes.txt", strings.NewReader("plain words"), anyFile)
		if err != nil || text.ContentType != "text/plain; charset=utf-8" {
			t.Fatalf("text sniffed as %q (%v)", text.ContentType, err)
		}

		// Putting again replaces the object.
		if _, err := b.store.Put(t.Context(), key, bytes.NewReader(pdfContent), anyFile); err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, b.store, key); !bytes.Equal(got, pdfContent) {
			t.Fatalf("after a second Put, Open gave %q", got)
		}
		wantLeftovers(t, b, key, "company-1/notes.txt")
	})
}

// endless yields 'a' forever and counts what it gave.
type endless struct{ given int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.given += int64(len(p))
	return len(p), nil
}

func TestPutRefusesBodiesOverMaxBytes(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backendUnderTest) {
		for _, maxBytes := range []int64{10, 1000, 100_000} { // below and above the sniffed head
			lim := filestore.Limits{MaxBytes: maxBytes}
			exact := fmt.Sprintf("exact-%d", maxBytes)
			if _, err := b.store.Put(t.Context(), exact, bytes.NewReader(bytes.Repeat([]byte("x"), int(maxBytes))), lim); err != nil {
				t.Fatalf("exactly MaxBytes=%d: %v", maxBytes, err)
			}
			_, err := b.store.Put(t.Context(), "over", bytes.NewReader(bytes.Repeat([]byte("x"), int(maxBytes)+1)), lim)
			wantRefusal(t, err, "file_too_large", "file")
			wantNotStored(t, b.store, "over")

			body := &endless{}
			_, err = b.store.Put(t.Context(), "over", body, lim)
			wantRefusal(t, err, "file_too_large", "file")
			if body.given > maxBytes+1 {
				t.Fatalf("MaxBytes=%d: Put read %d bytes of an endless body", maxBytes, body.given)
			}
		}
		wantLeftovers(t, b, "exact-10", "exact-1000", "exact-100000")
	})
}

func TestPutRefusesTypesTheLimitsDoNotAllow(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backendUnderTest) {
		cases := []struct {
			content []byte
			allowed []string
			ok      bool
		}{
			{pdfContent, []string{"image/"}, false},
			{pngContent, []string{"image/"}, true},
			{pngContent, []string{"image/jpeg", "image/gif"}, false},
			{pngContent, []string{"image"}, false}, // no trailing slash: an exact type, not a prefix
			{pdfContent, []string{"image/", "application/pdf"}, true},
			{[]byte("plain words"), []string{"text/plain"}, true}, // parameters do not count
			{[]byte("plain words"), []string{"text/html"}, false},
		}
		var stored []string
		for i, c := range cases {
			key := "typed/" + string(rune('a'+i))
			_, err := b.store.Put(t.Context(), key, bytes.NewReader(c.content), filestore.Limits{MaxBytes: 1 << 20, AllowedTypes: c.allowed})
			if c.ok {
				if err != nil {
					t.Fatalf("case %d refused: %v", i, err)
				}
				stored = append(stored, key)
				continue
			}
			wantRefusal(t, err, "file_type_not_allowed", "file")
			wantNotStored(t, b.store, key)
		}
		wantLeftovers(t, b, stored...)
	})
}

func TestDeleteRemovesAndForgivesMissingKeys(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backendUnderTest) {
		ctx := t.Context()
		for _, key := range []string{"gone", "dir/kept", "file"} {
			if _, err := b.store.Put(ctx, key, strings.NewReader(key), anyFile); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.store.Delete(ctx, "gone"); err != nil {
			t.Fatal(err)
		}
		wantNotStored(t, b.store, "gone")
		for _, missing := range []string{"gone", "never-stored", "dir", "file/below"} {
			if err := b.store.Delete(ctx, missing); err != nil {
				t.Fatalf("deleting missing %q: %v", missing, err)
			}
		}
		// Neither the folder of an object nor a path below an object is an object.
		wantNotStored(t, b.store, "dir")
		wantNotStored(t, b.store, "file/below")
		if got := readAll(t, b.store, "dir/kept"); string(got) != "dir/kept" {
			t.Fatalf("dir/kept now holds %q", got)
		}
		wantLeftovers(t, b, "dir/kept", "file")
	})
}

// untouchable fails the test if anything reads it.
type untouchable struct{ t *testing.T }

func (u untouchable) Read([]byte) (int, error) {
	u.t.Error("the body of a refused key was read")
	return 0, io.EOF
}

func TestInvalidKeysAreRefusedBeforeAnyIO(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backendUnderTest) {
		var requestsBefore int64
		if b.requests != nil {
			requestsBefore = b.requests.Load()
		}
		for _, key := range []string{
			"", "../x", "/abs", "a//b", "Upper", "a/../b", "a/./b", "a/..", "a/", ".hidden",
			`a\b`, "a b", "ä", "a\x00b", strings.Repeat("a", 256),
		} {
			_, err := b.store.Put(t.Context(), key, untouchable{t}, anyFile)
			wantRefusal(t, err, "invalid_file_key", "key")
			_, err = b.store.Open(t.Context(), key)
			wantRefusal(t, err, "invalid_file_key", "key")
			err = b.store.Delete(t.Context(), key)
			wantRefusal(t, err, "invalid_file_key", "key")
			_, err = b.store.DownloadURL(t.Context(), key, filestore.Download{})
			wantRefusal(t, err, "invalid_file_key", "key")
		}
		if b.requests != nil && b.requests.Load() != requestsBefore {
			t.Fatalf("invalid keys sent %d requests to S3", b.requests.Load()-requestsBefore)
		}
		wantLeftovers(t, b)

		longest := strings.Repeat("a", 255)
		if _, err := b.store.Put(t.Context(), longest, strings.NewReader("x"), anyFile); err != nil {
			t.Fatalf("a 255-character key: %v", err)
		}
	})
}

// cancellingReader gives its content one byte per Read and cancels after the first.
type cancellingReader struct {
	content []byte
	cancel  context.CancelFunc
}

func (c *cancellingReader) Read(p []byte) (int, error) {
	if len(c.content) == 0 {
		return 0, io.EOF
	}
	c.cancel()
	p[0], c.content = c.content[0], c.content[1:]
	return 1, nil
}

func TestCancelledPutLeavesNothing(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backendUnderTest) {
		ctx, cancel := context.WithCancel(t.Context())
		_, err := b.store.Put(ctx, "cancelled", &cancellingReader{content: bytes.Repeat([]byte("x"), 2000), cancel: cancel}, anyFile)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
		_, err = b.store.Put(ctx, "cancelled", strings.NewReader("x"), anyFile)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Put with a cancelled context: %v", err)
		}
		wantNotStored(t, b.store, "cancelled")
		wantLeftovers(t, b)
	})
}

func TestPutNeedsMaxBytes(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backendUnderTest) {
		_, err := b.store.Put(t.Context(), "k", strings.NewReader("x"), filestore.Limits{})
		// Neither a refusal nor a not-found: the caller's mistake, an internal error.
		var refusal *filestore.Refusal
		var notFound *filestore.NotFoundError
		if err == nil || errors.As(err, &refusal) || errors.As(err, &notFound) {
			t.Fatalf("Put without MaxBytes: %v", err)
		}
		wantLeftovers(t, b)
	})
}

func TestDirStoreCannotBeLedOutsideItsRoot(t *testing.T) {
	t.Parallel()
	b, root := newDirBackend(t)
	ctx := t.Context()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("outside"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A symlink planted inside the root (by anything but the store) must not be followed.
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := b.store.Put(ctx, "link/planted", strings.NewReader("x"), anyFile); err == nil {
		t.Fatal("Put through a symlink to outside the root succeeded")
	}
	if r, err := b.store.Open(ctx, "link/secret"); err == nil {
		r.Close()
		t.Fatal("Open through a symlink to outside the root succeeded")
	}
	_ = b.store.Delete(ctx, "link/secret")
	for _, key := range []string{"../outside", "link/../../x"} {
		_, err := b.store.Put(ctx, key, strings.NewReader("x"), anyFile)
		wantRefusal(t, err, "invalid_file_key", "key")
	}
	if got := filesUnder(t, outside); !slices.Equal(got, []string{"secret"}) {
		t.Fatalf("outside the root now holds %q", got)
	}
	if got := filesUnder(t, root); !slices.Equal(got, []string{"link"}) {
		t.Fatalf("the root holds %q", got)
	}
}

func TestDirStoreKeepsFilesPrivate(t *testing.T) {
	t.Parallel()
	b, root := newDirBackend(t)
	if _, err := b.store.Put(t.Context(), "a/b/c", strings.NewReader("x"), anyFile); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		root:                               0o700,
		filepath.Join(root, "a"):           0o700,
		filepath.Join(root, "a", "b"):      0o700,
		filepath.Join(root, "a", "b", "c"): 0o600,
	} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s has mode %o, want %o", path, got, want)
		}
	}
}
