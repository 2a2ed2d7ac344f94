package money

import (
	"strconv"
	"strings"
)

// symbols are the currency signs each language writes instead of the code, as the
// browser's Intl.NumberFormat does; any other currency is written by its code.
var symbols = map[string]map[string]string{
	"en": {"USD": "$", "EUR": "€", "GBP": "£"},
	"ru": {"RUB": "₽", "USD": "$", "EUR": "€", "GBP": "£"},
}

// Format writes the amount in its currency as the console writes money in the language
// (Intl.NumberFormat with style currency), so a text the server words and a page agree:
// "RUB 15,000.00" and "$15,000.00" in English, "15 000,00 ₽" in Russian, with no-break
// spaces. A language other than ru is written as English.
func (a Amount) Format(currency, lang string) string {
	group, point := ",", "."
	if lang == "ru" {
		group, point = "\u00a0", ","
	} else {
		lang = "en"
	}
	units := strconv.FormatInt(int64(a/100), 10)
	var b strings.Builder
	for i, d := range units {
		if i > 0 && (len(units)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteRune(d)
	}
	number := b.String() + point + strconv.FormatInt(int64(a%100)+100, 10)[1:]
	sign, isSymbol := symbols[lang][currency]
	switch {
	case lang == "ru" && isSymbol:
		return number + "\u00a0" + sign
	case lang == "ru":
		return number + "\u00a0" + currency
	case isSymbol:
		return sign + number
	}
	return currency + "\u00a0" + number
}
