package automation

import "testing"

func TestAnEgressRefusalOfARunReadsInTheReadersLanguage(t *testing.T) {
	args := map[string]string{"host": "127.0.0.1", "egress_reason": "loopback address"}
	en, enNext, ok := FailureText("en", ReasonEgressRefused, args)
	if !ok || en != "127.0.0.1 may not be called: loopback address." || enNext != "Use a public address, or ask the operator to allow-list it in APP_EGRESS_ALLOW" {
		t.Errorf("en: %q, %q, %v", en, enNext, ok)
	}
	ru, ruNext, ok := FailureText("ru", ReasonEgressRefused, args)
	if !ok || ru != "Политика исходящих соединений не пускает к 127.0.0.1: это адрес самой машины (loopback)." ||
		ruNext != "Укажите публичный адрес или попросите оператора разрешить этот в настройке APP_EGRESS_ALLOW" {
		t.Errorf("ru: %q, %q, %v", ru, ruNext, ok)
	}
	// A messenger's refusal has the same code but records no host: it stays as it was worded.
	if _, _, ok := FailureText("ru", ReasonEgressRefused, nil); ok {
		t.Error("a refusal recorded without its host is worded anew")
	}
}
