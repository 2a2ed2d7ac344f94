// Package activities holds the side effects of workflow actions: one file per action type,
// each a plain function of a rendered Request, and the integration clients they use (SMTP,
// the messengers' bot APIs, outbound HTTP with egress control). The engine registers each
// as a Temporal activity named after its action type key.
package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"agencyhub/models/automation"
)

// Request is one execution of an action: its rendered config and where it runs.
type Request struct {
	RunID      uuid.UUID
	CompanyID  uuid.UUID
	ProjectID  uuid.UUID
	ActionKey  string
	ActionType string
	// Config is the action's config with every {{ template }} already rendered.
	Config map[string]any
	// Attempt counts from 1.
	Attempt int
}

// Result is what a successful action produced. Output becomes steps.<action_key> for later
// actions; ProviderResponse is what the provider answered, kept for inspection.
type Result struct {
	Output           map[string]any `json:"output"`
	ProviderResponse map[string]any `json:"provider_response"`
}

// Func executes one action type.
type Func func(ctx context.Context, req Request) (Result, error)

// Retry classes of the specification's WebhookActionReceipt.retry_class.
const (
	ClassValidation     = "validation"
	ClassAuth           = "auth"
	ClassPermanent      = "permanent"
	ClassTransient      = "transient"
	ClassRateLimited    = "rate_limited"
	ClassTimeoutUnknown = "timeout_unknown"
	ClassCanceled       = "canceled"
	ClassUnknownOutcome = "unknown_outcome"
)

// RetryClasses are the retry classes, in the specification's order.
var RetryClasses = []string{
	ClassValidation, ClassAuth, ClassPermanent, ClassTransient, ClassRateLimited, ClassTimeoutUnknown, ClassCanceled, ClassUnknownOutcome,
}

// Failure is a classified action failure. The engine maps Retryable onto the Temporal retry
// policy and shows the rest in the action's diagnostics.
type Failure struct {
	RetryClass  string `json:"retry_class"`
	ReasonCode  string `json:"reason_code"`
	HumanReason string `json:"human_reason"`
	NextAction  string `json:"next_action"`
	Provider    string `json:"provider,omitempty"`
	Retryable   bool   `json:"retryable"`
	// TextKey and NextKey name the failure's texts in the failure table, ReasonArgs what
	// they name (a missing value's path), so that readers in other languages can be told
	// the same (automation.FailureText). A failure without TextKey is worded by its
	// ReasonCode where the table has it, else only as recorded.
	TextKey    string            `json:"text_key,omitempty"`
	NextKey    string            `json:"next_key,omitempty"`
	ReasonArgs map[string]string `json:"reason_args,omitempty"`
	// ProviderResponse is what the provider answered, when it answered.
	ProviderResponse map[string]any `json:"provider_response,omitempty"`
}

func (f *Failure) Error() string {
	return fmt.Sprintf("%s: %s (%s)", f.RetryClass, f.HumanReason, f.ReasonCode)
}

// retryable tells, per class, whether the engine retries automatically: only failures
// that a later attempt can fix and that certainly did not take effect.
var retryable = map[string]bool{
	ClassTransient: true, ClassRateLimited: true,
}

// Fail builds a classified failure; Retryable follows from the class.
func Fail(class, reasonCode, humanReason, nextAction string) *Failure {
	return &Failure{RetryClass: class, ReasonCode: reasonCode, HumanReason: humanReason, NextAction: nextAction, Retryable: retryable[class]}
}

// Args are what a failure's texts name, by placeholder.
type Args = map[string]string

// Failed builds a classified failure worded by the failure table: key's text as its
// reason, nextKey's (key+".next" when empty) as its next action, both in English as the run
// records them; the API words them again in the reader's language.
func Failed(class, reasonCode, key, nextKey string, args Args) *Failure {
	if nextKey == "" {
		nextKey = key + ".next"
	}
	reason, next, ok := automation.FailureText("en", key, nextKey, args)
	if !ok {
		reason = key // a key the table lacks: TestEveryFailureKeyIsWorded names it
	}
	f := Fail(class, reasonCode, reason, next)
	f.TextKey, f.NextKey, f.ReasonArgs = key, nextKey, args
	return f
}

// AsFailure classifies any error an action returned: a *Failure as it is, a cancelled
// context as canceled, anything else as an unknown outcome that is not retried.
func AsFailure(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	if errors.Is(err, context.Canceled) {
		return Failed(ClassCanceled, "canceled", "canceled", "", nil)
	}
	return Failed(ClassUnknownOutcome, "unexpected_error", "unexpected_error", "", Args{"error": err.Error()})
}
