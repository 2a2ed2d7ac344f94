package auth

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"agencyhub/models"
)

// Languages are the languages the product speaks (the API's Accept-Language choices);
// the first is the default.
var Languages = []string{"en", "ru"}

// Language is lang when the product speaks it, else the default.
func Language(lang string) string {
	if slices.Contains(Languages, lang) {
		return lang
	}
	return Languages[0]
}

// LanguagesOf answers the language of each of the users that exist among ids; a user who
// is gone is left out. Errors: internal.
func (s *Service) LanguagesOf(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]string, error) {
	var rows []User
	if err := s.DB.WithContext(ctx).Select("id", "lang").Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, models.Internal("read users' languages: %w", err)
	}
	out := make(map[uuid.UUID]string, len(rows))
	for _, u := range rows {
		out[u.ID] = Language(u.Lang)
	}
	return out, nil
}
