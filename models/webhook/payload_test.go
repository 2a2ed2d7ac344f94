package webhook_test

import (
	"reflect"
	"testing"

	"agencyhub/models"
	"agencyhub/models/webhook"
)

func TestParsePayload(t *testing.T) {
	for _, tc := range []struct {
		name, accepts, contentType, body string
		want                             map[string]any
		problem                          string
	}{
		{"a JSON object is the payload", webhook.ContentJSON, "application/json", `{"a":{"b":[1,"x"]}}`, map[string]any{"a": map[string]any{"b": []any{1.0, "x"}}}, ""},
		{"a +json type is JSON", webhook.ContentJSON, "application/cloudevents+json; charset=utf-8", `{"a":1}`, map[string]any{"a": 1.0}, ""},
		{"another JSON value is wrapped in body", webhook.ContentJSON, "application/json", `[1,2]`, map[string]any{"body": []any{1.0, 2.0}}, ""},
		{"an empty body is an empty payload", webhook.ContentJSON, "", "  ", map[string]any{}, ""},
		{"malformed JSON is refused", webhook.ContentAny, "application/json", `{"a":`, nil, "malformed_json"},
		{"trailing data after JSON is refused", webhook.ContentJSON, "application/json", `{"a":1}}`, nil, "malformed_json"},
		{"a form to a JSON endpoint is refused", webhook.ContentJSON, "application/x-www-form-urlencoded", "a=1", nil, "unsupported_media_type"},
		{"text to a JSON endpoint is refused", webhook.ContentJSON, "text/plain", "hi", nil, "unsupported_media_type"},
		{"a form is an object of strings", webhook.ContentAny, "application/x-www-form-urlencoded", "a=1&b=x+y&b=z", map[string]any{"a": "1", "b": []any{"x y", "z"}}, ""},
		{"a malformed form is refused", webhook.ContentAny, "application/x-www-form-urlencoded", "a=%zz", nil, "malformed_form"},
		{"other bodies are text", webhook.ContentAny, "text/csv", "a,b\n1,2", map[string]any{"body": "a,b\n1,2"}, ""},
		{"bytes that are not UTF-8 become U+FFFD", webhook.ContentAny, "application/octet-stream", "a\xffb", map[string]any{"body": "a\uFFFDb"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := webhook.ParsePayload(tc.accepts, tc.contentType, []byte(tc.body))
			if tc.problem != "" {
				if e := models.AsError(err); err == nil || e.Key != tc.problem || len(e.Fields) != 1 || e.Fields[0] != "body" {
					t.Fatalf("error = %v, want %s naming body", err, tc.problem)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParsePayload = %#v, %v; want %#v", got, err, tc.want)
			}
		})
	}
}

func TestExtractFields(t *testing.T) {
	payload := map[string]any{
		"customer": map[string]any{"email": "ada@example.com", "tags": []any{"vip"}},
		"items":    []any{map[string]any{"sku": "A-7"}},
	}
	got := webhook.ExtractFields(payload, []string{"customer.email", "customer.tags.0", "items.0.sku", "items.1.sku", "items.x", "customer.email.domain", "absent"})
	want := map[string]any{
		"customer.email": "ada@example.com", "customer.tags.0": "vip", "items.0.sku": "A-7",
		"items.1.sku": nil, "items.x": nil, "customer.email.domain": nil, "absent": nil,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ExtractFields = %v, want %v", got, want)
	}
}
