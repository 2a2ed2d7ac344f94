// Package schemas holds the interface contract (openapi.yaml) and, later, the catalogs'
// JSON Schemas. It loads the contract once, validates request and response bodies against
// it, and answers which operation a method and route name.
package schemas
