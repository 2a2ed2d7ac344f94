package integrationtest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"agencyhub/models/integration"
)

var created atomic.Int64

// Create adds an action dependency to a project, its name made unique with a number, and
// fails the test on an error.
func Create(t testing.TB, svc *integration.Service, companyID, projectID uuid.UUID,
	in integration.ActionDependencyInput) *integration.ActionDependency {
	t.Helper()
	in.Name = fmt.Sprintf("%s %d", in.Name, created.Add(1))
	d, err := svc.CreateActionDependency(context.Background(), companyID, projectID, in)
	if err != nil {
		t.Fatalf("create %s: %v", in.DependencyTypeKey, err)
	}
	return d
}

// MessengerABot is a messenger_a.bot integration of the bot API at baseURL.
func MessengerABot(baseURL, token string) integration.ActionDependencyInput {
	return integration.ActionDependencyInput{
		DependencyTypeKey: integration.TypeMessengerABot, Name: "Support bot",
		Metadata: map[string]any{"api_base_url": baseURL}, Auth: map[string]any{"bot_token": token},
	}
}
