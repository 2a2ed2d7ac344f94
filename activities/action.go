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
	// ReasonArgs are what the reason names (a missing value's path), so that readers in
	// other languages can be told the same (automation.FailureText).
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

// AsFailure classifies any error an action returned: a *Failure as it is, a cancelled
// context as canceled, anything else as an unknown outcome that is not retried.
func AsFailure(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	if errors.Is(err, context.Canceled) {
		return Fail(ClassCanceled, "canceled", "The run was cancelled while the action ran.", "Replay the run if the action is still needed")
	}
	return Fail(ClassUnknownOutcome, "unexpected_error", err.Error(), "Check the action's configuration and retry it")
}
