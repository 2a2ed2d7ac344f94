// Package auth owns accounts and credentials: users, activation and password reset tokens,
// sessions with rotating refresh tokens, short-lived access tokens (JWT, HS256) bound to
// those sessions, CSRF tokens for cookie clients, API keys, and the failed-login limiter;
// and federated and device sign-in: identity-provider sign-in with account linking, the
// native app code exchange, device credentials of native and desktop sessions, and desktop
// sign-in by device authorization.
package auth
