package webhook_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/models/company"
	"agencyhub/models/dbtest"
	"agencyhub/models/webhook"
	"agencyhub/schemas"
)

// engine stands in for the engine's run service: it writes the run row a start writes,
// after delay, or refuses while refuse is set.
type engine struct {
	db     *dbtest.DB
	delay  time.Duration
	refuse atomic.Bool
	starts atomic.Int32
}

func (e *engine) StartWebhook(ctx context.Context, w *automation.Workflow, endpointKey string, payload map[string]any, runID uuid.UUID, startedBy *uuid.UUID) (*automation.Run, error) {
	e.starts.Add(1)
	time.Sleep(e.delay)
	if e.refuse.Load() {
		return nil, &models.Error{Kind: models.KindUnavailable, Key: "engine_unavailable"}
	}
	now := time.Now().UTC()
	r := &automation.Run{ID: runID, CompanyID: w.CompanyID, ProjectID: w.ProjectID, WorkflowID: w.ID, Status: automation.RunPending,
		TriggerType: "webhook", TriggerActionKey: "hook", Input: "{}", Namespaces: "{}", Graph: "{}", StartedBy: startedBy, CreatedAt: now, UpdatedAt: now}
	return r, e.db.WithContext(ctx).Create(r).Error
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
	keys, err := models.DeriveKeys([]byte("test-master-key-test-master-key-0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	catalog, err := schemas.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	w := &ingestWorld{engine: &engine{db: db}, now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	clock := func() time.Time { return w.now }
	companies := company.NewService(db.DB, keys.Sealer)
	c := company.Company{ID: models.NewID(), Slug: "northwind", Name: "Northwind", CreatedAt: w.now, UpdatedAt: w.now}
	if err := db.Create(&c).Error; err != nil {
		t.Fatal(err)
	}
	p, _, err := companies.CreateProject(ctx, c.ID, "Shop")
	if err != nil {
		t.Fatal(err)
	}
	workflows := automation.NewService(db.DB, companies, catalog)
	user := models.NewID()
	wf, err := workflows.Create(ctx, p, user, "Orders", "")
	if err != nil {
		t.Fatal(err)
	}
	if wf, _, err = workflows.PutDraft(ctx, wf, automation.Draft{Graph: automation.Graph{Actions: []automation.Action{
		{ActionKey: "hook", ActionTypeKey: automation.TypeWebhook, Config: map[string]any{"endpoint_key": "orders", "auth_type": "none"}},
	}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := workflows.Publish(ctx, wf, user, nil); err != nil {
		t.Fatal(err)
	}
	w.svc = webhook.NewService(db.DB, companies, workflows, w.engine, "http://api.test")
	w.svc.Now = clock
	w.svc.DuplicateWait = 300 * time.Millisecond
	if _, _, err := w.svc.Create(ctx, wf, user, "orders", webhook.Settings{}); err != nil {
		t.Fatal(err)
	}
	if w.target, err = w.svc.Resolve(ctx, p.HookKey, "orders"); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *ingestWorld) delivery(t *testing.T, id, body string) webhook.Delivery {
	t.Helper()
	h := http.Header{"Content-Type": {"application/json"}}
	if id != "" {
		h.Set("webhook-id", id)
	}
	d, err := webhook.NewDelivery(w.target, h, []byte(body), "192.0.2.7")
	if err != nil {
		t.Fatal(err)
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
		d := w.delivery(t, "msg_1", `{"a":1}`)
		const n = 10
		answers := make([]*webhook.Answer, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { answers[i], errs[i] = w.svc.Ingest(context.Background(), w.target, d) })
		}
		wg.Wait()
		replayed := 0
		for i := range n {
			if errs[i] != nil || answers[i].Status != http.StatusAccepted || string(answers[i].Body) != string(answers[0].Body) {
				t.Fatalf("delivery %d: %+v, %v (first %s)", i, answers[i], errs[i], answers[0].Body)
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
			if a, err := w.svc.Ingest(context.Background(), w.target, w.delivery(t, "", `{"a":1}`)); err != nil || a.Replayed {
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
		if _, err := w.svc.Ingest(context.Background(), w.target, d); !models.IsKind(err, models.KindUnavailable) {
			t.Fatalf("error = %v, want unavailable", err)
		}
		if ev := w.events(t); len(ev) != 1 || ev[0].Status != webhook.EventFailed || ev[0].Error == "" || ev[0].ResponseStatus != 0 {
			t.Fatalf("events after the refusal %+v", ev)
		}
		w.engine.refuse.Store(false)
		a, err := w.svc.Ingest(context.Background(), w.target, d)
		if err != nil || a.Status != http.StatusAccepted || a.Replayed {
			t.Fatalf("the retry: %+v, %v", a, err)
		}
		if ev := w.events(t); len(ev) != 1 || ev[0].Status != webhook.EventAccepted || ev[0].Error != "" || ev[0].Attempts != 2 || w.engine.starts.Load() != 2 {
			t.Fatalf("events after the retry %+v, %d starts", ev, w.engine.starts.Load())
		}
	})
}

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
		if _, err := w.svc.Ingest(ctx, w.target, d); !models.IsKind(err, models.KindConflict) {
			t.Fatalf("a duplicate of a delivery in progress: %v, want conflict", err)
		}
		w.now = w.now.Add(3 * time.Minute)
		a, err := w.svc.Ingest(ctx, w.target, d)
		if err != nil || a.Status != http.StatusAccepted || w.engine.starts.Load() != 1 {
			t.Fatalf("the duplicate after the claim expired: %+v, %v, %d starts", a, err, w.engine.starts.Load())
		}
		other := w.delivery(t, "msg_3", `{"a":4}`)
		if _, err := w.svc.Ingest(ctx, w.target, other); !models.IsKind(err, models.KindConflict) {
			t.Fatalf("the same id with another body: %v, want conflict", err)
		}
	})
}
