package automation

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	scope := map[string]any{
		"steps":  map[string]any{"fetch": map[string]any{"status_code": float64(200), "json": map[string]any{"items": []any{map[string]any{"name": "Ada"}}}}},
		"system": map[string]any{"run_id": "r-1"},
	}
	cases := []struct {
		name string
		in   any
		want any
	}{
		{"a whole-string template keeps the value's type", "{{ steps.fetch.status_code }}", float64(200)},
		{"templates inside text are spelled out", "code {{steps.fetch.status_code}} in {{ system.run_id }}", "code 200 in r-1"},
		{"array indices resolve", "{{ steps.fetch.json.items.0.name }}", "Ada"},
		{"a missing path renders empty inside text", "x{{ steps.nope.field }}y", "xy"},
		{"a missing whole-string path renders nil", "{{ steps.nope }}", nil},
		{"maps and slices are rendered deeply", map[string]any{"a": []any{"{{ system.run_id }}"}}, map[string]any{"a": []any{"r-1"}}},
		{"text without templates is unchanged", "plain {braces}", "plain {braces}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Render(tc.in, scope); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Render(%v) = %#v, want %#v", tc.in, got, tc.want)
			}
		})
	}
}

func TestBrokenTemplates(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"whole templates are not broken", "Dear {{ order.name }}, {{order.id}}", nil},
		{"one closing brace", "Dear {{ order.name }, thanks", []string{"{{ order.name }, thanks"}},
		{"a space inside the path", "{{ order name }}", []string{"{{ order name }}"}},
		{"a long rest is cut and a line ends it", "{{ " + strings.Repeat("x", 40) + "\nnext", []string{"{{ " + strings.Repeat("x", 27) + "…"}},
		{"a third brace before a whole template is not another opening", "{{{ order.id }}}", nil},
		{"single braces are text", "plain {braces}", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := BrokenTemplates(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("BrokenTemplates(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestEvalCondition(t *testing.T) {
	scope := map[string]any{"steps": map[string]any{"fetch": map[string]any{"status_code": 200, "json": map[string]any{"vip": true, "tags": []any{"a", "b"}}}}}
	cases := []struct {
		text string
		want bool
	}{
		{"steps.fetch.status_code == 200", true},
		{"steps.fetch.status_code >= 400", false},
		{"steps.fetch.json.vip && len(steps.fetch.json.tags) == 2", true},
		{`"b" in steps.fetch.json.tags`, true},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			got, err := EvalCondition(tc.text, scope)
			if err != nil || got != tc.want {
				t.Fatalf("EvalCondition = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	for _, bad := range []string{"steps.fetch.status_code +", `"not a bool"`, string(make([]byte, 2001))} {
		if _, err := EvalCondition(bad, scope); err == nil {
			t.Errorf("EvalCondition(%.20q) accepted", bad)
		}
	}
}

func TestAConditionOverAMissingValueNamesIt(t *testing.T) {
	scope := map[string]any{"orders": map[string]any{}, "steps": map[string]any{"fetch": map[string]any{"json": map[string]any{}}}}
	cases := []struct {
		name, text, path string
	}{
		{"a field the payload lacks", "orders.total > 200", "orders.total"},
		{"a namespace the run lacks", "customer.age >= 18", "customer.age"},
		{"a value a function is given", "len(steps.fetch.json.items) > 0", "steps.fetch.json.items"},
		{"the second operand", "1 < 2 && orders.count * 2 > 4", "orders.count"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := EvalCondition(tc.text, scope)
			var missing *MissingValueError
			if !errors.As(err, &missing) || missing.Path != tc.path {
				t.Fatalf("EvalCondition(%q) = %v, want the missing value %s", tc.text, err, tc.path)
			}
		})
	}
	t.Run("a type mismatch of present values keeps expr's words", func(t *testing.T) {
		_, err := EvalCondition(`orders.total > 200`, map[string]any{"orders": map[string]any{"total": "many"}})
		var missing *MissingValueError
		if err == nil || errors.As(err, &missing) {
			t.Fatalf("EvalCondition = %v, want a type error", err)
		}
	})
}

func TestAMissingValueIsWordedInEachLanguage(t *testing.T) {
	args := map[string]string{"path": "orders.total"}
	cases := []struct{ lang, reason string }{
		{"en", `"orders.total" is missing from the run's data.`},
		{"ru", `В данных запуска нет «orders.total».`},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			reason, next, ok := FailureText(tc.lang, ReasonMissingValue, "", args)
			if !ok || reason != tc.reason || next == "" {
				t.Fatalf("FailureText(%s) = %q, %q, %v; want %q", tc.lang, reason, next, ok, tc.reason)
			}
		})
	}
	if en, _, _ := FailureText("en", ReasonMissingValue, "", args); (&MissingValueError{Path: "orders.total"}).Error() != en {
		t.Errorf("the error's own text is not the English wording")
	}
	if _, _, ok := FailureText("ru", "http_5xx", "", args); ok {
		t.Errorf("a reason without wording here was worded")
	}
}

func TestEvalExpressionKeepsTheValuesTypeAsJSONCarriesIt(t *testing.T) {
	scope := map[string]any{"start": map[string]any{"amount": 2, "orders": []any{map[string]any{"id": "A-1"}, map[string]any{"id": "A-2"}}}}
	for _, tc := range []struct {
		text string
		want any
	}{
		{"start.amount * 2", 4.0},
		{`"Order " + start.orders[0].id`, "Order A-1"},
		{"map(start.orders, .id)", []any{"A-1", "A-2"}},
		{"start.orders[1]", map[string]any{"id": "A-2"}},
		{"1..3", []any{1.0, 2.0, 3.0}},
		{"start.missing", nil},
	} {
		got, err := EvalExpression(tc.text, scope)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %#v, %v; want %#v", tc.text, got, err, tc.want)
		}
	}
	var missing *MissingValueError
	if _, err := EvalExpression("start.missing * 2", scope); !errors.As(err, &missing) || missing.Path != "start.missing" {
		t.Errorf("an expression over a missing value failed with %v", err)
	}
}
