package company

import (
	"strings"
	"testing"
)

func TestSlugify(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"a Latin name becomes lower-case words joined by hyphens", "Northwind Agency", "northwind-agency"},
		{"digits are kept", "Studio 42", "studio-42"},
		{"a Cyrillic name is transliterated", "Северный ветер", "severnyy-veter"},
		{"capital Cyrillic letters and ё are transliterated", "ЁЛКИ Щука Цех", "elki-schuka-tseh"},
		{"multi-letter transliterations are spelled out", "Жёлтый чай юг", "zheltyy-chay-yug"},
		{"hard and soft signs spell as nothing inside a word", "Объект Мальчик", "obekt-malchik"},
		{"a soft sign ending the name leaves no hyphen", "Связь", "svyaz"},
		{"a sign standing alone between words does not add a hyphen", "Альфа ь Бета", "alfa-beta"},
		{"Latin and Cyrillic mix", "ООО «Ромашка» 2024", "ooo-romashka-2024"},
		{"punctuation collapses to a single hyphen", "Acme,,,  Inc. -- & Sons!!", "acme-inc-sons"},
		{"no leading or trailing hyphen", "  --Hello, World!--  ", "hello-world"},
		{"letters outside Latin and Cyrillic separate words", "Café Zürich", "caf-z-rich"},
		{"an empty name becomes company", "", "company"},
		{"a blank name becomes company", "   ", "company"},
		{"a name of symbols only becomes company", "!!! --- ***", "company"},
		{"a name with no Latin or Cyrillic letters becomes company", "日本語", "company"},
		{"a name of signs only becomes company", "ъь", "company"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := slugify(c.in); got != c.want {
				t.Errorf("slugify(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestSlugifyLongNames(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"a long name is cut to 48 characters",
			strings.Repeat("abcd ", 20), strings.Repeat("abcd-", 9) + "abc"},
		{"a cut that lands on a hyphen drops the hyphen",
			strings.Repeat("abcdefg ", 10), strings.Repeat("abcdefg-", 5) + "abcdefg"},
		{"a long Cyrillic name is cut after transliteration",
			strings.Repeat("щука ", 12), strings.Repeat("schuka-", 6) + "schuka"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := slugify(c.in)
			if got != c.want {
				t.Errorf("slugify(%q) = %q, want %q", c.in, got, c.want)
			}
			if len(got) > 48 {
				t.Errorf("slugify(%q) has %d characters, want at most 48", c.in, len(got))
			}
		})
	}
}

// Every slug slugify makes, even with the suffix Create adds when it is taken, is one a
// patch would accept.
func TestSlugifyOutputIsAValidSlug(t *testing.T) {
	names := []string{
		"Northwind Agency", "Северный ветер", "", "!!!", "-a-", "Объект", "日本語 Tokyo 東京",
		strings.Repeat("Щ", 100), strings.Repeat("x-", 100), "  9  ", "Ъ a Ь",
	}
	for _, name := range names {
		slug := slugify(name)
		if !slugPattern.MatchString(slug) || !slugPattern.MatchString(slug+"-ffff") {
			t.Errorf("slugify(%q) = %q, which does not match the slug pattern", name, slug)
		}
	}
}
