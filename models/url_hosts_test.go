package models

import (
	"reflect"
	"testing"
)

func TestURLHostsReadsTheURLFieldsWhoseHostIsWritten(t *testing.T) {
	got := URLHosts(map[string]any{
		"url":          "http://127.0.0.1:8080/x",
		"api_base_url": "https://[::1]/v1",
		"callback_url": "https://{{ start.host }}/hook",
		"path_url":     "https://example.com/{{ start.id }}",
		"name":         "http://10.0.0.1/",
		"webhook_url":  "not a url",
		"count_url":    3,
	})
	want := []URLHost{{"api_base_url", "::1"}, {"path_url", "example.com"}, {"url", "127.0.0.1"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("URLHosts = %v, want %v", got, want)
	}
}
