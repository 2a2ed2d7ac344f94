package models_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"agencyhub/models"
	"agencyhub/platform/filestore"
)

// TestTheFileStoresErrorsAreDomainErrors holds AsError to the problems the file store's
// answers have always been: its refusals invalid with their field, its not-founds
// not_found, and anything else internal, however deep in a caller's wrapping.
func TestTheFileStoresErrorsAreDomainErrors(t *testing.T) {
	store, err := filestore.NewDir(t.TempDir(), bytes.Repeat([]byte("k"), 32), "http://api.test")
	if err != nil {
		t.Fatal(err)
	}
	errorOf := func(_ any, err error) error { return err }
	cases := []struct {
		name   string
		err    error
		kind   models.Kind
		key    string
		fields []string
	}{
		{"a file over the limit", errorOf(store.Put(t.Context(), "a", strings.NewReader("xx"), filestore.Limits{MaxBytes: 1})),
			models.KindInvalid, "file_too_large", []string{"file"}},
		{"a key that climbs out", errorOf(store.Open(t.Context(), "../a")), models.KindInvalid, "invalid_file_key", []string{"key"}},
		{"a missing file, wrapped by its caller", fmt.Errorf("open the attachment: %w", errorOf(store.Open(t.Context(), "none"))),
			models.KindNotFound, "file_not_found", nil},
		{"a forged link", errorOf(store.OpenLink("forged.token", time.Now())), models.KindNotFound, "file_link_not_found", nil},
		{"the store's own failure", errorOf(store.Put(t.Context(), "a", strings.NewReader("x"), filestore.Limits{})),
			models.KindInternal, "internal", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := models.AsError(c.err)
			if e.Kind != c.kind || e.Key != c.key || !slices.Equal(e.Fields, c.fields) {
				t.Fatalf("%v is %s %s %v, want %s %s %v", c.err, e.Kind, e.Key, e.Fields, c.kind, c.key, c.fields)
			}
			if c.kind != models.KindInternal && !models.IsKind(c.err, c.kind) {
				t.Fatalf("IsKind(%v, %s) is false", c.err, c.kind)
			}
		})
	}
}
