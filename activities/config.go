package activities

import (
	"encoding/json"
	"maps"
	"math"
	"strconv"
	"strings"
)

// The readers below take values of a rendered config, where templates have turned most
// values into strings and JSON has turned numbers into float64. Their errors are validation
// failures that name the field.

// invalidField is the validation failure for a config or integration field the action
// cannot use, worded by key (a field_ entry of the failure table) with args beside the
// field's name.
func invalidField(field, key string, args Args) *Failure {
	all := Args{"field": field}
	maps.Copy(all, args)
	return Failed(ClassValidation, "invalid_config", key, "field_invalid.next", all)
}

// optionalString reads a string field; numbers and booleans are accepted in their usual
// text form, a missing or null field is "".
func optionalString(m map[string]any, field string) (string, error) {
	switch v := m[field].(type) {
	case nil:
		return "", nil
	case string:
		return strings.TrimSpace(v), nil
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case json.Number:
		return v.String(), nil
	case bool:
		return strconv.FormatBool(v), nil
	default:
		return "", invalidField(field, "field_not_text", nil)
	}
}

// requiredString reads a string field that must not be empty.
func requiredString(m map[string]any, field string) (string, error) {
	s, err := optionalString(m, field)
	if err == nil && s == "" {
		return "", invalidField(field, "field_required", nil)
	}
	return s, err
}

// rawString reads a text field as it is, spaces kept (message texts, bodies).
func rawString(m map[string]any, field string) (string, error) {
	if s, ok := m[field].(string); ok {
		return s, nil
	}
	return optionalString(m, field)
}

// optionalSeconds reads a positive number of seconds no larger than max; def when absent.
func optionalSeconds(m map[string]any, field string, def, max float64) (float64, error) {
	s, err := optionalString(m, field)
	if err != nil || s == "" {
		return def, err
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || v <= 0 || v > max {
		return 0, invalidField(field, "field_seconds", Args{"limit": strconv.FormatFloat(max, 'g', -1, 64)})
	}
	return v, nil
}

// stringList reads a field that is one string or an array of strings; empty items are
// dropped.
func stringList(m map[string]any, field string) ([]string, error) {
	var items []string
	switch v := m[field].(type) {
	case nil:
	case string:
		items = []string{v}
	case []string:
		items = v
	case []any:
		for _, item := range v {
			s, ok := item.(string)
			if !ok {
				return nil, invalidField(field, "field_string_list", nil)
			}
			items = append(items, s)
		}
	default:
		return nil, invalidField(field, "field_string_list", nil)
	}
	var out []string
	for _, item := range items {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out, nil
}

// requiredText reads a text field as it is, spaces kept, which must not be blank.
func requiredText(m map[string]any, field string) (string, error) {
	s, err := rawString(m, field)
	if err == nil && strings.TrimSpace(s) == "" {
		return "", invalidField(field, "field_required", nil)
	}
	return s, err
}
