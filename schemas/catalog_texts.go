package schemas

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// The catalog's texts a person reads (display names, and every title and description of
// the schemas) are written in English in the catalog's own files, which validation
// compiles. Each other language has one file, locales/<lang>.json, that a translator reads
// alone: per type, its display name and, per schema, JSON pointer to {"en": source,
// "<lang>": text}. Keeping the English source beside the text is what tells a translation
// out of date: when the English changes, the old text no longer applies and English is
// served until it is translated again (translationGaps lists both kinds of gap).

// typeTexts is one type's entry in a language file; the schema parts are an action's
// config and result or a dependency type's auth and metadata.
type typeTexts struct {
	DisplayName map[string]string            `json:"display_name"`
	Config      map[string]map[string]string `json:"config,omitempty"`
	Result      map[string]map[string]string `json:"result,omitempty"`
	Auth        map[string]map[string]string `json:"auth,omitempty"`
	Metadata    map[string]map[string]string `json:"metadata,omitempty"`
}

type localeFile struct {
	Actions      map[string]typeTexts `json:"actions"`
	Dependencies map[string]typeTexts `json:"dependencies"`
}

// typeInLanguage is a type's display name and schemas as served in one language.
type typeInLanguage struct {
	displayName string
	schemas     [2]map[string]any
}

// translatable lists the texts of a schema a person reads, by JSON pointer: every title
// and description, but not a property that happens to be named so.
func translatable(v any, pointer string, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := pointer + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
			if s, ok := e.(string); ok && (k == "title" || k == "description") && !strings.HasSuffix(pointer, "/properties") {
				out[p] = s
				continue
			}
			translatable(e, p, out)
		}
	case []any:
		for i, e := range x {
			translatable(e, pointer+"/"+strconv.Itoa(i), out)
		}
	}
}

// setAt replaces the string at a JSON pointer that translatable found in v.
func setAt(v any, pointer, text string) {
	parts := strings.Split(pointer, "/")[1:]
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	for i, raw := range parts {
		key := unescape.Replace(raw)
		last := i == len(parts)-1
		switch x := v.(type) {
		case map[string]any:
			if last {
				x[key] = text
				return
			}
			v = x[key]
		case []any:
			n, _ := strconv.Atoi(key)
			v = x[n]
		}
	}
}

// localize answers the display name and schemas in lang: each text whose English source
// is the current one is replaced; every other is a gap, named under the type's label.
func localize(lang, label, displayName string, texts typeTexts, parts [2]string, served [2]map[string]any) (typeInLanguage, []string) {
	var gaps []string
	out := typeInLanguage{displayName: displayName}
	if t := texts.DisplayName[lang]; t != "" && texts.DisplayName["en"] == displayName {
		out.displayName = t
	} else {
		gaps = append(gaps, label+" display_name")
	}
	byPart := map[string]map[string]map[string]string{
		"config": texts.Config, "result": texts.Result, "auth": texts.Auth, "metadata": texts.Metadata,
	}
	for i, part := range parts {
		source := map[string]string{}
		translatable(served[i], "", source)
		schema := cloneJSON(served[i]).(map[string]any)
		given := byPart[part]
		for _, p := range slices.Sorted(maps.Keys(source)) {
			if t := given[p]; t["en"] == source[p] && t[lang] != "" {
				setAt(schema, p, t[lang])
			} else {
				gaps = append(gaps, fmt.Sprintf("%s %s %s: no %s text for %q", label, part, p, lang, source[p]))
			}
		}
		for _, p := range slices.Sorted(maps.Keys(given)) {
			if _, ok := source[p]; !ok || given[p]["en"] != source[p] {
				if ok {
					gaps = append(gaps, fmt.Sprintf("%s %s %s: the %s text translates %q, the source now says %q", label, part, p, lang, given[p]["en"], source[p]))
				} else {
					gaps = append(gaps, fmt.Sprintf("%s %s %s: the %s text translates what the schema no longer has", label, part, p, lang))
				}
			}
		}
		out.schemas[i] = schema
	}
	return out, gaps
}

// loadTranslations reads every locales/<lang>.json and gives each type its texts in those
// languages; what a file lacks or has out of date is English, and listed in c.gaps.
func (c *Catalog) loadTranslations(files fs.FS) error {
	names, err := fs.Glob(files, "locales/*.json")
	if err != nil {
		return err
	}
	c.gaps = map[string][]string{}
	for _, name := range names {
		lang := strings.TrimSuffix(path.Base(name), ".json")
		var f localeFile
		if err := decodeStrict(files, name, &f); err != nil {
			return err
		}
		var gaps []string
		for _, t := range c.actions {
			in, g := localize(lang, "action "+t.Key, t.DisplayName, f.Actions[t.Key], [2]string{"config", "result"},
				[2]map[string]any{t.ConfigSchema, t.ResultSchema})
			t.languages[lang] = in
			gaps = append(gaps, g...)
		}
		for _, d := range c.dependencies {
			in, g := localize(lang, "dependency "+d.Key, d.DisplayName, f.Dependencies[d.Key], [2]string{"auth", "metadata"},
				[2]map[string]any{d.AuthSchema, d.MetadataSchema})
			d.languages[lang] = in
			gaps = append(gaps, g...)
		}
		for key := range f.Actions {
			if _, ok := c.actionByKey[key]; !ok {
				gaps = append(gaps, "action "+key+": not in the catalog")
			}
		}
		for key := range f.Dependencies {
			if _, ok := c.dependencyBy[key]; !ok {
				gaps = append(gaps, "dependency "+key+": not in the catalog")
			}
		}
		c.gaps[lang] = gaps
	}
	return nil
}

// In is the action type as a reader of lang sees it: its display name and schemas' texts
// in lang, English where the language has no text. Only served texts differ; the type
// validates configs exactly as the English one does.
func (t *ActionType) In(lang string) *ActionType {
	in, ok := t.languages[lang]
	if !ok {
		return t
	}
	out := *t
	out.DisplayName, out.ConfigSchema, out.ResultSchema = in.displayName, in.schemas[0], in.schemas[1]
	return &out
}

// In is the dependency type as a reader of lang sees it (ActionType.In).
func (d *DependencyType) In(lang string) *DependencyType {
	in, ok := d.languages[lang]
	if !ok {
		return d
	}
	out := *d
	out.DisplayName, out.AuthSchema, out.MetadataSchema = in.displayName, in.schemas[0], in.schemas[1]
	return &out
}
