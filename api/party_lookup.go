package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/activities/partylookup"
	"agencyhub/api/httpx"
	"agencyhub/models/billing"
	"agencyhub/models/integration"
)

// partyLookupIntegrationSave is the body of both saves.
type partyLookupIntegrationSave struct {
	Provider   string  `json:"provider"`
	APIBaseURL string  `json:"api_base_url"`
	Token      *string `json:"token"`
	Enabled    *bool   `json:"enabled"`
}

// partyLookupIntegrationView is the settings of one scope, the token masked, and the scope
// whose settings a lookup there uses.
type partyLookupIntegrationView struct {
	ScopeKind      string     `json:"scope_kind"`
	CompanyID      uuid.UUID  `json:"company_id"`
	ProjectID      *uuid.UUID `json:"project_id"`
	Configured     bool       `json:"configured"`
	Provider       string     `json:"provider"`
	APIBaseURL     string     `json:"api_base_url"`
	Enabled        bool       `json:"enabled"`
	TokenMasked    string     `json:"token_masked"`
	EffectiveScope string     `json:"effective_scope"`
	UpdatedAt      *time.Time `json:"updated_at"`
}

// servePartyLookupIntegration answers the settings of the company (projectID nil) or of a
// project.
func (s *Server) servePartyLookupIntegration(c *gin.Context, companyID uuid.UUID, projectID *uuid.UUID) {
	own, err := s.Integrations.PartyLookupOf(c, companyID, projectID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	effective, err := s.Integrations.EffectivePartyLookup(c, companyID, projectID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	v := partyLookupIntegrationView{
		ScopeKind:      integration.ScopeCompany,
		CompanyID:      companyID,
		ProjectID:      projectID,
		EffectiveScope: integration.ScopeNone,
	}
	if projectID != nil {
		v.ScopeKind = integration.ScopeProject
	}
	if own != nil {
		v.Configured, v.Provider, v.APIBaseURL, v.Enabled, v.TokenMasked, v.UpdatedAt =
			true, own.Provider, own.APIBaseURL, own.Enabled, own.TokenMasked, &own.UpdatedAt
	}
	if effective != nil {
		v.EffectiveScope = effective.Scope()
	}
	c.JSON(http.StatusOK, v)
}

// savePartyLookupIntegration stores the settings of the company (projectID nil) or of a
// project and answers them.
func (s *Server) savePartyLookupIntegration(c *gin.Context, companyID uuid.UUID, projectID *uuid.UUID) {
	var req partyLookupIntegrationSave
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	err := s.Integrations.SavePartyLookup(c, companyID, projectID, integration.PartyLookupInput{
		Provider: req.Provider, APIBaseURL: req.APIBaseURL, Token: req.Token, Enabled: req.Enabled})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.servePartyLookupIntegration(c, companyID, projectID)
}

// companyPartyLookupIntegrationGet serves GET /api/v1/companies/{company_id}/integrations/party-lookup.
func (s *Server) companyPartyLookupIntegrationGet(c *gin.Context) {
	s.servePartyLookupIntegration(c, access(c).Company.ID, nil)
}

// companyPartyLookupIntegrationSave serves PUT /api/v1/companies/{company_id}/integrations/party-lookup.
// Errors: 400 (provider, api_base_url, token).
func (s *Server) companyPartyLookupIntegrationSave(c *gin.Context) {
	s.savePartyLookupIntegration(c, access(c).Company.ID, nil)
}

// projectPartyLookupIntegrationGet serves GET /api/v1/projects/{project_id}/integrations/party-lookup.
func (s *Server) projectPartyLookupIntegrationGet(c *gin.Context) {
	p := project(c)
	s.servePartyLookupIntegration(c, p.CompanyID, &p.ID)
}

// projectPartyLookupIntegrationSave serves PUT /api/v1/projects/{project_id}/integrations/party-lookup.
// Errors: 400 (provider, api_base_url, token).
func (s *Server) projectPartyLookupIntegrationSave(c *gin.Context) {
	p := project(c)
	s.savePartyLookupIntegration(c, p.CompanyID, &p.ID)
}

type findPartyRequest struct {
	INN       string     `json:"inn"`
	OGRN      string     `json:"ogrn"`
	ProjectID *uuid.UUID `json:"project_id"`
}

// partyClientView is a found party as the client fields it prefills: a body clientCreate
// takes as it is.
type partyClientView struct {
	ClientType   string `json:"client_type"`
	Name         string `json:"name"`
	FullName     string `json:"full_name"`
	ShortName    string `json:"short_name"`
	INN          string `json:"inn"`
	KPP          string `json:"kpp"`
	OGRN         string `json:"ogrn"`
	OGRNIP       string `json:"ogrnip"`
	OKVED        string `json:"okved"`
	LegalAddress string `json:"legal_address"`
}

type foundPartyView struct {
	Client         partyClientView `json:"client"`
	RegistryStatus string          `json:"registry_status"`
	ManagementName string          `json:"management_name"`
}

type findPartyView struct {
	Items []foundPartyView `json:"items"`
}

func viewFoundParty(p partylookup.Party) foundPartyView {
	client := partyClientView{
		ClientType: p.ClientType(), Name: p.ShortName, FullName: p.FullName, ShortName: p.ShortName,
		INN: p.INN, OKVED: p.OKVED, LegalAddress: p.Address,
	}
	if client.Name == "" {
		client.Name = p.FullName
	}
	if client.ClientType == billing.ClientEntrepreneur {
		client.OGRNIP = p.OGRN
	} else {
		client.KPP, client.OGRN = p.KPP, p.OGRN
	}
	return foundPartyView{Client: client, RegistryStatus: strings.ToLower(p.Status), ManagementName: p.ManagementName}
}

// clientPartyLookupFindParty serves POST /api/v1/companies/{company_id}/clients/party-lookup/find-party.
// Errors: 400 (inn, ogrn, project_id), 409 (no party lookup configured), 502 (the provider
// failed or may not be called).
func (s *Server) clientPartyLookupFindParty(c *gin.Context) {
	var req findPartyRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	parties, err := s.PartyLookup.FindParty(c, access(c).Company.ID, req.ProjectID, req.INN, req.OGRN)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	v := findPartyView{Items: make([]foundPartyView, len(parties))}
	for i, p := range parties {
		v.Items[i] = viewFoundParty(p)
	}
	c.JSON(http.StatusOK, v)
}
