package filestore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config says where an S3-compatible bucket is and how to reach it.
type S3Config struct {
	// Endpoint is host[:port], without a scheme.
	Endpoint  string
	AccessKey string
	SecretKey string
	Bucket    string
	// Prefix, when set, is put with a "/" before every key, so one bucket can hold
	// several deployments' files.
	Prefix string
	Region string
	// Secure selects https.
	Secure bool
	// PathStyle puts the bucket in the path (host/bucket/key), as most self-hosted S3
	// servers need; otherwise the client chooses (virtual-hosted on AWS, path elsewhere).
	PathStyle bool
	// SpoolDir is where Put keeps an upload until it is checked and sent; empty means
	// os.TempDir().
	SpoolDir string
}

const defaultS3Region = "us-east-1"

// bucketName is the S3 bucket naming rule (3..63 lower-case letters, digits, dots and
// hyphens, starting and ending with a letter or digit).
var bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// ParseS3URL reads the one setting of the S3 backend:
//
//	s3://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix][?region=us-east-1&secure=true&path_style=false]
//
// Characters of the secret that URLs reserve (/ + = # @ :) must be percent-encoded. The
// defaults are region us-east-1, secure=true (https) and path_style=false. Errors say what
// is wrong and never repeat the secret.
func ParseS3URL(raw string) (S3Config, error) {
	fail := func(format string, args ...any) (S3Config, error) {
		return S3Config{}, fmt.Errorf("S3 URL: "+format, args...)
	}
	// A # starts a fragment, which would silently cut the secret short.
	if strings.Contains(raw, "#") {
		return fail("unexpected #; write a # in the secret as %%23")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse's message quotes parts of the URL, and those can be the secret's.
		return fail("not a valid URL; percent-encode the characters / + = # @ : of the secret")
	}
	if u.Scheme != "s3" {
		return fail("the scheme must be s3://")
	}
	cfg := S3Config{Region: defaultS3Region, Secure: true}
	if u.User != nil {
		cfg.AccessKey = u.User.Username()
		cfg.SecretKey, _ = u.User.Password()
	}
	if cfg.AccessKey == "" {
		return fail("the access key is missing (s3://ACCESS_KEY:SECRET_KEY@host/bucket)")
	}
	if cfg.SecretKey == "" {
		return fail("the secret key is missing (s3://ACCESS_KEY:SECRET_KEY@host/bucket)")
	}
	if u.Hostname() == "" {
		return fail("the host is missing")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fail("the port %q is not 1..65535", port)
		}
	}
	cfg.Endpoint = u.Host

	bucket, prefix, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if bucket == "" {
		return fail("the bucket is missing (s3://ACCESS_KEY:SECRET_KEY@host/bucket)")
	}
	if !bucketName.MatchString(bucket) {
		return fail("%q is not a bucket name (3..63 lower-case letters, digits, dots and hyphens)", bucket)
	}
	cfg.Bucket = bucket
	if prefix = strings.TrimSuffix(prefix, "/"); prefix != "" {
		if checkKey(prefix) != nil {
			return fail("the prefix %q is not lower-case letters, digits, _ . - in /-separated segments", prefix)
		}
		cfg.Prefix = prefix
	}

	query, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return fail("the query is malformed: %v", err)
	}
	for name, values := range query {
		value := values[len(values)-1]
		switch name {
		case "region":
			if value == "" {
				return fail("region is empty")
			}
			cfg.Region = value
		case "secure", "path_style":
			flag, err := strconv.ParseBool(value)
			if err != nil {
				return fail("%s must be true or false, not %q", name, value)
			}
			if name == "secure" {
				cfg.Secure = flag
			} else {
				cfg.PathStyle = flag
			}
		default:
			return fail("unknown parameter %q (known: region, secure, path_style)", name)
		}
	}
	return cfg, nil
}

// NewS3 returns a store that keeps objects in cfg's bucket. It checks that the bucket
// exists, and creates none: which bucket, with which policy, is the operator's choice.
func NewS3(ctx context.Context, cfg S3Config) (*Store, error) {
	switch {
	case cfg.Endpoint == "":
		return nil, errors.New("filestore: the S3 endpoint is empty")
	case cfg.Bucket == "":
		return nil, errors.New("filestore: the S3 bucket is empty")
	case cfg.AccessKey == "" || cfg.SecretKey == "":
		return nil, errors.New("filestore: the S3 access key or secret key is empty")
	case cfg.Prefix != "" && checkKey(cfg.Prefix) != nil:
		return nil, fmt.Errorf("filestore: the S3 prefix %q is not a valid key prefix", cfg.Prefix)
	}
	lookup := minio.BucketLookupAuto
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	client, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:        credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure:       cfg.Secure,
		Region:       cfg.Region,
		BucketLookup: lookup,
	})
	if err != nil {
		return nil, fmt.Errorf("filestore: S3 client for %s: %w", cfg.Endpoint, err)
	}
	exists, err := client.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("filestore: check S3 bucket %q at %s: %w", cfg.Bucket, cfg.Endpoint, err)
	}
	if !exists {
		return nil, fmt.Errorf("filestore: S3 bucket %q does not exist at %s; create it first", cfg.Bucket, cfg.Endpoint)
	}
	spoolDir := cfg.SpoolDir
	if spoolDir == "" {
		spoolDir = os.TempDir()
	}
	// Presigning is local (the region is known), so a link to any name shows their origin.
	sample, err := client.PresignedGetObject(ctx, cfg.Bucket, "origin", time.Minute, nil)
	if err != nil {
		return nil, fmt.Errorf("filestore: presign an S3 link at %s: %w", cfg.Endpoint, err)
	}
	return &Store{
		backend:    &s3Backend{client: client, bucket: cfg.Bucket, prefix: cfg.Prefix, spoolDir: spoolDir},
		linkOrigin: sample.Scheme + "://" + sample.Host,
	}, nil
}

type s3Backend struct {
	client   *minio.Client
	bucket   string
	prefix   string
	spoolDir string
}

func (b *s3Backend) objectName(key string) string {
	if b.prefix == "" {
		return key
	}
	return b.prefix + "/" + key
}

func (b *s3Backend) newSpool() (*os.File, error) {
	return os.CreateTemp(b.spoolDir, "filestore-upload-*")
}

func (b *s3Backend) dropSpool(f *os.File) {
	_ = f.Close()
	_ = os.Remove(f.Name())
}

// commit uploads the spool file with its known size and sniffed type; S3 makes the
// object visible only when the upload completes.
func (b *s3Backend) commit(ctx context.Context, f *os.File, obj Object) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := b.client.PutObject(ctx, b.bucket, b.objectName(obj.Key), f, obj.Size,
		minio.PutObjectOptions{ContentType: obj.ContentType})
	return err
}

func (b *s3Backend) open(ctx context.Context, key string) (io.ReadCloser, error) {
	obj, err := b.client.GetObject(ctx, b.bucket, b.objectName(key), minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("filestore: open %s: %w", key, err)
	}
	// GetObject is lazy; Stat sends the request, so a missing key is known here.
	if _, err := obj.Stat(); err != nil {
		_ = obj.Close()
		if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("filestore: open %s: %w", key, err)
	}
	return obj, nil
}

func (b *s3Backend) remove(ctx context.Context, key string) error {
	if err := b.client.RemoveObject(ctx, b.bucket, b.objectName(key), minio.RemoveObjectOptions{}); err != nil {
		return fmt.Errorf("filestore: delete %s: %w", key, err)
	}
	return nil
}

// downloadURL presigns a GET whose response carries the given type and disposition,
// whatever the object was stored with.
func (b *s3Backend) downloadURL(ctx context.Context, key string, d Download) (string, error) {
	params := url.Values{
		"response-content-type":        {d.ContentType},
		"response-content-disposition": {contentDisposition(d.Name)},
	}
	u, err := b.client.PresignedGetObject(ctx, b.bucket, b.objectName(key), d.TTL, params)
	if err != nil {
		return "", fmt.Errorf("filestore: presign %s: %w", key, err)
	}
	return u.String(), nil
}
