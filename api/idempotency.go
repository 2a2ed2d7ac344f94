package api

import (
	"strings"

	"agencyhub/models"
)

// maxIdempotencyKey is the longest idempotency key a request may carry: the contract's
// maxLength of idempotency_key, Idempotency-Key and webhook-id.
const maxIdempotencyKey = 255

// keySource is one place where a request may carry its idempotency key, a body field or a
// header: field is the name a Problem gives it.
type keySource struct {
	field string
	value string
}

// idempotencyKey is the one rule for the keys that make a repeated request safe (a manual
// payment's idempotency key, a webhook delivery's id): the key is that of the first source,
// in the operation's order of precedence, that carries one (blanks trimmed), of at most 255
// characters; the answer names the source it came from. Where the key identifies the
// request (strict, the manual payment), it is required, and every source that carries one
// must carry the same; otherwise a request may carry none, and the sources after the first
// that carries one are not read. Errors: invalid (problem, naming the source at fault).
func idempotencyKey(problem string, strict bool, sources ...keySource) (keySource, error) {
	var key keySource
	for _, s := range sources {
		s.value = strings.TrimSpace(s.value)
		switch {
		case s.value == "":
		case len(s.value) > maxIdempotencyKey:
			return keySource{}, models.Invalid(problem, s.field)
		case key.value == "":
			key = s
			if !strict {
				return key, nil
			}
		case s.value != key.value:
			return keySource{}, models.Invalid(problem, s.field)
		}
	}
	if strict && key.value == "" {
		return keySource{}, models.Invalid(problem, sources[0].field)
	}
	return key, nil
}
