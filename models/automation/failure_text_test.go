package automation

import (
	"regexp"
	"slices"
	"testing"
)

func TestAnEgressRefusalOfARunReadsInTheReadersLanguage(t *testing.T) {
	args := map[string]string{"host": "127.0.0.1", "egress_reason": "loopback address"}
	en, enNext, ok := FailureText("en", ReasonEgressRefused, "", args)
	if !ok || en != "127.0.0.1 may not be called: loopback address." || enNext != "Use a public address, or ask the operator to allow-list it in APP_EGRESS_ALLOW" {
		t.Errorf("en: %q, %q, %v", en, enNext, ok)
	}
	ru, ruNext, ok := FailureText("ru", ReasonEgressRefused, "", args)
	if !ok || ru != "Политика исходящих соединений не пускает к 127.0.0.1: это адрес самой машины (loopback)." ||
		ruNext != "Укажите публичный адрес или попросите оператора разрешить этот в настройке APP_EGRESS_ALLOW" {
		t.Errorf("ru: %q, %q, %v", ru, ruNext, ok)
	}
	// A messenger's refusal has the same code but records no host: it stays as it was worded.
	if _, _, ok := FailureText("ru", ReasonEgressRefused, "", nil); ok {
		t.Error("a refusal recorded without its host is worded anew")
	}
}

// TestEveryFailureTextIsWordedInBothLanguages: the failure table has each key in English
// and in Russian with the same placeholders, and a Russian text names no English word but
// identifiers (a field's name, an action type, an acronym, a quoted value) and placeholders.
func TestEveryFailureTextIsWordedInBothLanguages(t *testing.T) {
	en, ru := failureTexts["en"], failureTexts["ru"]
	if len(en) != len(ru) {
		t.Errorf("en has %d texts, ru %d", len(en), len(ru))
	}
	placeholders := func(s string) []string {
		out := unnamed.FindAllString(s, -1)
		slices.Sort(out)
		return slices.Compact(out)
	}
	for _, key := range FailureKeys("en") {
		r, ok := ru[key]
		if !ok {
			t.Errorf("%s: no Russian text", key)
			continue
		}
		if !slices.Equal(placeholders(en[key]), placeholders(r)) {
			t.Errorf("%s: placeholders differ: en %v, ru %v", key, placeholders(en[key]), placeholders(r))
		}
		if word := englishWord(r); word != "" {
			t.Errorf("%s: the Russian text has the English word %q: %s", key, word, r)
		}
	}
	for _, key := range FailureKeys("ru") {
		if _, ok := en[key]; !ok {
			t.Errorf("%s: no English text", key)
		}
	}
}

// TestTheCoverageCheckCatchesEnglishInRussian: the check above finds an English word left
// in a Russian text, and lets identifiers pass.
func TestTheCoverageCheckCatchesEnglishInRussian(t *testing.T) {
	for text, want := range map[string]string{
		"Хост {host} may not be called":                     "may",
		"Проверьте chat_id и http.auth в «auto», JSON, API": "",
	} {
		if got := englishWord(text); got != want {
			t.Errorf("%q: found %q, want %q", text, got, want)
		}
	}
}

// identifiers are what a Russian text may write in Latin letters: placeholders, quoted
// values, names with _ . or digits (fields, action types), acronyms.
var identifiers = regexp.MustCompile(`\{[a-z_]+\}|«[^»]*»|\x60[^\x60]*\x60|[A-Za-z0-9]*[_.0-9][A-Za-z0-9_.]*|\b[A-Z]{2,}\b`)

// englishWord is the first English word of text outside identifiers, or "".
func englishWord(text string) string {
	return regexp.MustCompile(`[A-Za-z]{2,}`).FindString(identifiers.ReplaceAllString(text, ""))
}
