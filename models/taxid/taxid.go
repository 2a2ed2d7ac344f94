// Package taxid owns the validation of Russian registry identifiers that appear on
// company legal entities and client records: INN (taxpayer number), KPP (tax
// registration reason code), OGRN and OGRNIP (state registration numbers), BIK (bank
// identifier) and the settlement and correspondent bank accounts keyed to a BIK.
//
// Every validator takes the identifier exactly as stored: only ASCII digits (and, for
// KPP, ASCII upper-case letters) are accepted, with no spaces or separators. Each
// returns nil when the identifier is valid, ErrFormat when its length or characters are
// wrong, or ErrChecksum when it is well formed but a check digit does not match. The
// empty string is ErrFormat; callers that treat a field as optional skip it themselves.
package taxid

import "errors"

var (
	// ErrFormat reports an identifier of the wrong length, with a character that is not
	// allowed at its position, or (for a correspondent account) with the wrong prefix.
	ErrFormat = errors.New("wrong length or characters")
	// ErrChecksum reports a well-formed identifier whose check digit does not match.
	ErrChecksum = errors.New("check digit does not match")
)

// Weights of the INN check digits, from the Federal Tax Service algorithm.
var (
	innWeights10  = []int{2, 4, 10, 3, 5, 9, 4, 6, 8}
	innWeights12a = []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}
	innWeights12b = []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}
)

// INN validates a taxpayer identification number: 10 digits for a legal entity or 12
// digits for an individual or sole proprietor, with the official check digit(s).
func INN(s string) error {
	switch len(s) {
	case 10:
		return LegalEntityINN(s)
	case 12:
		return PersonINN(s)
	}
	return ErrFormat
}

// LegalEntityINN validates a legal entity's INN: exactly 10 digits, the last being
// (weighted sum of the first 9 mod 11) mod 10.
func LegalEntityINN(s string) error {
	if !allDigits(s, 10) {
		return ErrFormat
	}
	if innCheck(s, innWeights10) != digit(s, 9) {
		return ErrChecksum
	}
	return nil
}

// PersonINN validates an individual's or sole proprietor's INN: exactly 12 digits, the
// 11th checking the first 10 and the 12th checking the first 11.
func PersonINN(s string) error {
	if !allDigits(s, 12) {
		return ErrFormat
	}
	if innCheck(s, innWeights12a) != digit(s, 10) || innCheck(s, innWeights12b) != digit(s, 11) {
		return ErrChecksum
	}
	return nil
}

// KPP validates a tax registration reason code: 9 characters made of 4 digits (tax
// office), 2 digits or upper-case Latin letters (reason) and 3 digits (sequence). KPP
// has no check digit, so the result is nil or ErrFormat.
func KPP(s string) error {
	if len(s) != 9 {
		return ErrFormat
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := isDigit(c) || (i == 4 || i == 5) && 'A' <= c && c <= 'Z'
		if !ok {
			return ErrFormat
		}
	}
	return nil
}

// OGRN validates a legal entity's primary state registration number: 13 digits, the
// last being (the first 12 digits as a number mod 11) mod 10.
func OGRN(s string) error {
	return registrationNumber(s, 13, 11)
}

// OGRNIP validates a sole proprietor's state registration number: 15 digits, the last
// being (the first 14 digits as a number mod 13) mod 10.
func OGRNIP(s string) error {
	return registrationNumber(s, 15, 13)
}

// BIK validates a bank identification code: exactly 9 digits. BIK has no check digit,
// so the result is nil or ErrFormat.
func BIK(s string) error {
	if !allDigits(s, 9) {
		return ErrFormat
	}
	return nil
}

// SettlementAccount validates a 20-digit settlement account held at the bank with the
// given BIK. The control key is computed over the last 3 digits of the BIK followed by
// the account. A malformed BIK is ErrFormat.
func SettlementAccount(account, bik string) error {
	if !allDigits(account, 20) || BIK(bik) != nil {
		return ErrFormat
	}
	if accountKeySum(bik[6:9], account) != 0 {
		return ErrChecksum
	}
	return nil
}

// CorrespondentAccount validates a 20-digit correspondent account of the bank with the
// given BIK. It must start with "301" (ErrFormat otherwise); the control key is computed
// over "0", the 5th and 6th digits of the BIK, then the account. A malformed BIK is
// ErrFormat.
func CorrespondentAccount(account, bik string) error {
	if !allDigits(account, 20) || account[:3] != "301" || BIK(bik) != nil {
		return ErrFormat
	}
	if accountKeySum("0"+bik[4:6], account) != 0 {
		return ErrChecksum
	}
	return nil
}

// registrationNumber checks an n-digit OGRN-style number whose last digit is
// (the preceding digits as a number mod m) mod 10. The remainder is taken digit by
// digit, so it does not depend on the number fitting a machine integer.
func registrationNumber(s string, n, m int) error {
	if !allDigits(s, n) {
		return ErrFormat
	}
	rem := 0
	for i := 0; i < n-1; i++ {
		rem = (rem*10 + digit(s, i)) % m
	}
	if rem%10 != digit(s, n-1) {
		return ErrChecksum
	}
	return nil
}

// innCheck returns (sum of s[i]*weights[i] mod 11) mod 10 over the first len(weights)
// digits of s.
func innCheck(s string, weights []int) int {
	sum := 0
	for i, w := range weights {
		sum += digit(s, i) * w
	}
	return sum % 11 % 10
}

// accountKeySum returns the Bank of Russia control sum, mod 10, of the 23-digit string
// prefix+account with weights 7, 1, 3 repeated; a valid account gives 0.
func accountKeySum(prefix, account string) int {
	weights := [3]int{7, 1, 3}
	sum := 0
	for i := 0; i < len(prefix); i++ {
		sum += digit(prefix, i) * weights[i%3]
	}
	for i := 0; i < len(account); i++ {
		sum += digit(account, i) * weights[(len(prefix)+i)%3]
	}
	return sum % 10
}

// allDigits reports whether s is exactly n ASCII digits. Length is in bytes, so any
// non-ASCII character (including Unicode digits) fails.
func allDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digit returns the value of the ASCII digit s[i]; the caller has checked it.
func digit(s string, i int) int { return int(s[i] - '0') }
