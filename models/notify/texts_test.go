package notify

import (
	"regexp"
	"slices"
	"testing"

	"agencyhub/models/auth"
)

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// TestEveryNoticeIsInEveryLanguageWithTheSamePlaceholders: a language that lacked a kind
// would post an empty title, and one that named another placeholder would show it raw.
func TestEveryNoticeIsInEveryLanguageWithTheSamePlaceholders(t *testing.T) {
	en := noticeTexts["en"]
	for _, lang := range auth.Languages {
		texts := noticeTexts[lang]
		if len(texts) != len(en) {
			t.Errorf("%s has %d notices, en %d", lang, len(texts), len(en))
		}
		for kind, want := range en {
			got, ok := texts[kind]
			if !ok || got.title == "" {
				t.Errorf("%s lacks the notice %s", lang, kind)
				continue
			}
			for _, pair := range [][2]string{{got.title, want.title}, {got.body, want.body}} {
				g, w := placeholder.FindAllString(pair[0], -1), placeholder.FindAllString(pair[1], -1)
				slices.Sort(g)
				slices.Sort(w)
				if !slices.Equal(g, w) {
					t.Errorf("%s %s: %q has placeholders %v, en's %q has %v", lang, kind, pair[0], g, pair[1], w)
				}
			}
		}
	}
}

func TestAValueIsFilledInAsItIs(t *testing.T) {
	title, body := text("ru", "task.assigned", map[string]string{"task": "Fix {description} 100%", "description": "{task}"})
	if title != "Вам назначена задача: Fix {description} 100%" || body != "{task}" {
		t.Fatalf("title %q, body %q", title, body)
	}
}
