package filestore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"regexp"
	"strings"
	"time"
)

// Limits are what one kind of upload may be. Each caller (billing documents, attachments,
// recordings) passes its own, so the rules live with the use but are enforced here, once.
type Limits struct {
	// MaxBytes is the largest body accepted; it must be positive.
	MaxBytes int64
	// AllowedTypes are the sniffed media types accepted, without parameters ("image/png");
	// an entry ending in "/" accepts every type it prefixes ("image/"). Empty accepts any.
	AllowedTypes []string
}

// allows reports whether the sniffed contentType is one of the allowed types.
func (l Limits) allows(contentType string) bool {
	if len(l.AllowedTypes) == 0 {
		return true
	}
	mediaType, _, _ := strings.Cut(contentType, ";")
	mediaType = strings.TrimSpace(mediaType)
	for _, allowed := range l.AllowedTypes {
		if mediaType == allowed || (strings.HasSuffix(allowed, "/") && strings.HasPrefix(mediaType, allowed)) {
			return true
		}
	}
	return false
}

// Object describes a stored blob. Callers keep it in their rows: the store has no metadata.
type Object struct {
	Key  string
	Size int64
	// ContentType is sniffed from the first 512 bytes (net/http.DetectContentType, with
	// its parameters, e.g. "text/plain; charset=utf-8"), never taken from the client, so
	// a file cannot pass an allow-list by claiming to be something else.
	ContentType string
	// SHA256 is the hex digest of the content, for integrity checks and deduplication.
	SHA256 string
}

// Download is how a browser is offered an object through DownloadURL.
type Download struct {
	// Name is the file name offered for saving; empty uses the last segment of the key.
	Name string
	// ContentType is the type served, normally the Object's; empty serves
	// application/octet-stream.
	ContentType string
	// TTL is how long the link works: zero means 15 minutes, and it is clamped to
	// 1 minute .. 7 days (7 days is the longest an S3 presigned URL may live).
	TTL time.Duration
}

// Link is what a verified download token grants: the object, and how to serve it.
type Link struct {
	Key         string
	Name        string
	ContentType string
}

// ContentDisposition is the Content-Disposition header that offers the file for saving
// under its name.
func (l Link) ContentDisposition() string { return contentDisposition(l.Name) }

const (
	// sniffLen is how much net/http.DetectContentType looks at.
	sniffLen = 512

	defaultLinkTTL = 15 * time.Minute
	minLinkTTL     = time.Minute
	maxLinkTTL     = 7 * 24 * time.Hour

	defaultDownloadType = "application/octet-stream"
)

// Store keeps blobs in one backend. It is safe for concurrent use.
type Store struct {
	backend backend
	// linkOrigin is the origin of the download links, when not the API's own.
	linkOrigin string
}

// LinkOrigin answers the scheme, host and port of the download links, for a page's
// Content-Security-Policy to let it show or play what they point at, or "" when the API
// serves the links itself.
func (s *Store) LinkOrigin() string { return s.linkOrigin }

// backend is where the bytes live. Store validates keys and limits first, so a backend
// only ever sees valid keys.
type backend interface {
	// newSpool creates the empty temporary file Put writes a body into.
	newSpool() (*os.File, error)
	// dropSpool closes f and removes it if it is still there (commit may have moved it).
	dropSpool(f *os.File)
	// commit makes the complete spool file f the object obj.Key.
	commit(ctx context.Context, f *os.File, obj Object) error
	open(ctx context.Context, key string) (io.ReadCloser, error)
	// remove deletes key; a missing key is not an error.
	remove(ctx context.Context, key string) error
	// downloadURL links to key; d has been completed (name, type, clamped TTL).
	downloadURL(ctx context.Context, key string, d Download) (string, error)
}

// Put stores the body read from r under key, replacing any object there, after checking
// it against lim. It reads r once and at most lim.MaxBytes+1 bytes of it. Errors are
// a *Refusal (invalid_file_key, file_too_large, file_type_not_allowed), or internal; on
// any error nothing is stored.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, lim Limits) (Object, error) {
	if err := checkKey(key); err != nil {
		return Object{}, err
	}
	if lim.MaxBytes <= 0 {
		return Object{}, fmt.Errorf("filestore: Limits.MaxBytes must be positive, got %d", lim.MaxBytes)
	}
	body := io.LimitReader(contextReader{ctx: ctx, r: r}, lim.MaxBytes+1)

	// The type is known from the head alone, so a refused type costs no spooling.
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(body, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Object{}, fmt.Errorf("filestore: read upload for %s: %w", key, err)
	}
	head = head[:n]
	contentType := http.DetectContentType(head)
	if !lim.allows(contentType) {
		return Object{}, refuse("file_type_not_allowed", "file")
	}

	spool, err := s.backend.newSpool()
	if err != nil {
		return Object{}, fmt.Errorf("filestore: spool upload for %s: %w", key, err)
	}
	defer s.backend.dropSpool(spool)
	digest := sha256.New()
	size, err := io.Copy(io.MultiWriter(spool, digest), io.MultiReader(bytes.NewReader(head), body))
	if err != nil {
		return Object{}, fmt.Errorf("filestore: spool upload for %s: %w", key, err)
	}
	if size > lim.MaxBytes {
		return Object{}, refuse("file_too_large", "file")
	}
	obj := Object{Key: key, Size: size, ContentType: contentType, SHA256: hex.EncodeToString(digest.Sum(nil))}
	if err := s.backend.commit(ctx, spool, obj); err != nil {
		return Object{}, fmt.Errorf("filestore: store %s: %w", key, err)
	}
	return obj, nil
}

// Open returns the content of key; the caller closes it. A missing key is ErrNotFound.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	return s.backend.open(ctx, key)
}

// Delete removes key. Deleting a missing key is not an error, so a retried cleanup
// succeeds.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	return s.backend.remove(ctx, key)
}

// DownloadURL returns a link through which a browser downloads key as an attachment,
// without the caller's credentials, until the TTL runs out. It does not check that the
// object exists. The directory backend links to the API's file route with a signed token
// (see OpenLink); S3 links are presigned GET URLs.
func (s *Store) DownloadURL(ctx context.Context, key string, d Download) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	if d.Name == "" {
		d.Name = path.Base(key)
	}
	if d.ContentType == "" {
		d.ContentType = defaultDownloadType
	}
	if _, _, err := mime.ParseMediaType(d.ContentType); err != nil {
		return "", fmt.Errorf("filestore: download content type %q: %w", d.ContentType, err)
	}
	d.TTL = clampTTL(d.TTL)
	return s.backend.downloadURL(ctx, key, d)
}

func clampTTL(ttl time.Duration) time.Duration {
	if ttl == 0 {
		return defaultLinkTTL
	}
	return min(max(ttl, minLinkTTL), maxLinkTTL)
}

// keySyntax is what a key may look like: lower-case letters, digits and _ . - in segments
// separated by single slashes, at most 255 characters in all, so that no segment is longer
// than a file name may be. checkKey adds the rules a regexp states badly.
var keySyntax = regexp.MustCompile(`^[a-z0-9][a-z0-9/_.-]{0,254}$`)

// checkKey refuses any key that could name something outside the store (".." segments,
// absolute paths) or be read two ways ("a//b", "a/./b", a trailing slash), before any
// backend sees it.
func checkKey(key string) error {
	if !keySyntax.MatchString(key) {
		return refuse("invalid_file_key", "key")
	}
	for segment := range strings.SplitSeq(key, "/") {
		if segment == "" || segment == "." || segment == ".." {
			return refuse("invalid_file_key", "key")
		}
	}
	return nil
}

// contextReader stops a body read at the first Read after ctx ends, so a cancelled upload
// stops spooling.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// contentDisposition offers name for saving (RFC 6266, with the RFC 8187 encoding of
// filename*, which every current browser reads and which carries any character).
func contentDisposition(name string) string {
	name = strings.ToValidUTF8(name, "_")
	var b strings.Builder
	b.WriteString("attachment; filename*=UTF-8''")
	for i := range len(name) {
		c := name[i]
		if isAttrChar(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// isAttrChar reports whether c may stand unencoded in an RFC 8187 value.
func isAttrChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$&+-.^_`|~", c) >= 0
}
