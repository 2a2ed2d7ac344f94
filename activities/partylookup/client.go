// Package partylookup is the client of the company-registry lookup provider (party_lookup in
// the specification). It speaks DaData's findById/party protocol, the common one for the
// Russian registry: POST {base}/findById/party with {"query": <INN or OGRN>} and
// "Authorization: Token <token>", answering {"suggestions": [{"value", "data": {...}}]}.
// The base URL is configurable, so tests and compatible gateways can stand in for the real
// service. Errors never contain the token.
package partylookup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"agencyhub/models/billing"
)

// maxParties is how many parties one lookup asks for: an INN names one organisation and its
// branches.
const maxParties = 20

// Party is one registry entry as the provider describes it.
type Party struct {
	// Type is LEGAL (an organisation) or INDIVIDUAL (a sole proprietor).
	Type string
	// OGRN is the OGRN of an organisation or the OGRNIP of a sole proprietor.
	INN, KPP, OGRN, OKVED string
	FullName, ShortName   string
	Address               string
	// Status is the registry state: ACTIVE, LIQUIDATING, LIQUIDATED, BANKRUPT, REORGANIZING.
	Status         string
	ManagementName string
}

// Failure kinds of Error: what the user should check.
const (
	// FailureUnreachable: no answer, a 5xx or a 429; the provider may be down or busy.
	FailureUnreachable = "unreachable"
	// FailureTokenRejected: the provider answered 401 or 403.
	FailureTokenRejected = "token_rejected"
	// FailureBadAnswer: an answer that is not the protocol's (wrong address, 404, other 4xx,
	// a body that does not decode).
	FailureBadAnswer = "bad_answer"
)

// Error is a failed lookup. Its text holds neither the URL nor the token.
type Error struct {
	Failure    string
	StatusCode int // 0 when no answer arrived
	cause      error
}

func (e *Error) Error() string {
	if e.StatusCode != 0 {
		return fmt.Sprintf("party lookup: %s: answered %d: %v", e.Failure, e.StatusCode, e.cause)
	}
	return fmt.Sprintf("party lookup: %s: %v", e.Failure, e.cause)
}

// Unwrap returns the cause: a network, context or egress error, never a *url.Error.
func (e *Error) Unwrap() error { return e.cause }

// Client looks parties up at one provider address with one token.
type Client struct {
	hc       *http.Client
	endpoint string
	token    string
}

// NewClient returns a client calling baseURL through hc, the egress client.
func NewClient(hc *http.Client, baseURL, token string) *Client {
	return &Client{hc: hc, endpoint: baseURL + "/findById/party", token: token}
}

// answer is the protocol's answer, with the fields we read.
type answer struct {
	Suggestions []struct {
		Value string `json:"value"`
		Data  struct {
			Type  string `json:"type"`
			INN   string `json:"inn"`
			KPP   string `json:"kpp"`
			OGRN  string `json:"ogrn"`
			OKVED string `json:"okved"`
			Name  struct {
				FullWithOPF  string `json:"full_with_opf"`
				ShortWithOPF string `json:"short_with_opf"`
			} `json:"name"`
			Address struct {
				Value string `json:"value"`
			} `json:"address"`
			State struct {
				Status string `json:"status"`
			} `json:"state"`
			Management struct {
				Name string `json:"name"`
			} `json:"management"`
		} `json:"data"`
	} `json:"suggestions"`
}

// FindByID returns the parties registered under an INN, OGRN or OGRNIP; none is an empty
// list. Errors: *Error.
func (c *Client) FindByID(ctx context.Context, id string) ([]Party, error) {
	body, _ := json.Marshal(map[string]any{"query": id, "count": maxParties})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &Error{Failure: FailureBadAnswer, cause: errors.New("the API address is not a valid URL")}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Token "+c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text is the whole URL
		}
		return nil, &Error{Failure: FailureUnreachable, cause: err}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, &Error{Failure: FailureTokenRejected, StatusCode: resp.StatusCode, cause: errors.New(http.StatusText(resp.StatusCode))}
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return nil, &Error{Failure: FailureUnreachable, StatusCode: resp.StatusCode, cause: errors.New(http.StatusText(resp.StatusCode))}
	case resp.StatusCode != http.StatusOK:
		return nil, &Error{Failure: FailureBadAnswer, StatusCode: resp.StatusCode, cause: errors.New(http.StatusText(resp.StatusCode))}
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, &Error{Failure: FailureUnreachable, StatusCode: resp.StatusCode, cause: err}
	}
	var a answer
	if err := json.Unmarshal(raw, &a); err != nil || a.Suggestions == nil {
		return nil, &Error{Failure: FailureBadAnswer, StatusCode: resp.StatusCode, cause: errors.New("the answer has no suggestions list")}
	}
	parties := make([]Party, len(a.Suggestions))
	for i, s := range a.Suggestions {
		d := s.Data
		parties[i] = Party{
			Type: d.Type, INN: d.INN, KPP: d.KPP, OGRN: d.OGRN, OKVED: d.OKVED,
			FullName: d.Name.FullWithOPF, ShortName: d.Name.ShortWithOPF, Address: d.Address.Value, Status: d.State.Status,
			ManagementName: d.Management.Name,
		}
		if parties[i].ShortName == "" { // the display name, which the protocol always has
			parties[i].ShortName = s.Value
		}
	}
	return parties, nil
}

// ClientType is the client type a party prefills: a sole proprietor is an
// individual_entrepreneur, anything else a legal_entity.
func (p Party) ClientType() string {
	if p.Type == "INDIVIDUAL" {
		return billing.ClientEntrepreneur
	}
	return billing.ClientLegalEntity
}
