// Package billing owns a company's clients and what an agency bills them for: contacts,
// responsible members, linked projects, client service types (global ones from
// schemas/billing/service_types.json, company and project ones stored) and client services
// with their amount, currency, billing period and next due date. Payment actions and facts
// will hang off client services here.
package billing
