package money_test

import (
	"encoding/json"
	"testing"

	"agencyhub/models/money"
)

func TestAmountsReadDecimalsExactly(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want money.Amount
	}{
		{"0", 0}, {"1500", 150000}, {"1499.9", 149990}, {"1499.90", 149990}, {"0.07", 7},
		{"0.29", 29}, {"1.5e3", 150000}, {"9999999999999999.99", money.Max},
	} {
		var got money.Amount
		if err := json.Unmarshal([]byte(tc.in), &got); err != nil || got != tc.want {
			t.Errorf("Unmarshal(%s) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestAmountsRefuseWhatMoneyCannotBe(t *testing.T) {
	for _, in := range []string{"0.001", "-1", "10000000000000000", `"12.50"`, "1e-3"} {
		var got money.Amount
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("Unmarshal(%s) = %d, want an error", in, got)
		}
	}
}

func TestAmountsAreJSONNumbersWithTwoDecimals(t *testing.T) {
	for _, tc := range []struct {
		in   money.Amount
		want string
	}{{0, "0.00"}, {7, "0.07"}, {149990, "1499.90"}, {money.Max, "9999999999999999.99"}} {
		got, err := json.Marshal(tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("Marshal(%d) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestValidCurrencyAcceptsISOCodesOnly(t *testing.T) {
	for _, code := range []string{"RUB", "USD", "EUR", "KZT"} {
		if !money.ValidCurrency(code) {
			t.Errorf("ValidCurrency(%q) = false", code)
		}
	}
	for _, code := range []string{"rub", "RU", "RUBL", "ABC", ""} {
		if money.ValidCurrency(code) {
			t.Errorf("ValidCurrency(%q) = true", code)
		}
	}
}

func TestAmountsAreWrittenAsEachLanguageWritesMoney(t *testing.T) {
	for _, c := range []struct {
		amount         money.Amount
		currency, lang string
		want           string
	}{
		{1_500_000, "RUB", "en", "RUB\u00a015,000.00"},
		{1_500_000, "RUB", "ru", "15\u00a0000,00\u00a0₽"},
		{123_456_789, "USD", "en", "$1,234,567.89"},
		{5, "EUR", "ru", "0,05\u00a0€"},
		{99_900, "KZT", "en", "KZT\u00a0999.00"},
		{99_900, "KZT", "ru", "999,00\u00a0KZT"},
	} {
		if got := c.amount.Format(c.currency, c.lang); got != c.want {
			t.Errorf("%s %s in %s: %q, want %q", c.amount, c.currency, c.lang, got, c.want)
		}
	}
}
