package schemas

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
)

func TestEveryCatalogTextHasItsCurrentRussian(t *testing.T) {
	cat, err := LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, gap := range cat.gaps["ru"] {
		t.Error(gap)
	}
}

// cyrillic tells whether s has a Russian word in it, not only keys and code.
func cyrillic(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) >= 0
}

func TestTheCatalogInRussianNamesAndDescribesEveryTypeInRussian(t *testing.T) {
	cat, err := LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range cat.Actions() {
		ru := a.In("ru")
		props, _ := ru.ConfigSchema["properties"].(map[string]any)
		for name, p := range props {
			p, _ := p.(map[string]any)
			if title, _ := p["title"].(string); !cyrillic(title) && title != "SQL" && title != "Cron" && title != "URL" {
				t.Errorf("%s: the field %s is labelled %q in Russian", a.Key, name, title)
			}
		}
		if desc, _ := ru.ConfigSchema["description"].(string); !cyrillic(ru.DisplayName) || !cyrillic(desc) {
			t.Errorf("%s reads in Russian as %q: %q", a.Key, ru.DisplayName, desc)
		}
	}
	for _, d := range cat.Dependencies() {
		if ru := d.In("ru"); !cyrillic(ru.DisplayName) {
			t.Errorf("%s is named %q in Russian", d.Key, ru.DisplayName)
		}
	}
	http, _ := cat.Action("http.request")
	if got := http.In("ru").DisplayName; got != "HTTP-запрос" {
		t.Errorf("http.request in Russian is %q", got)
	}
	if got := http.DisplayName; got != "HTTP request" {
		t.Errorf("the English catalog changed with the Russian: %q", got)
	}
	if http.In("ru").ConfigSchema["description"] == http.ConfigSchema["description"] {
		t.Error("the Russian config schema has the English description")
	}
	if got := http.In("de"); got != http {
		t.Error("a language without texts is not served in English")
	}
}

func TestTheRussianCatalogValidatesAsTheEnglishOne(t *testing.T) {
	cat, err := LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range importable {
		a, _ := cat.Action(tc.key)
		ru := a.In("ru")
		bad := map[string]any{"no_such_field": 1}
		if !reflect.DeepEqual(ru.ValidateConfig(tc.minimal), a.ValidateConfig(tc.minimal)) ||
			!reflect.DeepEqual(ru.ValidateConfig(bad), a.ValidateConfig(bad)) {
			t.Errorf("%s validates differently in Russian", tc.key)
		}
		if !reflect.DeepEqual(stripTexts(ru.ConfigSchema), stripTexts(a.ConfigSchema)) {
			t.Errorf("%s: the Russian config schema differs from the English one in more than its texts", tc.key)
		}
	}
}

// stripTexts is a schema without its translatable texts.
func stripTexts(schema map[string]any) any {
	out := cloneJSON(schema)
	texts := map[string]string{}
	translatable(out, "", texts)
	for p := range texts {
		setAt(out, p, "")
	}
	return out
}

func TestATranslationOfAnOldEnglishTextIsNotServed(t *testing.T) {
	files := fstest.MapFS{
		"dependencies/catalog.json":          {Data: []byte(`[{"dependency_type_key": "smtp.server", "display_name": "SMTP server", "provider_key": "smtp"}]`)},
		"dependencies/smtp.server.auth.json": {Data: []byte(`{"type": "object", "description": "Login and password."}`)},
		"dependencies/smtp.server.metadata.json": {Data: []byte(`{"type": "object", "properties": {"host": {"title": "Host", "type": "string"},
			"description": {"type": "string"}}}`)},
		"actions/catalog.json": {Data: []byte(`[]`)},
		"locales/ru.json": {Data: []byte(`{"actions": {}, "dependencies": {"smtp.server": {
			"display_name": {"en": "SMTP server", "ru": "SMTP-сервер"},
			"auth": {"/description": {"en": "Login.", "ru": "Логин."}},
			"metadata": {"/properties/host/title": {"en": "Host", "ru": "Хост"}, "/properties/port/title": {"en": "Port", "ru": "Порт"}}}}}`)},
	}
	cat, err := parseCatalog(files)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := cat.Dependency("smtp.server")
	ru := d.In("ru")
	if ru.DisplayName != "SMTP-сервер" || ru.MetadataSchema["properties"].(map[string]any)["host"].(map[string]any)["title"] != "Хост" {
		t.Errorf("the current texts are not served in Russian: %q, %v", ru.DisplayName, ru.MetadataSchema)
	}
	if got := ru.AuthSchema["description"]; got != "Login and password." {
		t.Errorf("the translation of an old text is served: %q", got)
	}
	want := []string{
		`dependency smtp.server auth /description: no ru text for "Login and password."`,
		`dependency smtp.server auth /description: the ru text translates "Login.", the source now says "Login and password."`,
		"dependency smtp.server metadata /properties/port/title: the ru text translates what the schema no longer has",
	}
	if !reflect.DeepEqual(cat.gaps["ru"], want) {
		t.Errorf("gaps:\n%s\nwant:\n%s", strings.Join(cat.gaps["ru"], "\n"), strings.Join(want, "\n"))
	}
}
