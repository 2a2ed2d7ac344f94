// Package api is the HTTP layer: routes (routes.go, one line each), authentication and
// tenant-access middleware, and thin handlers that bind, call one domain function and render.
// Wire types are declared here, separate from storage types, with a view function each.
package api
