// Package auth owns accounts and credentials: users, activation and password reset tokens,
// sessions with rotating refresh tokens, short-lived access tokens (JWT, HS256) bound to
// those sessions, CSRF tokens for cookie clients, API keys, and the failed-login limiter.
package auth
