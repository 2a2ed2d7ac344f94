package models

import "context"

type languageKey struct{}

// WithLanguage returns ctx carrying the language ("en" or "ru") its caller reads, in which
// domain code words the findings it hands back as data (a draft's diagnostics); the API sets
// it on every request from Accept-Language.
func WithLanguage(ctx context.Context, lang string) context.Context {
	return context.WithValue(ctx, languageKey{}, lang)
}

// Language is the language ctx carries, "en" when it carries none.
func Language(ctx context.Context) string {
	if lang, ok := ctx.Value(languageKey{}).(string); ok && lang != "" {
		return lang
	}
	return "en"
}
