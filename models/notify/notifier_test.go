package notify_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/company"
	"agencyhub/models/desktop"
	"agencyhub/models/notify"
	"agencyhub/platform/metrics"
	"agencyhub/platform/metrics/metricstest"
	"agencyhub/platform/realtime"
)

// fixture is a tenant's company with its stores and a notifier on them.
type fixture struct {
	t         *testing.T
	db        *dbtest.DB
	tenant    *dbtest.Tenant
	users     *auth.Service
	workflows *automation.Service
	inbox     *desktop.Inbox
	metrics   *metrics.Metrics
	notifier  *notify.Notifier
}

func newFixture(t *testing.T, db *dbtest.DB) *fixture {
	t.Helper()
	tn := dbtest.NewTenant(t, db.DB, "northwind")
	bus := realtime.NewLocal()
	t.Cleanup(func() { bus.Close() })
	settings := auth.DefaultSettings()
	settings.PasswordCost = auth.PasswordCost{MemoryKiB: 64, Passes: 1}
	f := &fixture{t: t, db: db, tenant: tn, users: auth.NewService(db.DB, tn.Keys, settings),
		workflows: automation.NewService(db.DB, tn.Companies, tn.Catalog, bus), inbox: desktop.NewInbox(db.DB, bus), metrics: metrics.New()}
	f.notifier = f.notifierWith(f.inbox)
	return f
}

// notifierWith is a notifier of the fixture's stores that posts to inbox: as a process
// that starts anew makes one.
func (f *fixture) notifierWith(inbox *desktop.Inbox) *notify.Notifier {
	return &notify.Notifier{DB: f.db.DB, Bus: f.workflows.Bus, Inbox: inbox, Metrics: f.metrics, Users: f.users, Workflows: f.workflows,
		Billing: billing.NewService(f.db.DB, f.tenant.Companies, f.workflows.Bus), Poll: time.Hour}
}

// member registers an account that reads lang and makes it an owner of the company.
func (f *fixture) member(name, lang string) uuid.UUID {
	f.t.Helper()
	ctx := context.Background()
	u, err := f.users.Register(ctx, auth.RegisterInput{Email: name + "@example.com", Password: "correct-horse-battery", Name: name, Lang: lang})
	if err != nil {
		f.t.Fatal(err)
	}
	m := company.Member{CompanyID: f.tenant.Company.ID, UserID: u.ID, Role: company.RoleOwner, CreatedAt: time.Now().UTC()}
	if err := f.db.DB.Create(&m).Error; err != nil {
		f.t.Fatal(err)
	}
	return u.ID
}

// workflow is a workflow of the project created by owner.
func (f *fixture) workflow(owner uuid.UUID, name string) *automation.Workflow {
	f.t.Helper()
	wf, err := f.workflows.Create(context.Background(), f.tenant.Project, owner, name, "")
	if err != nil {
		f.t.Fatal(err)
	}
	return wf
}

// run stores a pending run of wf started by trigger.
func (f *fixture) run(wf *automation.Workflow, trigger string, test bool) *automation.Run {
	f.t.Helper()
	r := &automation.Run{ID: models.NewID(), CompanyID: wf.CompanyID, ProjectID: wf.ProjectID, WorkflowID: wf.ID,
		Status: automation.RunPending, TriggerType: trigger, IsTest: test, Input: "{}", Namespaces: "{}", Graph: "{}"}
	if err := f.workflows.CreateRun(context.Background(), r, nil); err != nil {
		f.t.Fatal(err)
	}
	return r
}

// finish writes the interpreter's batch that gives r status.
func (f *fixture) finish(r *automation.Run, status automation.RunStatus, reason string) {
	f.t.Helper()
	now := time.Now()
	err := f.workflows.ApplyProgress(context.Background(), automation.Progress{RunID: r.ID,
		Run: &automation.RunUpdate{Status: status, TerminalReason: reason, FinishedAt: &now}})
	if err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) drain(n *notify.Notifier) {
	f.t.Helper()
	if err := n.Drain(context.Background()); err != nil {
		f.t.Fatal(err)
	}
}

// messages are the desktop messages of a user, oldest first.
func (f *fixture) messages(userID uuid.UUID) []desktop.Message {
	f.t.Helper()
	ms, err := f.inbox.After(context.Background(), userID, 0, 100)
	if err != nil {
		f.t.Fatal(err)
	}
	return ms
}

func (f *fixture) count(name string, labels ...string) float64 {
	f.t.Helper()
	v, _ := metricstest.Gather(f.t, f.metrics.Registry()).Value(name, labels...)
	return v
}

// TestAFailedRunTellsItsOwnerInTheirLanguage: the owner of a workflow whose run failed
// gets a message in the language they read, titled from the catalog; a failed test run
// and a run that succeeded tell nobody.
func TestAFailedRunTellsItsOwnerInTheirLanguage(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		f := newFixture(t, db)
		ada, boris := f.member("ada", "en"), f.member("boris", "ru")
		orders, invoices := f.workflow(ada, "Orders"), f.workflow(boris, "Счета")
		f.finish(f.run(orders, "manual", false), automation.RunFailed, "the shop answered 404")
		failed := f.run(invoices, "manual", false)
		f.finish(failed, automation.RunFailed, "the bank answered 503")
		f.finish(f.run(invoices, "manual", true), automation.RunFailed, "a test")
		f.finish(f.run(invoices, "manual", false), automation.RunSucceeded, "")
		f.drain(f.notifier)

		for _, c := range []struct {
			name        string
			user        uuid.UUID
			title, body string
		}{
			{"an English reader", ada, "A run of Orders failed", "the shop answered 404"},
			{"a Russian reader", boris, "Запуск процесса Счета завершился ошибкой", "the bank answered 503"},
		} {
			t.Run(c.name+" gets the title in their language", func(t *testing.T) {
				ms := f.messages(c.user)
				if len(ms) != 1 || ms[0].Kind != desktop.KindRunFailed || ms[0].Title != c.title || ms[0].Body != c.body {
					t.Fatalf("messages %+v, want one %q: %q", ms, c.title, c.body)
				}
			})
		}
		if ms := f.messages(boris); ms[0].SubjectID != failed.ID.String() || *ms[0].ProjectID != failed.ProjectID {
			t.Errorf("the message is about %s %s in project %v, want the failed run", ms[0].SubjectType, ms[0].SubjectID, ms[0].ProjectID)
		}
	})
}

// TestRunsAreCountedOnceAsTheyStartAndFinish: a run counts as started when it is created
// or re-opened, and as finished when a write first gives it a terminal status; a batch
// written again (a replayed workflow task) and a second notifier draining the same queue
// do not count it twice.
func TestRunsAreCountedOnceAsTheyStartAndFinish(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		wf := f.workflow(f.member("ada", "en"), "Orders")
		manual, hook := f.run(wf, "manual", false), f.run(wf, "webhook", false)
		f.finish(manual, automation.RunRunning, "")
		f.finish(manual, automation.RunSucceeded, "")
		f.finish(manual, automation.RunSucceeded, "") // the same batch again
		for range 2 {
			if err := f.workflows.RefuseRun(ctx, hook.ID, "the engine is down"); err != nil {
				t.Fatal(err)
			}
		}
		f.drain(f.notifier)
		f.drain(f.notifierWith(f.inbox))
		for _, c := range []struct {
			name   string
			labels []string
			want   float64
		}{
			{"workflow_runs_started_total", []string{"trigger", "manual"}, 1},
			{"workflow_runs_started_total", []string{"trigger", "webhook"}, 1},
			{"workflow_runs_finished_total", []string{"trigger", "manual", "status", "succeeded"}, 1},
			{"workflow_runs_finished_total", []string{"trigger", "webhook", "status", "failed"}, 1},
		} {
			if got := f.count(c.name, c.labels...); got != c.want {
				t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
			}
		}

		t.Run("a re-opened run starts and finishes again", func(t *testing.T) {
			stored, err := f.workflows.Run(ctx, hook.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.workflows.ReopenRun(ctx, stored, ""); err != nil {
				t.Fatal(err)
			}
			f.finish(stored, automation.RunCancelled, "")
			f.drain(f.notifier)
			if got := f.count("workflow_runs_started_total", "trigger", "webhook"); got != 2 {
				t.Errorf("webhook runs started = %v, want 2", got)
			}
			if got := f.count("workflow_runs_finished_total", "trigger", "webhook", "status", "cancelled"); got != 1 {
				t.Errorf("webhook runs cancelled = %v, want 1", got)
			}
		})
	})
}

// TestAnEventOutlivesANotifierThatCouldNotHandleIt: the failed run's event is stored with
// the run, so a notifier that cannot post it (its inbox's database lacks the tables, as
// one that dies midway) leaves it queued, uncounted, and the next notifier, as a restarted
// process makes, tells the owner once and counts the run once.
func TestAnEventOutlivesANotifierThatCouldNotHandleIt(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		f := newFixture(t, db)
		ada := f.member("ada", "en")
		f.finish(f.run(f.workflow(ada, "Orders"), "manual", false), automation.RunFailed, "the shop answered 404")
		blank, _, err := models.OpenDB("", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		f.drain(f.notifierWith(desktop.NewInbox(blank, f.workflows.Bus)))
		if n := f.count("workflow_runs_finished_total", "trigger", "manual", "status", "failed"); n != 0 || len(f.messages(ada)) != 0 {
			t.Fatalf("a notifier that could not post counted %v runs and told %v", n, f.messages(ada))
		}
		f.drain(f.notifierWith(f.inbox))
		f.drain(f.notifierWith(f.inbox))
		if n := f.count("workflow_runs_finished_total", "trigger", "manual", "status", "failed"); n != 1 || len(f.messages(ada)) != 1 {
			t.Fatalf("after a restart: %v runs counted, messages %+v; want the run counted and told once", n, f.messages(ada))
		}
	})
}

// TestARunningNotifierWakesOnAnnouncedEvents: Run handles what the domain announces on the
// bus without waiting for its poll (an hour here).
func TestARunningNotifierWakesOnAnnouncedEvents(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		f := newFixture(t, db)
		ada := f.member("ada", "en")
		wf := f.workflow(ada, "Orders")
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { f.notifier.Run(ctx); close(done) }()
		t.Cleanup(func() { stop(); <-done })
		f.finish(f.run(wf, "manual", false), automation.RunFailed, "the shop answered 404")
		deadline := time.Now().Add(10 * time.Second)
		for len(f.messages(ada)) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("the failed run was not told within 10 s")
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// TestPostsToTheSameUsersInEitherOrderAllLand: posts that name the same two users in
// opposite orders, all at once, each land whole, and each user's messages are numbered one
// after another.
func TestPostsToTheSameUsersInEitherOrderAllLand(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		f := newFixture(t, db)
		ada, bob := f.member("ada", "en"), f.member("bob", "en")
		notice := func(user uuid.UUID, key string) desktop.Notice {
			return desktop.Notice{CompanyID: f.tenant.Company.ID, UserID: user, Kind: desktop.KindConversationOpened,
				Title: "A visitor started a conversation", DedupeKey: key}
		}
		const rounds = 20
		var wg sync.WaitGroup
		errs := make(chan error, 2*rounds)
		for i := range rounds {
			key := fmt.Sprint("conversation-", i)
			wg.Go(func() { errs <- f.inbox.Post(context.Background(), notice(ada, key+"-a"), notice(bob, key+"-a")) })
			wg.Go(func() { errs <- f.inbox.Post(context.Background(), notice(bob, key+"-b"), notice(ada, key+"-b")) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, user := range []uuid.UUID{ada, bob} {
			ms := f.messages(user)
			if len(ms) != 2*rounds {
				t.Fatalf("%d messages for %s, want %d", len(ms), user, 2*rounds)
			}
			for i, m := range ms {
				if m.Sequence != int64(i+1) {
					t.Fatalf("message %d of %s has sequence %d", i+1, user, m.Sequence)
				}
			}
		}
	})
}
