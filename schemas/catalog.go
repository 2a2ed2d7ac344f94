package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"time"
	// The schedule trigger's timezone is checked against the IANA database; embedding it keeps
	// the check the same on machines without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// catalogFiles are the action and dependency type catalogs: an index (catalog.json) per
// folder and one JSON Schema file per config, result, auth and metadata, and their texts
// in each language besides English (locales/<lang>.json, catalog_texts.go).
//
//go:embed actions/*.json dependencies/*.json locales/*.json
var catalogFiles embed.FS

// ActionType is one entry of the action type catalog.
type ActionType struct {
	Key, DisplayName string
	// Category is trigger, integration, logic or control.
	Category           string
	RequiresDependency bool
	// DependencyTypeKey is the type of the integration the action's dependency field
	// names; empty when the action uses none.
	DependencyTypeKey string
	// ProviderKey is the provider of that type when the action requires one (the
	// specification's provider_key: empty when no project dependency is needed, as for
	// http.request, whose http.auth credential is optional).
	ProviderKey string
	// DependencyField is the config field that holds the dependency id; empty when none.
	DependencyField string
	// Importable types are supported now and may appear in a patch; the others are planned.
	Importable bool
	Trigger    bool
	// Idempotent tells whether the engine may retry the action automatically after an
	// unknown outcome.
	Idempotent bool
	// ConfigSchema and ResultSchema are the JSON Schemas as served.
	ConfigSchema, ResultSchema map[string]any
	config                     *jsonschema.Schema
	defaults                   map[string]any
	languages                  map[string]typeInLanguage
}

// DependencyType is one entry of the dependency (integration) type catalog.
type DependencyType struct {
	Key, DisplayName, ProviderKey string
	// AuthSchema (the secret fields) and MetadataSchema (the other settings) are the JSON
	// Schemas as served.
	AuthSchema, MetadataSchema map[string]any
	auth, metadata             *jsonschema.Schema
	languages                  map[string]typeInLanguage
}

// Catalog holds the action and dependency types in their index order.
type Catalog struct {
	actions      []*ActionType
	actionByKey  map[string]*ActionType
	dependencies []*DependencyType
	dependencyBy map[string]*DependencyType
	// gaps lists, per language, the texts served in English for want of a current
	// translation.
	gaps map[string][]string
}

var (
	catalogOnce   sync.Once
	catalogLoaded *Catalog
	catalogErr    error
)

// LoadCatalog parses and compiles the embedded catalogs once.
func LoadCatalog() (*Catalog, error) {
	catalogOnce.Do(func() { catalogLoaded, catalogErr = parseCatalog(catalogFiles) })
	return catalogLoaded, catalogErr
}

// Actions lists every action type, importable and planned, in catalog order.
func (c *Catalog) Actions() []*ActionType { return slices.Clone(c.actions) }

// Action finds an action type by its key.
func (c *Catalog) Action(key string) (*ActionType, bool) {
	t, ok := c.actionByKey[key]
	return t, ok
}

// Dependencies lists every dependency type in catalog order.
func (c *Catalog) Dependencies() []*DependencyType { return slices.Clone(c.dependencies) }

// Dependency finds a dependency type by its key.
func (c *Catalog) Dependency(key string) (*DependencyType, bool) {
	d, ok := c.dependencyBy[key]
	return d, ok
}

// ValidateConfig checks an action's config and returns the offending fields as dotted paths
// (retry_policy.max_attempts), nil when the config is valid.
func (t *ActionType) ValidateConfig(config map[string]any) []string {
	return validateObject(t.config, config, "config")
}

// ApplyDefaults returns a copy of config with the schema's defaults of absent top-level
// fields filled in. Default values are copied, so changing the result never changes the
// catalog.
func (t *ActionType) ApplyDefaults(config map[string]any) map[string]any {
	out := make(map[string]any, len(config)+len(t.defaults))
	for k, v := range config {
		out[k] = v
	}
	for k, v := range t.defaults {
		if _, ok := out[k]; !ok {
			out[k] = cloneJSON(v)
		}
	}
	return out
}

// ValidateAuth checks a dependency's secret fields; nil when valid.
func (d *DependencyType) ValidateAuth(v map[string]any) []string {
	return validateObject(d.auth, v, "auth")
}

// ValidateMetadata checks a dependency's non-secret settings; nil when valid.
func (d *DependencyType) ValidateMetadata(v map[string]any) []string {
	return validateObject(d.metadata, v, "metadata")
}

// validateObject checks v against s. whole names v itself when the failure is not about a
// field (a Go value that is not JSON data).
func validateObject(s *jsonschema.Schema, v map[string]any, whole string) []string {
	if v == nil {
		v = map[string]any{}
	}
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return []string{whole}
	}
	return fieldsOf(verr)
}

// actionEntry and dependencyEntry are the index files' rows.
type actionEntry struct {
	ActionKey          string `json:"action_key"`
	DisplayName        string `json:"display_name"`
	Category           string `json:"category"`
	RequiresDependency bool   `json:"requires_dependency"`
	DependencyTypeKey  string `json:"dependency_type_key"`
	DependencyField    string `json:"dependency_field"`
	Importable         bool   `json:"importable"`
	Trigger            bool   `json:"trigger"`
	Idempotent         bool   `json:"idempotent"`
}

type dependencyEntry struct {
	DependencyTypeKey string `json:"dependency_type_key"`
	DisplayName       string `json:"display_name"`
	ProviderKey       string `json:"provider_key"`
}

var categories = []string{"trigger", "integration", "logic", "control"}

// ianaTimeZone is the format of schedule.trigger's timezone: a name the IANA database knows.
var ianaTimeZone = &jsonschema.Format{Name: "iana-time-zone", Validate: func(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if s == "" || s == "Local" {
		return fmt.Errorf("%q is not an IANA time zone name", s)
	}
	_, err := time.LoadLocation(s)
	return err
}}

func parseCatalog(files fs.FS) (*Catalog, error) {
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	compiler.AssertFormat()
	compiler.RegisterFormat(ianaTimeZone)
	load := func(name string) (map[string]any, *jsonschema.Schema, error) {
		return loadSchema(files, compiler, name)
	}

	c := &Catalog{actionByKey: map[string]*ActionType{}, dependencyBy: map[string]*DependencyType{}}
	var deps []dependencyEntry
	if err := decodeStrict(files, "dependencies/catalog.json", &deps); err != nil {
		return nil, err
	}
	for _, e := range deps {
		if e.DependencyTypeKey == "" || e.DisplayName == "" || e.ProviderKey == "" || c.dependencyBy[e.DependencyTypeKey] != nil {
			return nil, fmt.Errorf(
				"dependencies/catalog.json: entry %q: key, display_name and provider_key are required and keys unique",
				e.DependencyTypeKey,
			)
		}
		d := &DependencyType{Key: e.DependencyTypeKey, DisplayName: e.DisplayName, ProviderKey: e.ProviderKey,
			languages: map[string]typeInLanguage{}}
		var err error
		if d.AuthSchema, d.auth, err = load("dependencies/" + d.Key + ".auth.json"); err != nil {
			return nil, err
		}
		if d.MetadataSchema, d.metadata, err = load("dependencies/" + d.Key + ".metadata.json"); err != nil {
			return nil, err
		}
		c.dependencies = append(c.dependencies, d)
		c.dependencyBy[d.Key] = d
	}

	var actions []actionEntry
	if err := decodeStrict(files, "actions/catalog.json", &actions); err != nil {
		return nil, err
	}
	for _, e := range actions {
		t := &ActionType{
			Key: e.ActionKey, DisplayName: e.DisplayName, Category: e.Category,
			RequiresDependency: e.RequiresDependency, DependencyTypeKey: e.DependencyTypeKey, DependencyField: e.DependencyField,
			Importable: e.Importable, Trigger: e.Trigger, Idempotent: e.Idempotent,
			languages: map[string]typeInLanguage{},
		}
		var err error
		if t.ConfigSchema, t.config, err = load("actions/" + t.Key + ".config.json"); err != nil {
			return nil, err
		}
		if t.ResultSchema, _, err = load("actions/" + t.Key + ".result.json"); err != nil {
			return nil, err
		}
		if err := c.checkAction(t); err != nil {
			return nil, fmt.Errorf("actions/catalog.json: %s: %w", t.Key, err)
		}
		t.defaults = map[string]any{}
		props, _ := t.ConfigSchema["properties"].(map[string]any)
		for name, p := range props {
			if def, ok := p.(map[string]any)["default"]; ok {
				t.defaults[name] = def
			}
		}
		c.actions = append(c.actions, t)
		c.actionByKey[t.Key] = t
	}
	if err := c.loadTranslations(files); err != nil {
		return nil, err
	}
	return c, nil
}

// checkAction enforces what the rest of the service relies on: unique keys, a known
// category, and a dependency field that the config has and whose type the catalog knows;
// it fills in the provider of that type when the action requires it.
func (c *Catalog) checkAction(t *ActionType) error {
	switch {
	case t.Key == "" || t.DisplayName == "":
		return errors.New("action_key and display_name are required")
	case c.actionByKey[t.Key] != nil:
		return errors.New("listed twice")
	case !slices.Contains(categories, t.Category):
		return fmt.Errorf("category %q is not one of %v", t.Category, categories)
	case t.Trigger != (t.Category == "trigger"):
		return errors.New("trigger must be true exactly for the trigger category")
	case (t.DependencyTypeKey == "") != (t.DependencyField == ""):
		return errors.New("dependency_type_key and dependency_field go together")
	case t.RequiresDependency && t.DependencyTypeKey == "":
		return errors.New("requires_dependency needs dependency_type_key and dependency_field")
	}
	if t.DependencyTypeKey == "" {
		return nil
	}
	d, ok := c.dependencyBy[t.DependencyTypeKey]
	if !ok {
		return fmt.Errorf("dependency_type_key %q is not in dependencies/catalog.json", t.DependencyTypeKey)
	}
	if t.RequiresDependency {
		t.ProviderKey = d.ProviderKey
	}
	props, _ := t.ConfigSchema["properties"].(map[string]any)
	if _, ok := props[t.DependencyField]; !ok {
		return fmt.Errorf("dependency_field %q is not a property of the config schema", t.DependencyField)
	}
	return nil
}

// loadSchema reads one schema file, compiles it and returns it also as plain JSON values
// for serving.
func loadSchema(files fs.FS, compiler *jsonschema.Compiler, name string) (map[string]any, *jsonschema.Schema, error) {
	src, err := fs.ReadFile(files, name)
	if err != nil {
		return nil, nil, err
	}
	var served map[string]any
	if err := json.Unmarshal(src, &served); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if served["type"] != "object" {
		return nil, nil, fmt.Errorf("%s: the schema must be of type object", name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	url := "file:///" + name
	if err := compiler.AddResource(url, doc); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	s, err := compiler.Compile(url)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return served, s, nil
}

func decodeStrict(files fs.FS, name string, into any) error {
	src, err := fs.ReadFile(files, name)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// cloneJSON deep-copies a value decoded from JSON.
func cloneJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneJSON(e)
		}
		return out
	default:
		return v
	}
}
