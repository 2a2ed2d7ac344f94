package messenger

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Provider keys, as the specification names the messengers.
const (
	ProviderA = "messenger_a"
	ProviderB = "messenger_b"
)

// Error is a failed bot API call. Its text and cause never contain the bot token.
type Error struct {
	Provider string // ProviderA or ProviderB
	Method   string // the API method, e.g. "sendMessage"
	// Sent tells whether the request was written to a connection, so that the API may have
	// acted on it although no answer says so.
	Sent bool
	// StatusCode is the HTTP status of the answer, 0 when none arrived. An answer with a
	// success status that could not be read keeps that status.
	StatusCode int
	// Code and Description are the API's own error code and explanation, when it gave them.
	Code        string
	Description string
	// RetryAfter is how long the API asked to wait before the next call (rate limits).
	RetryAfter time.Duration
	// Response is the answer's JSON body, when it had one.
	Response map[string]any
	cause    error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", e.Provider, e.Method)
	switch {
	case e.StatusCode != 0 && e.Description != "":
		fmt.Fprintf(&b, ": answered %d: %s", e.StatusCode, e.Description)
	case e.StatusCode != 0:
		fmt.Fprintf(&b, ": answered %d", e.StatusCode)
	case e.Sent:
		b.WriteString(": sent, no answer")
	default:
		b.WriteString(": not sent")
	}
	if e.cause != nil {
		fmt.Fprintf(&b, ": %v", e.cause)
	}
	return b.String()
}

// Unwrap returns the cause (a network, context or egress error), never one whose text holds
// the request URL.
func (e *Error) Unwrap() error { return e.cause }

// Answered tells whether the API gave an HTTP answer.
func (e *Error) Answered() bool { return e.StatusCode != 0 }

// redact strips the *url.Error wrapper, whose text is the whole URL (the token is in the
// path of messenger_a's), and, should the token still appear, replaces the error by its
// text with the token masked, giving up its chain so nothing can reach the original text.
func redact(err error, secret string) error {
	if err == nil {
		return nil
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if secret != "" && strings.Contains(err.Error(), secret) {
		return errors.New(redactString(err.Error(), secret))
	}
	return err
}

// redactString replaces secret in s.
func redactString(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[token]")
}

// redactValue returns v, a decoded JSON value, with secret replaced in every string.
func redactValue(v any, secret string) any {
	switch v := v.(type) {
	case string:
		return redactString(v, secret)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, item := range v {
			out[redactString(k, secret)] = redactValue(item, secret)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = redactValue(item, secret)
		}
		return out
	}
	return v
}
