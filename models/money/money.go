// Package money holds amounts of money as whole hundredths of a currency unit (never floats)
// and checks currency codes against ISO 4217.
package money

import (
	"fmt"
	"math/big"
	"strconv"

	"golang.org/x/text/currency"
)

// Amount is a sum in hundredths of its currency's unit (kopecks, cents): at most two
// decimals, whatever the currency. It is a JSON number on the wire and an integer in storage.
type Amount int64

// Max is the largest amount, as numeric(18,2) holds: 9999999999999999.99.
const Max Amount = 999_999_999_999_999_999

// UnmarshalJSON reads a JSON number ("1500", "1499.90", "1.5e3") exactly. More than two
// decimals, a negative sum or one above Max is refused: the contract refuses them first.
func (a *Amount) UnmarshalJSON(b []byte) error {
	r, ok := new(big.Rat).SetString(string(b))
	if !ok {
		return fmt.Errorf("amount %s is not a number", b)
	}
	r.Mul(r, big.NewRat(100, 1))
	if !r.IsInt() || r.Sign() < 0 || r.Num().Cmp(big.NewInt(int64(Max))) > 0 {
		return fmt.Errorf("amount %s is not a sum of money: at most two decimals, from 0 to %s", b, Max)
	}
	*a = Amount(r.Num().Int64())
	return nil
}

// String is the amount, never negative, with exactly two decimals: 1499.90.
func (a Amount) String() string {
	cents := strconv.FormatInt(int64(a%100)+100, 10)[1:]
	return strconv.FormatInt(int64(a/100), 10) + "." + cents
}

// MarshalJSON writes the amount as a JSON number with two decimals.
func (a Amount) MarshalJSON() ([]byte, error) { return []byte(a.String()), nil }

// DefaultCurrency is the currency of an amount that names none.
const DefaultCurrency = "RUB"

// ValidCurrency accepts a three-letter ISO 4217 code in upper case.
func ValidCurrency(code string) bool {
	unit, err := currency.ParseISO(code)
	return err == nil && len(code) == 3 && unit.String() == code
}
