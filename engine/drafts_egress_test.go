package engine

import (
	"context"
	"strings"
	"testing"

	"agencyhub/activities/egress"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/schemas"
)

func TestADraftCallingAHostTheEgressPolicyRefusesIsAnErrorOnItsURL(t *testing.T) {
	catalog, err := schemas.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	allowLocal, err := egress.ParsePolicy("localhost,10.20.0.0/16")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		policy  egress.Policy
		url     string
		refused string // the host the diagnostic names; "" for none
	}{
		{"a loopback address is refused", egress.Policy{}, "http://127.0.0.1:8080/hook", "127.0.0.1"},
		{"localhost is refused", egress.Policy{}, "http://localhost/orders", "localhost"},
		{"a private address is refused", egress.Policy{}, "https://10.20.1.5/api", "10.20.1.5"},
		{"a link-local address is refused", egress.Policy{}, "http://169.254.169.254/latest/meta-data", "169.254.169.254"},
		{"an allow-listed host passes", allowLocal, "http://localhost:9000/x", ""},
		{"an address of an allow-listed network passes", allowLocal, "https://10.20.1.5/api", ""},
		{"a public host passes", egress.Policy{}, "https://api.example.com/orders", ""},
		{"a templated host is left to the run", egress.Policy{}, "http://{{ order.host }}/x", ""},
		{"a URL that is all template is left to the run", egress.Policy{}, "{{ order.callback }}", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := &Drafts{Catalog: catalog, Egress: tt.policy}
			g := automation.Graph{
				Actions: []automation.Action{
					{ActionKey: "start", ActionTypeKey: "manual.trigger", Config: map[string]any{}},
					{ActionKey: "fetch", ActionTypeKey: "http.request", Config: map[string]any{"url": tt.url}},
				},
				Connections: []automation.Connection{{From: "start", To: "fetch"}},
			}
			ds, err := d.Validate(context.Background(), &automation.Workflow{}, g)
			if err != nil {
				t.Fatal(err)
			}
			var found []automation.Diagnostic
			for _, diag := range ds {
				if diag.Code == "egress_refused" {
					found = append(found, diag)
				}
			}
			if tt.refused == "" {
				if len(found) != 0 {
					t.Fatalf("diagnostics %v, want none about egress", found)
				}
				return
			}
			if len(found) != 1 {
				t.Fatalf("diagnostics %v, want one egress_refused", ds)
			}
			got := found[0]
			if got.Severity != automation.SeverityError || got.ActionKey != "fetch" || got.Field != "config.url" ||
				!strings.Contains(got.Message, tt.refused) || !strings.Contains(got.Message, "APP_EGRESS_ALLOW") {
				t.Fatalf("diagnostic %+v, want an error on fetch's config.url naming %s and APP_EGRESS_ALLOW", got, tt.refused)
			}
		})
	}
}

func TestTheEgressDiagnosticIsInTheCallersLanguage(t *testing.T) {
	catalog, err := schemas.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	d := &Drafts{Catalog: catalog}
	g := automation.Graph{Actions: []automation.Action{
		{ActionKey: "start", ActionTypeKey: "manual.trigger", Config: map[string]any{}},
		{ActionKey: "fetch", ActionTypeKey: "http.request", Config: map[string]any{"url": "http://127.0.0.1/"}},
	}, Connections: []automation.Connection{{From: "start", To: "fetch"}}}
	ds, err := d.Validate(models.WithLanguage(context.Background(), "ru"), &automation.Workflow{}, g)
	if err != nil {
		t.Fatal(err)
	}
	for _, diag := range ds {
		if diag.Code == "egress_refused" {
			if !strings.Contains(diag.Message, "Политика исходящих соединений") || !strings.Contains(diag.Message, "loopback") {
				t.Fatalf("message %q, want it in Russian", diag.Message)
			}
			return
		}
	}
	t.Fatalf("diagnostics %v, want egress_refused", ds)
}
