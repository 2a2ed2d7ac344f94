package notify

import (
	"regexp"
	"slices"
	"testing"

	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/desktop"
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
	title, body := text("ru", "task.assigned", map[string]value{"task": plain("Fix {description} 100%"), "description": plain("{task}")})
	if title != "Вам назначена задача: Fix {description} 100%" || body != "{task}" {
		t.Fatalf("title %q, body %q", title, body)
	}
}

// TestAPaymentDueReadsAsTheReadersLanguageWritesMoneyAndDates: the notice of a payment due
// writes its sum and date as the console writes them in that language.
func TestAPaymentDueReadsAsTheReadersLanguageWritesMoneyAndDates(t *testing.T) {
	due, _ := models.ParseDate("2026-12-01")
	values := map[string]value{"client": plain("Acme"), "amount": sum{1_500_000, "RUB"}, "due_date": day(due), "project": plain("Site")}
	for lang, want := range map[string]string{
		"en": "RUB\u00a015,000.00 due on December 1, 2026 (Site)",
		"ru": "15\u00a0000,00\u00a0₽ к оплате до 1 декабря 2026 (Site)",
	} {
		if _, body := text(lang, desktop.KindPaymentActionDue, values); body != want {
			t.Errorf("%s: %q, want %q", lang, body, want)
		}
	}
}
