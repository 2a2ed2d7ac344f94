package taxid_test

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"agencyhub/models/taxid"
)

// The valid identifiers below are real published registry data (Sberbank, Alfa-Bank,
// T-Bank and a sole proprietor); each was checked by hand against the algorithms before
// being listed here, and the tests re-check them against the package.
const (
	sberINN       = "7707083893"
	alfaINN       = "7728168971"
	personINN     = "500100732259"
	sberKPP       = "773601001"
	sberOGRN      = "1027700132195"
	alfaOGRN      = "1027700067328"
	soleOGRNIP    = "304500116000157"
	sberBIK       = "044525225"
	sberCorr      = "30101810400000000225"
	tbankBIK      = "044525974"
	tbankCorr     = "30101810145250000974"
	alfaBIK       = "044525593"
	alfaCorr      = "30101810200000000593"
	sberClientAcc = "40702810938000000001"
	spbBIK        = "044030653" // Sberbank's North-West branch; digits 5-6 differ from Moscow's "25"
)

func TestValidators(t *testing.T) {
	one := func(f func(string) error) func(string, string) error {
		return func(s, _ string) error { return f(s) }
	}
	inn := one(taxid.INN)
	legalINN := one(taxid.LegalEntityINN)
	personINNFn := one(taxid.PersonINN)
	kpp := one(taxid.KPP)
	ogrn := one(taxid.OGRN)
	ogrnip := one(taxid.OGRNIP)
	bik := one(taxid.BIK)
	settlement := taxid.SettlementAccount
	corr := taxid.CorrespondentAccount

	tests := []struct {
		name  string
		check func(value, bik string) error
		value string
		bik   string
		want  error
	}{
		// INN, either length.
		{"Sberbank's 10-digit INN is valid", inn, sberINN, "", nil},
		{"Alfa-Bank's 10-digit INN is valid", inn, alfaINN, "", nil},
		{"a person's 12-digit INN is valid", inn, personINN, "", nil},
		{"a 10-digit INN with its check digit changed fails the checksum", inn, "7707083894", "", taxid.ErrChecksum},
		{"a 10-digit INN with a body digit changed fails the checksum", inn, "7707083993", "", taxid.ErrChecksum},
		{"a 12-digit INN with its first check digit changed fails the checksum", inn, "500100732269", "", taxid.ErrChecksum},
		{"a 12-digit INN with its second check digit changed fails the checksum", inn, "500100732258", "", taxid.ErrChecksum},
		{"a 12-digit INN with a body digit changed fails the checksum", inn, "500100742259", "", taxid.ErrChecksum},
		{"an empty INN is a format error", inn, "", "", taxid.ErrFormat},
		{"an 11-digit INN is a format error", inn, "77070838931", "", taxid.ErrFormat},
		{"a 9-digit INN is a format error", inn, "770708389", "", taxid.ErrFormat},
		{"an INN with a letter is a format error", inn, "77070838A3", "", taxid.ErrFormat},
		{"an INN with a trailing space is a format error", inn, "770708389 ", "", taxid.ErrFormat},
		{"an INN with an inner space is a format error", inn, "7707 083893", "", taxid.ErrFormat},
		{"an INN in full-width Unicode digits is a format error", inn, "７７０７０８３８９３", "", taxid.ErrFormat},
		{"an INN in Arabic-Indic digits is a format error", inn, "٧٧٠٧٠٨٣٨٩٣", "", taxid.ErrFormat},
		{"a negative-looking INN is a format error", inn, "-707083893", "", taxid.ErrFormat},

		// INN by kind.
		{"LegalEntityINN accepts a valid 10-digit INN", legalINN, sberINN, "", nil},
		{"LegalEntityINN rejects a valid 12-digit INN as a format error", legalINN, personINN, "", taxid.ErrFormat},
		{"LegalEntityINN rejects a changed check digit", legalINN, "7728168972", "", taxid.ErrChecksum},
		{"LegalEntityINN rejects the empty string", legalINN, "", "", taxid.ErrFormat},
		{"PersonINN accepts a valid 12-digit INN", personINNFn, personINN, "", nil},
		{"PersonINN rejects a valid 10-digit INN as a format error", personINNFn, sberINN, "", taxid.ErrFormat},
		{"PersonINN rejects a changed check digit", personINNFn, "500100732250", "", taxid.ErrChecksum},
		{"PersonINN rejects a letter", personINNFn, "50010073225X", "", taxid.ErrFormat},

		// KPP.
		{"Sberbank's KPP is valid", kpp, sberKPP, "", nil},
		{"a KPP with upper-case letters as its reason code is valid", kpp, "7701AB001", "", nil},
		{"a KPP with one letter and one digit as its reason code is valid", kpp, "77010Z001", "", nil},
		{"a KPP with lower-case letters is a format error", kpp, "7701ab001", "", taxid.ErrFormat},
		{"a KPP with a letter outside the reason code is a format error", kpp, "77A601001", "", taxid.ErrFormat},
		{"a KPP with a letter in the sequence number is a format error", kpp, "77360100A", "", taxid.ErrFormat},
		{"a KPP with a Cyrillic letter is a format error", kpp, "7701АБ001", "", taxid.ErrFormat},
		{"an 8-character KPP is a format error", kpp, "77360100", "", taxid.ErrFormat},
		{"a 10-character KPP is a format error", kpp, "7736010010", "", taxid.ErrFormat},
		{"an empty KPP is a format error", kpp, "", "", taxid.ErrFormat},

		// OGRN and OGRNIP.
		{"Sberbank's OGRN is valid", ogrn, sberOGRN, "", nil},
		{"Alfa-Bank's OGRN is valid", ogrn, alfaOGRN, "", nil},
		{"an OGRN with its check digit changed fails the checksum", ogrn, "1027700132196", "", taxid.ErrChecksum},
		{"an OGRN with a body digit changed fails the checksum", ogrn, "1027700132185", "", taxid.ErrChecksum},
		{"a 12-digit OGRN is a format error", ogrn, "102770013219", "", taxid.ErrFormat},
		{"a 15-digit OGRNIP is not an OGRN", ogrn, soleOGRNIP, "", taxid.ErrFormat},
		{"an OGRN with a letter is a format error", ogrn, "10277001321O5", "", taxid.ErrFormat},
		{"an empty OGRN is a format error", ogrn, "", "", taxid.ErrFormat},
		{"a sole proprietor's OGRNIP is valid", ogrnip, soleOGRNIP, "", nil},
		{"an OGRNIP with its check digit changed fails the checksum", ogrnip, "304500116000158", "", taxid.ErrChecksum},
		{"an OGRNIP with a body digit changed fails the checksum", ogrnip, "304500116001157", "", taxid.ErrChecksum},
		{"a 13-digit OGRN is not an OGRNIP", ogrnip, sberOGRN, "", taxid.ErrFormat},
		{"an OGRNIP with a space is a format error", ogrnip, "30450011600015 ", "", taxid.ErrFormat},
		{"an empty OGRNIP is a format error", ogrnip, "", "", taxid.ErrFormat},

		// BIK.
		{"Sberbank's BIK is valid", bik, sberBIK, "", nil},
		{"an 8-digit BIK is a format error", bik, "04452522", "", taxid.ErrFormat},
		{"a BIK with a letter is a format error", bik, "04452522X", "", taxid.ErrFormat},
		{"an empty BIK is a format error", bik, "", "", taxid.ErrFormat},

		// Settlement accounts.
		{"a client account at Sberbank is valid with Sberbank's BIK", settlement, sberClientAcc, sberBIK, nil},
		{"a settlement account with its key digit changed fails the checksum", settlement, "40702810038000000001", sberBIK, taxid.ErrChecksum},
		{"a settlement account with its last digit changed fails the checksum", settlement, "40702810938000000002", sberBIK, taxid.ErrChecksum},
		{"a Sberbank account checked against another bank's BIK fails the checksum", settlement, sberClientAcc, alfaBIK, taxid.ErrChecksum},
		{"a 19-digit settlement account is a format error", settlement, "4070281093800000000", sberBIK, taxid.ErrFormat},
		{"a settlement account with a letter is a format error", settlement, "40702810938000000O01", sberBIK, taxid.ErrFormat},
		{"an empty settlement account is a format error", settlement, "", sberBIK, taxid.ErrFormat},
		{"a settlement account with an empty BIK is a format error", settlement, sberClientAcc, "", taxid.ErrFormat},
		{"a settlement account with a malformed BIK is a format error", settlement, sberClientAcc, "04452522X", taxid.ErrFormat},

		// Correspondent accounts.
		{"Sberbank's correspondent account is valid", corr, sberCorr, sberBIK, nil},
		{"T-Bank's correspondent account is valid", corr, tbankCorr, tbankBIK, nil},
		{"Alfa-Bank's correspondent account is valid", corr, alfaCorr, alfaBIK, nil},
		{"a correspondent account with its key digit changed fails the checksum", corr, "30101810500000000225", sberBIK, taxid.ErrChecksum},
		{"a correspondent account with its last digit changed fails the checksum", corr, "30101810400000000226", sberBIK, taxid.ErrChecksum},
		{"a Moscow correspondent account checked against a St Petersburg BIK fails the checksum", corr, sberCorr, spbBIK, taxid.ErrChecksum},
		{"a correspondent account not starting with 301 is a format error", corr, sberClientAcc, sberBIK, taxid.ErrFormat},
		{"a 21-digit correspondent account is a format error", corr, sberCorr + "0", sberBIK, taxid.ErrFormat},
		{"an empty correspondent account is a format error", corr, "", sberBIK, taxid.ErrFormat},
		{"a correspondent account with a malformed BIK is a format error", corr, sberCorr, "0445252", taxid.ErrFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.check(tt.value, tt.bik)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("%q (BIK %q): got %v, want valid", tt.value, tt.bik, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("%q (BIK %q): got %v, want %v", tt.value, tt.bik, err, tt.want)
			}
		})
	}
}

// The property tests build random bodies, compute the check digit(s) with an oracle
// written independently of the package (big-integer arithmetic for OGRN, the Bank of
// Russia "lowest digit of each product" recipe for accounts), and require that exactly
// the computed digit validates while every other digit fails with ErrChecksum.

const propertyRounds = 2000

func randDigits(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + r.IntN(10)))
	}
	return b.String()
}

func weightedMod11(body string, weights []int) int {
	sum := 0
	for i, w := range weights {
		sum += int(body[i]-'0') * w
	}
	return sum % 11 % 10
}

func bigMod(body string, m int64) int {
	n, ok := new(big.Int).SetString(body, 10)
	if !ok {
		panic("bad digits " + body)
	}
	return int(new(big.Int).Mod(n, big.NewInt(m)).Int64() % 10)
}

// accountKey computes the control key digit (position 9 of the account) per the Bank of
// Russia recipe: with the key set to 0, sum the lowest digits of each product of the
// 23-digit string with weights 7,1,3..., then key = (sum mod 10) * 3 mod 10.
func accountKey(prefix, accountWithZeroKey string) int {
	s := prefix + accountWithZeroKey
	weights := []int{7, 1, 3}
	sum := 0
	for i := range len(s) {
		sum += int(s[i]-'0') * weights[i%3] % 10
	}
	return sum % 10 * 3 % 10
}

func requireOnlyDigitValidates(t *testing.T, check func(string) error, build func(d int) string, want int) {
	t.Helper()
	for d := range 10 {
		s := build(d)
		err := check(s)
		if d == want {
			if err != nil {
				t.Fatalf("%s: got %v, want valid", s, err)
			}
		} else if !errors.Is(err, taxid.ErrChecksum) {
			t.Fatalf("%s: got %v, want ErrChecksum", s, err)
		}
	}
}

func TestComputedCheckDigitsValidateAndOthersFail(t *testing.T) {
	r := rand.New(rand.NewPCG(20240601, 7))
	itoa := strconv.Itoa

	t.Run("a random legal entity INN validates only with its computed check digit", func(t *testing.T) {
		for range propertyRounds {
			body := randDigits(r, 9)
			want := weightedMod11(body, []int{2, 4, 10, 3, 5, 9, 4, 6, 8})
			build := func(d int) string { return body + itoa(d) }
			requireOnlyDigitValidates(t, taxid.LegalEntityINN, build, want)
			requireOnlyDigitValidates(t, taxid.INN, build, want)
		}
	})

	t.Run("a random personal INN validates only with both computed check digits", func(t *testing.T) {
		for range propertyRounds {
			body := randDigits(r, 10)
			c1 := weightedMod11(body, []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8})
			c2 := weightedMod11(body+itoa(c1), []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8})
			for d1 := range 10 {
				for d2 := range 10 {
					s := body + itoa(d1) + itoa(d2)
					for _, check := range []func(string) error{taxid.PersonINN, taxid.INN} {
						err := check(s)
						if d1 == c1 && d2 == c2 {
							if err != nil {
								t.Fatalf("%s: got %v, want valid", s, err)
							}
						} else if !errors.Is(err, taxid.ErrChecksum) {
							t.Fatalf("%s: got %v, want ErrChecksum", s, err)
						}
					}
				}
			}
		}
	})

	t.Run("a random OGRN validates only with its computed check digit", func(t *testing.T) {
		for range propertyRounds {
			body := randDigits(r, 12)
			requireOnlyDigitValidates(t, taxid.OGRN, func(d int) string { return body + itoa(d) }, bigMod(body, 11))
		}
	})

	t.Run("a random OGRNIP validates only with its computed check digit", func(t *testing.T) {
		for range propertyRounds {
			body := randDigits(r, 14)
			requireOnlyDigitValidates(t, taxid.OGRNIP, func(d int) string { return body + itoa(d) }, bigMod(body, 13))
		}
	})

	t.Run("a random settlement account validates only with its computed key", func(t *testing.T) {
		for range propertyRounds {
			bik := randDigits(r, 9)
			head, tail := randDigits(r, 8), randDigits(r, 11)
			want := accountKey(bik[6:9], head+"0"+tail)
			check := func(acc string) error { return taxid.SettlementAccount(acc, bik) }
			requireOnlyDigitValidates(t, check, func(d int) string { return head + itoa(d) + tail }, want)
		}
	})

	t.Run("a random correspondent account validates only with its computed key", func(t *testing.T) {
		for range propertyRounds {
			bik := randDigits(r, 9)
			head, tail := "301"+randDigits(r, 5), randDigits(r, 11)
			want := accountKey("0"+bik[4:6], head+"0"+tail)
			check := func(acc string) error { return taxid.CorrespondentAccount(acc, bik) }
			requireOnlyDigitValidates(t, check, func(d int) string { return head + itoa(d) + tail }, want)
		}
	})
}

func ExampleINN() {
	fmt.Println(taxid.INN("7707083893"))
	fmt.Println(taxid.INN("7707083894"))
	fmt.Println(taxid.INN("77070838"))
	// Output:
	// <nil>
	// check digit does not match
	// wrong length or characters
}
