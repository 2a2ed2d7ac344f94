package filestore

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// FilesRoute is the API path under which the directory backend's download tokens are
// served: DownloadURL links to publicURL + FilesRoute + token.
const FilesRoute = "/api/v1/files/"

// spoolPrefix starts every temporary file name in the directory; no key can start with a
// dot, so a spool file never collides with an object.
const spoolPrefix = ".upload-"

// NewDir returns a store that keeps each object as a file under root (created 0o700 if
// missing). signingKey (at least 32 bytes, one used for nothing else) signs download
// tokens; publicURL is the service's public base URL, which download links start with.
func NewDir(root string, signingKey []byte, publicURL string) (*Store, error) {
	if root == "" {
		return nil, errors.New("filestore: no directory given")
	}
	if len(signingKey) < 32 {
		return nil, errors.New("filestore: the signing key must be at least 32 bytes")
	}
	base, err := url.Parse(publicURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("filestore: the public URL %q is not an absolute http(s) URL", publicURL)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("filestore: create %s: %w", root, err)
	}
	// Every file operation goes through os.Root, so even a symlink planted under root
	// cannot lead outside it.
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("filestore: open %s: %w", root, err)
	}
	return &Store{backend: &dirBackend{
		root:     r,
		linkKey:  bytes.Clone(signingKey),
		linkBase: strings.TrimSuffix(publicURL, "/") + FilesRoute,
	}}, nil
}

type dirBackend struct {
	root *os.Root
	// linkKey signs download tokens with HMAC-SHA256.
	linkKey  []byte
	linkBase string
}

func (d *dirBackend) newSpool() (*os.File, error) {
	return d.root.OpenFile(spoolPrefix+rand.Text(), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

func (d *dirBackend) dropSpool(f *os.File) {
	_ = f.Close()
	_ = d.root.Remove(filepath.Base(f.Name()))
}

// commit renames the spool file into place, so a reader sees the old object or the whole
// new one, never a part.
func (d *dirBackend) commit(ctx context.Context, f *os.File, obj Object) error {
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if dir := path.Dir(obj.Key); dir != "." {
		if err := d.root.MkdirAll(filepath.FromSlash(dir), 0o700); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.root.Rename(filepath.Base(f.Name()), filepath.FromSlash(obj.Key))
}

func (d *dirBackend) open(_ context.Context, key string) (io.ReadCloser, error) {
	f, err := d.root.Open(filepath.FromSlash(key))
	if isMissing(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("filestore: open %s: %w", key, err)
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("filestore: open %s: %w", key, err)
	}
	if !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, ErrNotFound
	}
	return f, nil
}

func (d *dirBackend) remove(_ context.Context, key string) error {
	name := filepath.FromSlash(key)
	info, err := d.root.Lstat(name)
	if isMissing(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("filestore: delete %s: %w", key, err)
	}
	if info.IsDir() { // a directory holding other objects' files is no object
		return nil
	}
	if err := d.root.Remove(name); err != nil && !isMissing(err) {
		return fmt.Errorf("filestore: delete %s: %w", key, err)
	}
	return nil
}

// isMissing reports whether err says that nothing is at a path, including a path that
// runs through a file ("a/b" when "a" is an object).
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// linkClaims is the signed payload of a download token; short field names keep links short.
type linkClaims struct {
	Key         string `json:"k"`
	Name        string `json:"n"`
	ContentType string `json:"t"`
	Expires     int64  `json:"e"` // unix seconds
}

var tokenEncoding = base64.RawURLEncoding

// downloadURL links to the API's file route with a token: base64url(JSON claims) + "." +
// base64url(HMAC-SHA256 of the encoded claims).
func (d *dirBackend) downloadURL(_ context.Context, key string, dl Download) (string, error) {
	claims, err := json.Marshal(linkClaims{
		Key:         key,
		Name:        dl.Name,
		ContentType: dl.ContentType,
		Expires:     time.Now().Add(dl.TTL).Unix(),
	})
	if err != nil {
		return "", fmt.Errorf("filestore: encode link for %s: %w", key, err)
	}
	payload := tokenEncoding.EncodeToString(claims)
	return d.linkBase + payload + "." + d.sign(payload), nil
}

func (d *dirBackend) sign(payload string) string {
	mac := hmac.New(sha256.New, d.linkKey)
	mac.Write([]byte(payload))
	return tokenEncoding.EncodeToString(mac.Sum(nil))
}

// OpenLink verifies a token that DownloadURL put in a link and says what it grants, as of
// now. A malformed, forged, tampered or expired token, and any token given to a store
// whose links are not tokens (S3), is ErrLinkNotFound: one answer, so that a caller
// learns nothing from trying.
func (s *Store) OpenLink(token string, now time.Time) (Link, error) {
	dir, ok := s.backend.(*dirBackend)
	if !ok {
		return Link{}, ErrLinkNotFound
	}
	payload, signature, ok := strings.Cut(token, ".")
	// The encoded signatures are compared, not the decoded ones: base64 decoding ignores
	// the unused low bits of the last character, which would let a changed token pass.
	if !ok || !hmac.Equal([]byte(signature), []byte(dir.sign(payload))) {
		return Link{}, ErrLinkNotFound
	}
	raw, err := tokenEncoding.DecodeString(payload)
	if err != nil {
		return Link{}, ErrLinkNotFound
	}
	var claims linkClaims
	if err := json.Unmarshal(raw, &claims); err != nil || checkKey(claims.Key) != nil {
		return Link{}, ErrLinkNotFound
	}
	if !now.Before(time.Unix(claims.Expires, 0)) {
		return Link{}, ErrLinkNotFound
	}
	return Link{Key: claims.Key, Name: claims.Name, ContentType: claims.ContentType}, nil
}
