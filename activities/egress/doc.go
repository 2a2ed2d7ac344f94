// Package egress owns outbound connections to user-configured targets: the one HTTP client
// that http.request and the messengers' bot APIs use, and the Policy it enforces.
//
// The policy refuses private, loopback, link-local, unspecified, multicast, reserved and
// shared (CGNAT) addresses. It is checked in the dialer's Control hook, on the address
// actually being connected to after DNS resolution, so a name that resolves to a public
// address when checked and to an internal one when connecting (DNS rebinding) cannot slip
// through; every redirect hop dials through the same hook. APP_EGRESS_ALLOW lists the hosts
// and networks that are reachable anyway (tests, on-premises installations).
package egress
