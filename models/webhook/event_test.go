package webhook_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/webhook"
	"agencyhub/platform/realtime"
)

// engine stands in for the engine's trigger intake: it writes the run row a start writes,
// after delay, or refuses while refuse is set.
type engine struct {
	db     *dbtest.DB
	delay  time.Duration
	refuse atomic.Bool
	starts atomic.Int32
}

func (e *engine) start(ctx context.Context, t *webhook.Target, runID uuid.UUID) error {
	e.starts.Add(1)
	time.Sleep(e.delay) // a start that takes a while, so duplicates overlap it
	if e.refuse.Load() {
		return models.Unavailable("engine_unavailable", errors.New("the engine refuses starts"))
	}
	now := time.Now().UTC()
	r := &automation.Run{ID: runID, CompanyID: t.Trigger.CompanyID, ProjectID: t.Trigger.ProjectID, WorkflowID: t.Trigger.WorkflowID,
		Status: automation.RunPending, TriggerType: "webhook", TriggerActionKey: t.Trigger.ActionKey, Input: "{}", Namespaces: "{}", Graph: "{}",
		CreatedAt: now, UpdatedAt: now}
	return e.db.WithContext(ctx).Create(r).Error
}

// ingest is a delivery as the engine's intake drives it: received, then started and
// accepted, or refused.
func (w *ingestWorld) ingest(ctx context.Context, d webhook.Delivery) (*webhook.Answer, error) {
	ev, answer, err := w.svc.Receive(ctx, w.target, d)
	if ev == nil {
		return answer, err
	}
	if err := w.engine.start(ctx, w.target, *ev.PlannedRunID); err != nil {
		return nil, w.svc.Refuse(ctx, ev, err)
	}
	return w.svc.Accept(ctx, w.target, ev, *ev.PlannedRunID)
}

// ingestWorld is a published workflow with a webhook endpoint, on a clock tests move.
type ingestWorld struct {
	svc    *webhook.Service
	engine *engine
	target *webhook.Target
	now    time.Time
}

func newIngestWorld(t *testing.T, db *dbtest.DB) *ingestWorld {
	t.Helper()
	ctx := context.Background()
	tenant := dbtest.NewTenant(t, db.DB, "northwind")
	w := &ingestWorld{engine: &engine{db: db}, now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	workflows := automation.NewService(db.DB, tenant.Companies, tenant.Catalog, realtime.NewLocal())
	wf, err := workflows.Create(ctx, tenant.Project, tenant.UserID, "Orders", "")
	if err != nil {
		t.Fatal(err)
	}
	if wf, err = workflows.PutDraft(ctx, wf, automation.Draft{Graph: automation.Graph{Actions: []automation.Action{
		{ActionKey: "hook", ActionTypeKey: automation.TypeWebhook, Config: map[string]any{"endpoint_key": "orders", "auth_type": "none"}},
	}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := workflows.Publish(ctx, wf, tenant.UserID, nil); err != nil {
		t.Fatal(err)
	}
	w.svc = webhook.NewService(db.DB, tenant.Companies, workflows, "http://api.test")
	w.svc.Now = func() time.Time { return w.now }
	w.svc.DuplicateWait = 300 * time.Millisecond
	if _, _, err := w.svc.Create(ctx, wf, tenant.UserID, "orders", webhook.Settings{}); err != nil {
		t.Fatal(err)
	}
	if w.target, err = w.svc.Resolve(ctx, tenant.Project.HookKey, "orders"); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *ingestWorld) delivery(t *testing.T, id, body string) webhook.Delivery {
	t.Helper()
	h := http.Header{"Content-Type": {"application/json"}}
	if id != "" {
		h.Set(webhook.HeaderID, id)
	}
	d, err := webhook.NewDelivery(w.target, h, []byte(body), "192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	if id != "" { // the API reads the delivery id (idempotencyKey) and hands it on
		d.ID, d.IDHeader = id, webhook.HeaderID
	}
	return d
}

func (w *ingestWorld) events(t *testing.T) []webhook.Event {
	t.Helper()
	rows, _, err := w.svc.Events(context.Background(), w.target.Endpoint.ID, models.PageRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestIngestStartsOneRunForConcurrentDuplicates(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newIngestWorld(t, db)
		w.engine.delay = 100 * time.Millisecond
		// The duplicates wait for the first start, which a loaded machine may take longer
		// than the world's 300 ms to finish.
		w.svc.DuplicateWait = 10 * time.Second
		d := w.delivery(t, "msg_1", `{"a":1}`)
		const n = 10
		answers := make([]*webhook.Answer, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { answers[i], errs[i] = w.ingest(context.Background(), d) })
		}
		wg.Wait()
		replayed := 0
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("delivery %d: %v", i, errs[i])
			}
			if answers[i].Status != http.StatusAccepted || string(answers[i].Body) != string(answers[0].Body) {
				t.Fatalf("delivery %d: %+v (first %s)", i, answers[i], answers[0].Body)
			}
			if answers[i].Replayed {
				replayed++
			}
		}
		if starts := w.engine.starts.Load(); starts != 1 || replayed != n-1 || len(w.events(t)) != 1 {
			t.Fatalf("%d starts, %d replayed answers, %d events", starts, replayed, len(w.events(t)))
		}
	})
}

func TestIngestWithoutDeliveryIDStartsEveryTime(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newIngestWorld(t, db)
		for range 3 {
			if a, err := w.ingest(context.Background(), w.delivery(t, "", `{"a":1}`)); err != nil || a.Replayed {
				t.Fatalf("%+v, %v", a, err)
			}
		}
		if starts := w.engine.starts.Load(); starts != 3 || len(w.events(t)) != 3 {
			t.Fatalf("%d starts, %d events", starts, len(w.events(t)))
		}
	})
}

func TestIngestRetriesADeliveryTheEngineRefused(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newIngestWorld(t, db)
		d := w.delivery(t, "msg_2", `{"a":2}`)
		w.engine.refuse.Store(true)
		if _, err := w.ingest(context.Background(), d); !models.IsKind(err, models.KindUnavailable) {
			t.Fatalf("error = %v, want unavailable", err)
		}
		if ev := w.events(t); len(ev) != 1 || ev[0].Status != webhook.EventFailed || ev[0].Error == "" || ev[0].ResponseStatus != 0 {
			t.Fatalf("events after the refusal %+v", ev)
		}
		w.engine.refuse.Store(false)
		a, err := w.ingest(context.Background(), d)
		if err != nil || a.Status != http.StatusAccepted || a.Replayed {
			t.Fatalf("the retry: %+v, %v", a, err)
		}
		if ev := w.events(t); len(ev) != 1 || ev[0].Status != webhook.EventAccepted || ev[0].Error != "" || ev[0].Attempts != 2 || w.engine.starts.Load() != 2 {
			t.Fatalf("events after the retry %+v, %d starts", ev, w.engine.starts.Load())
		}
	})
}

// TestIngestTakesOverAnAbandonedDelivery: a delivery whose process died after claiming it
// is taken over by a duplicate once the claim is older than a start may take, not before.
func TestIngestTakesOverAnAbandonedDelivery(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		w := newIngestWorld(t, db)
		d := w.delivery(t, "msg_3", `{"a":3}`)
		// A process stored the delivery and died before starting its run.
		ev := webhook.Event{
			ID: models.NewID(), CompanyID: w.target.Endpoint.CompanyID, ProjectID: w.target.Endpoint.ProjectID,
			WorkflowID: w.target.Endpoint.WorkflowID, EndpointID: w.target.Endpoint.ID, DeliveryID: &d.ID, BodySHA256: d.BodySHA256,
			Status: webhook.EventReceived, ContentType: "application/json", Body: d.Body, Payload: d.Payload, Fields: map[string]any{},
			Headers: map[string]string{}, ReceivedAt: w.now, Attempts: 1, ClaimedAt: w.now,
		}
		if err := db.Create(&ev).Error; err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := w.ingest(ctx, d); !models.IsKind(err, models.KindConflict) {
			t.Fatalf("a duplicate of a delivery in progress: %v, want conflict", err)
		}
		// Until its start's time is up the first claimant may still be at work.
		w.now = w.now.Add(webhook.StartTimeout)
		if _, err := w.ingest(ctx, d); !models.IsKind(err, models.KindConflict) {
			t.Fatalf("a duplicate within the start's time: %v, want conflict", err)
		}
		w.now = w.now.Add(6 * time.Second)
		a, err := w.ingest(ctx, d)
		if err != nil || a.Status != http.StatusAccepted || w.engine.starts.Load() != 1 {
			t.Fatalf("the duplicate after the claim expired: %+v, %v, %d starts", a, err, w.engine.starts.Load())
		}
		other := w.delivery(t, "msg_3", `{"a":4}`)
		if _, err := w.ingest(ctx, other); !models.IsKind(err, models.KindConflict) {
			t.Fatalf("the same id with another body: %v, want conflict", err)
		}
	})
}
