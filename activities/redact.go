package activities

import (
	"context"
	"encoding/base64"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Redacted replaces a secret wherever an action's answer would repeat it.
const Redacted = "[redacted]"

// minSecretLength is the shortest value redacted: shorter ones would blank out ordinary
// text, and no credential the catalog takes is that short.
const minSecretLength = 4

// secrets are the secret values an action used (its integrations' credentials and what it
// built from them, such as a Basic authorization), in every form an answer may repeat them.
type secrets struct {
	mu    sync.Mutex
	forms []string
}

type secretsKey struct{}

// useSecret notes that the action running under ctx uses value, so that its answer cannot
// repeat it: as it is, base64 encoded (standard and URL alphabets, with and without
// padding) and URL encoded.
func useSecret(ctx context.Context, value string) {
	s, _ := ctx.Value(secretsKey{}).(*secrets)
	if s == nil || len(value) < minSecretLength {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	raw := []byte(value)
	for _, form := range []string{
		value,
		base64.StdEncoding.EncodeToString(raw), base64.RawStdEncoding.EncodeToString(raw),
		base64.URLEncoding.EncodeToString(raw), base64.RawURLEncoding.EncodeToString(raw),
		url.QueryEscape(value), url.PathEscape(value),
	} {
		if !slices.Contains(s.forms, form) {
			s.forms = append(s.forms, form)
		}
	}
	// Longer forms first, so that one containing another is replaced whole.
	slices.SortFunc(s.forms, func(a, b string) int { return len(b) - len(a) })
}

// Redacting runs fn so that nothing it answers repeats a secret it used: its output, the
// provider's answer and every text of a failure go through the redaction before the engine
// stores them, in the projection as in Temporal's history.
func Redacting(fn Func) Func {
	return func(ctx context.Context, req Request) (Result, error) {
		s := &secrets{}
		res, err := fn(context.WithValue(ctx, secretsKey{}, s), req)
		if err != nil {
			f := *AsFailure(err)
			f.HumanReason, f.NextAction = s.redactText(f.HumanReason), s.redactText(f.NextAction)
			if f.ReasonArgs != nil {
				args := make(Args, len(f.ReasonArgs))
				for name, value := range f.ReasonArgs {
					args[name] = s.redactText(value)
				}
				f.ReasonArgs = args
			}
			f.ProviderResponse = s.redactObject(f.ProviderResponse)
			return Result{}, &f
		}
		res.Output, res.ProviderResponse = s.redactObject(res.Output), s.redactObject(res.ProviderResponse)
		return res, nil
	}
}

func (s *secrets) redactText(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, form := range s.forms {
		text = strings.ReplaceAll(text, form, Redacted)
	}
	return text
}

// redactObject answers a copy of m with every string in it, keys included, redacted.
func (s *secrets) redactObject(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out, _ := s.redactValue(m).(map[string]any)
	return out
}

func (s *secrets) redactValue(v any) any {
	switch v := v.(type) {
	case string:
		return s.redactText(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, item := range v {
			out[s.redactText(k)] = s.redactValue(item)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = s.redactValue(item)
		}
		return out
	case []string:
		out := make([]string, len(v))
		for i, item := range v {
			out[i] = s.redactText(item)
		}
		return out
	case map[string]string:
		out := make(map[string]string, len(v))
		for k, item := range v {
			out[s.redactText(k)] = s.redactText(item)
		}
		return out
	}
	return v
}
