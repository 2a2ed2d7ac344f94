package schemas

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// A Violation is one rule of a schema that a value breaks, for a message in words: the
// field (a dotted path, "body" for the whole value), the rule and the rule's limit.
type Violation struct {
	Field string
	Rule  Rule
	// Limit is the rule's own value: 12 for a minimum length, "email" for a format, the
	// allowed values of an enum joined by ", ".
	Limit string
	// Example is a valid value of the field, where the contract gives one.
	Example string
	// schema is the location of the schema the value breaks.
	schema string
}

// Rule names the kind of a Violation.
type Rule string

const (
	RuleRequired     Rule = "required"
	RuleUnknownField Rule = "unknown_field"
	RuleEmpty        Rule = "empty"
	RuleMinLength    Rule = "min_length"
	RuleMaxLength    Rule = "max_length"
	RuleMinimum      Rule = "minimum"
	RuleMaximum      Rule = "maximum"
	RuleAbove        Rule = "above"
	RuleBelow        Rule = "below"
	RuleMinItems     Rule = "min_items"
	RuleMaxItems     Rule = "max_items"
	RuleEnum         Rule = "enum"
	RuleFormat       Rule = "format"
	RuleType         Rule = "type"
	// RuleOther is any other keyword (a pattern, a combination of schemas): the field is
	// named, the rule is left to the operation's reference.
	RuleOther Rule = "other"
)

// Violations is what a value breaks, one Violation per field in field order; it is an
// error so that a domain error can carry it to the message writer.
type Violations []Violation

func (vs Violations) Error() string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("%s: %s %s", v.Field, v.Rule, v.Limit)
	}
	return "schema violations: " + strings.Join(parts, "; ")
}

// Fields are the fields the violations name, in order.
func (vs Violations) Fields() []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Field
	}
	return out
}

// violationsOf reads a validation error's leaves, the first one of each field, in field
// order.
func violationsOf(e *jsonschema.ValidationError) Violations {
	byField := map[string]Violation{}
	add := func(v Violation) {
		if _, ok := byField[v.Field]; !ok {
			byField[v.Field] = v
		}
	}
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		base := strings.Join(e.InstanceLocation, ".")
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, name := range k.Missing {
				add(Violation{Field: join(base, name), Rule: RuleRequired})
			}
		case *kind.AdditionalProperties:
			for _, name := range k.Properties {
				add(Violation{Field: join(base, name), Rule: RuleUnknownField})
			}
		default:
			if base == "" {
				base = "body"
			}
			rule, limit := ruleOf(e.ErrorKind)
			add(Violation{Field: base, Rule: rule, Limit: limit, schema: e.SchemaURL})
		}
	}
	walk(e)
	out := make(Violations, 0, len(byField))
	for _, field := range sortedKeys(byField) {
		out = append(out, byField[field])
	}
	return out
}

// ruleOf names a keyword's failure and its limit.
func ruleOf(k jsonschema.ErrorKind) (Rule, string) {
	switch k := k.(type) {
	case *kind.MinLength:
		if k.Want == 1 {
			return RuleEmpty, ""
		}
		return RuleMinLength, fmt.Sprint(k.Want)
	case *kind.MaxLength:
		return RuleMaxLength, fmt.Sprint(k.Want)
	case *kind.Minimum:
		return RuleMinimum, k.Want.RatString()
	case *kind.Maximum:
		return RuleMaximum, k.Want.RatString()
	case *kind.ExclusiveMinimum:
		return RuleAbove, k.Want.RatString()
	case *kind.ExclusiveMaximum:
		return RuleBelow, k.Want.RatString()
	case *kind.MinItems:
		return RuleMinItems, fmt.Sprint(k.Want)
	case *kind.MaxItems:
		return RuleMaxItems, fmt.Sprint(k.Want)
	case *kind.Enum:
		allowed := make([]string, len(k.Want))
		for i, w := range k.Want {
			allowed[i] = fmt.Sprint(w)
		}
		return RuleEnum, strings.Join(allowed, ", ")
	case *kind.Const:
		// An empty constant is the "or nothing" branch of an anyOf: naming it as the one
		// allowed value would mislead.
		if want := fmt.Sprint(k.Want); want != "" {
			return RuleEnum, want
		}
	case *kind.Format:
		return RuleFormat, k.Want
	case *kind.Type:
		return RuleType, strings.Join(k.Want, " or ")
	}
	return RuleOther, ""
}

// fieldsOf collects the request fields a validation error names, in a stable order.
func fieldsOf(e *jsonschema.ValidationError) []string { return violationsOf(e).Fields() }
