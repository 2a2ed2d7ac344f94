// Package company owns tenancy: companies, their members and roles, projects with their
// inbound-webhook keys, company legal entities, and each user's workspace context (the
// active company and project). Every query of tenant rows filters by company.
package company
