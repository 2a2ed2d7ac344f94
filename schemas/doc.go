// Package schemas holds the interface contract (openapi.yaml) and the catalogs of action
// and dependency types with their JSON Schemas. It loads both once, validates request and
// response bodies and action configs against them, and answers which operation a method
// and route name.
package schemas
