package schemas

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/google/uuid"
)

// GlobalServiceType is a client service type every company sees, read-only: the catalog in
// billing/service_types.json. Its id is fixed in the file, so services keep naming it.
type GlobalServiceType struct {
	ID          uuid.UUID `json:"client_service_type_id"`
	Key         string    `json:"service_type_key"`
	DisplayName string    `json:"display_name"`
	Description string    `json:"description"`
	SortOrder   int       `json:"sort_order"`
}

//go:embed billing/service_types.json
var serviceTypesJSON []byte

// ServiceTypeKeyPattern is the form of every service_type_key, global or not.
var ServiceTypeKeyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// GlobalServiceTypes is the catalog in file order; a broken file stops the binary at start.
var GlobalServiceTypes = mustServiceTypes(serviceTypesJSON)

func mustServiceTypes(raw []byte) []GlobalServiceType {
	types, err := parseServiceTypes(raw)
	if err != nil {
		panic(err)
	}
	return types
}

// parseServiceTypes reads the catalog and refuses a duplicate id or key, or a malformed key.
func parseServiceTypes(raw []byte) ([]GlobalServiceType, error) {
	var types []GlobalServiceType
	if err := json.Unmarshal(raw, &types); err != nil {
		return nil, fmt.Errorf("billing/service_types.json: %w", err)
	}
	ids, keys := map[uuid.UUID]bool{}, map[string]bool{}
	for _, t := range types {
		if t.ID == uuid.Nil || ids[t.ID] || keys[t.Key] || !ServiceTypeKeyPattern.MatchString(t.Key) || t.DisplayName == "" {
			return nil, fmt.Errorf(
				"billing/service_types.json: entry %q: an id and a key must be unique, the key %s, the name set",
				t.Key,
				ServiceTypeKeyPattern,
			)
		}
		ids[t.ID], keys[t.Key] = true, true
	}
	return types, nil
}
