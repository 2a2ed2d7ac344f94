package engine

import (
	"context"
	"errors"
	"fmt"

	"agencyhub/activities/egress"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// egressDiagnostics flags every URL of an action's config (models.URLHosts) whose host, as
// written, the egress policy refuses: every run would fail on it.
func (d *Drafts) egressDiagnostics(ctx context.Context, a automation.Action, flagged map[string]bool) []automation.Diagnostic {
	var ds []automation.Diagnostic
	for _, u := range models.URLHosts(a.Config) {
		if flagged[a.ActionKey+" config."+u.Field] {
			continue
		}
		var refused *egress.RefusedError
		if errors.As(d.Egress.CheckLiteral(u.Host), &refused) {
			ds = append(ds, automation.Diagnostic{Severity: automation.SeverityError, Code: "egress_refused",
				Message: egressRefusedText(models.Language(ctx), u.Host, refused.Reason), ActionKey: a.ActionKey, Field: "config." + u.Field})
		}
	}
	return ds
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
