package engine

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"agencyhub/activities/egress"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// egressDiagnostics flags every URL of an action's config (a field named url or ending in
// _url) whose host, as written, the egress policy refuses: every run would fail on it. A
// host with a template in it is known only when a run renders it, and is left to the run.
func (d *Drafts) egressDiagnostics(ctx context.Context, a automation.Action, flagged map[string]bool) []automation.Diagnostic {
	var fields []string
	for field := range a.Config {
		if field == "url" || strings.HasSuffix(field, "_url") {
			fields = append(fields, field)
		}
	}
	sort.Strings(fields)
	var ds []automation.Diagnostic
	for _, field := range fields {
		raw, ok := a.Config[field].(string)
		if !ok || flagged[a.ActionKey+" config."+field] {
			continue
		}
		host, literal := literalHost(raw)
		if !literal {
			continue
		}
		var refused *egress.RefusedError
		if errors.As(d.Egress.CheckLiteral(host), &refused) {
			ds = append(ds, automation.Diagnostic{Severity: automation.SeverityError, Code: "egress_refused",
				Message: egressRefusedText(models.Language(ctx), host, refused.Reason), ActionKey: a.ActionKey, Field: "config." + field})
		}
	}
	return ds
}

// literalHost is the host of an absolute URL whose scheme and authority hold no template.
func literalHost(raw string) (string, bool) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok || strings.Contains(scheme, "{{") {
		return "", false
	}
	authority := rest
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		authority = rest[:end]
	}
	if strings.Contains(authority, "{{") {
		return "", false
	}
	u, err := url.Parse(scheme + "://" + authority)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	return u.Hostname(), true
}

// egressReasonsRu words egress.RefusedError's reasons in Russian.
var egressReasonsRu = map[string]string{
	"loopback address":       "адрес самой машины (loopback)",
	"private address":        "адрес частной сети",
	"link-local address":     "локальный адрес канала (link-local)",
	"unspecified address":    "неопределённый адрес",
	"multicast address":      "групповой адрес (multicast)",
	"reserved address":       "зарезервированный адрес",
	"shared (CGNAT) address": "адрес общей сети провайдера (CGNAT)",
}

// egressRefusedText says why a host is refused and how an operator allows it.
func egressRefusedText(lang, host, reason string) string {
	if lang == "ru" {
		if ru, ok := egressReasonsRu[reason]; ok {
			reason = ru
		}
		return fmt.Sprintf("Политика исходящих соединений не пускает к %s: это %s, и каждый запуск этого действия завершится ошибкой. "+
			"Укажите публичный адрес или попросите оператора разрешить этот в настройке APP_EGRESS_ALLOW (docs/configuration.md).", host, reason)
	}
	return fmt.Sprintf("The egress policy refuses %s, a %s, so every run of this action would fail. "+
		"Use a public address, or ask the operator to allow this one in the APP_EGRESS_ALLOW setting (docs/configuration.md).", host, reason)
}
