// Package httpx is the request plumbing every handler shares: request ids, language
// negotiation, the one Problem writer that maps domain errors to HTTP, body binding and
// validation against the contract, pagination parameters and the request log line.
package httpx
