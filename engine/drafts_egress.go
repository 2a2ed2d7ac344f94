package engine

import (
	"errors"

	"agencyhub/activities/egress"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// egressDiagnostics flags every URL of an action's config (models.URLHosts) whose host, as
// written, the egress policy refuses: every run would fail on it.
func (d *Drafts) egressDiagnostics(a automation.Action, flagged map[string]bool) []automation.Diagnostic {
	var ds []automation.Diagnostic
	for _, u := range models.URLHosts(a.Config) {
		if flagged[a.ActionKey+" config."+u.Field] {
			continue
		}
		var refused *egress.RefusedError
		if errors.As(d.Egress.CheckLiteral(u.Host), &refused) {
			diag := automation.Diagnosed(automation.SeverityError, "egress_refused", "egress_refused", u.Host, egressReason(refused.Reason))
			diag.ActionKey, diag.Field = a.ActionKey, "config."+u.Field
			ds = append(ds, diag)
		}
	}
	return ds
}

// egressReason is egress.RefusedError's reason, said in the reader's language.
type egressReason string

func (r egressReason) In(lang string) string { return automation.EgressReason(lang, string(r)) }
