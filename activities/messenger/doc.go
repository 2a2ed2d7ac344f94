// Package messenger holds the clients of the two chat messengers' bot APIs, named
// messenger_a and messenger_b as in the specification. Each speaks its provider's HTTP
// protocol against a configurable base URL, so tests and on-premises gateways can stand in
// for the real service, and reports every failure as an *Error that tells how far the call
// got. Bot tokens appear in no error text.
package messenger
