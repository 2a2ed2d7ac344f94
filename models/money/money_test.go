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
