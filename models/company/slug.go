package company

import (
	"strings"
	"unicode"
)

// translit spells Cyrillic letters in Latin so Russian company names get readable slugs.
var translit = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e", 'ж': "zh", 'з': "z",
	'и': "i", 'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r",
	'с': "s", 'т': "t", 'у': "u", 'ф': "f", 'х': "h", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "sch",
	'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "yu", 'я': "ya",
}

// slugify turns a name into lower-case ASCII words joined by hyphens, at most 48 characters;
// a name with nothing to keep becomes "company".
func slugify(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		// The hard and soft signs spell as nothing: they are letters inside a word, so they
		// neither separate words nor end one.
		part, letter := translit[r]
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			part, letter = string(r), true
		}
		if !letter {
			hyphen = b.Len() > 0
			continue
		}
		if part == "" {
			continue
		}
		if hyphen {
			b.WriteByte('-')
			hyphen = false
		}
		b.WriteString(part)
	}
	slug := b.String()
	if len(slug) > 48 {
		slug = strings.TrimRight(slug[:48], "-")
	}
	if slug == "" {
		return "company"
	}
	return slug
}
