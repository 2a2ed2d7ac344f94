package activities

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"agencyhub/activities/egress"
	"agencyhub/activities/partylookup"
	"agencyhub/models"
	"agencyhub/models/billing"
	"agencyhub/models/integration"
)

// partyLookupTimeout bounds one lookup: a person waits for it to prefill a form.
const partyLookupTimeout = 15 * time.Second

// PartyLookup finds parties in the company registry through the party lookup integration
// of a company or project, with its token, which callers never see.
type PartyLookup struct {
	Store *integration.Service
	// Client is the egress HTTP client.
	Client *http.Client
}

// partyLookupFailures names, for each way the provider can fail, the message that says what
// to check.
var partyLookupFailures = map[string]string{
	partylookup.FailureUnreachable:   "party_lookup_unreachable",
	partylookup.FailureTokenRejected: "party_lookup_token_rejected",
	partylookup.FailureBadAnswer:     "party_lookup_bad_answer",
}

// FindParty looks up the parties registered under an INN or an OGRN (or OGRNIP), exactly
// one of them given, with the settings of the project, when projectID names one that has
// enabled settings, else of the company. Errors: invalid (inn, ogrn, project_id), conflict
// (no enabled settings), upstream (the provider failed or may not be called).
func (p *PartyLookup) FindParty(ctx context.Context, companyID uuid.UUID, projectID *uuid.UUID,
	inn, ogrn string) ([]partylookup.Party, error) {
	id, err := billing.PartyRegistryNumber(inn, ogrn)
	if err != nil {
		return nil, err
	}
	settings, err := p.Store.EffectivePartyLookup(ctx, companyID, projectID)
	if err != nil {
		return nil, err
	}
	if settings == nil {
		return nil, models.Conflict("party_lookup_not_configured")
	}
	token, err := p.Store.PartyLookupToken(settings)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, partyLookupTimeout)
	defer cancel()
	parties, err := partylookup.NewClient(p.Client, settings.APIBaseURL, token).FindByID(ctx, id)
	if err == nil {
		return parties, nil
	}
	key := "party_lookup_unreachable"
	var pe *partylookup.Error
	switch {
	case egress.IsRefused(err):
		key = "party_lookup_egress_refused"
	case errors.As(err, &pe):
		key = partyLookupFailures[pe.Failure]
	}
	return nil, &models.Error{Kind: models.KindUpstream, Key: key, Err: err}
}
