package api_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"agencyhub/engine/schedules"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/billing"
)

// billingCycle runs one billing cycle on the embedded Temporal, as the schedule does, for
// the day of the server's clock.
func (e *env) billingCycle() billing.CycleResult {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := e.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: e.taskQueue}, schedules.BillingWorkflowName)
	if err != nil {
		e.t.Fatal(err)
	}
	var res billing.CycleResult
	if err := run.Get(ctx, &res); err != nil {
		e.t.Fatal(err)
	}
	return res
}

// dueActions lists the project's payment actions as "due_date status items".
func (e *env) dueActions(f billingFixture) []string {
	e.t.Helper()
	var out []string
	for _, a := range e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-actions", token: f.owner.token}).
		expect(e.t, http.StatusOK).items() {
		items, _ := a["items"].([]any)
		out = append(out, a["due_date"].(string)+" "+a["status"].(string)+" "+string(rune('0'+len(items))))
	}
	slices.Sort(out)
	return out
}

func TestBillingCycleBillsEachDueServiceOnce(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)           // the server's clock says 21 November 2026
		f := e.billingFixture("Ada") // its service is due on 31 January 2027, outside the week
		e.addService(f, map[string]any{"name": "Hosting", "amount": 1500, "next_due_date": "2026-11-25"})
		e.addService(f, map[string]any{"name": "Domain", "amount": 900, "next_due_date": "2026-11-25", "billing_period": "yearly"})
		e.addService(f, map[string]any{"name": "SEO", "amount": 30000, "next_due_date": "2026-11-27"})
		e.addService(f, map[string]any{"name": "Ads", "amount": 10000, "next_due_date": "2026-12-15"})

		t.Run("the project's billing horizon decides how far ahead the cycle bills", func(t *testing.T) {
			project := "/api/v1/projects/" + f.projectID
			if days := e.do(req{method: "GET", path: project, token: f.owner.token}).expect(t, http.StatusOK).json["billing_horizon_days"]; days != 7.0 {
				t.Fatalf("a new project's horizon is %v", days)
			}
			e.do(req{method: "PATCH", path: project, token: f.owner.token, body: map[string]any{"billing_horizon_days": 91}}).
				expect(t, http.StatusBadRequest, "billing_horizon_days")
			e.do(req{method: "PATCH", path: project, token: f.owner.token, body: map[string]any{"billing_horizon_days": 3}}).expect(t, http.StatusOK)
			if res := e.billingCycle(); res.Created != 0 {
				t.Fatalf("a 3-day horizon billed services due in 4 days: %+v", res)
			}
			e.do(req{method: "PATCH", path: project, token: f.owner.token, body: map[string]any{"billing_horizon_days": 7}}).expect(t, http.StatusOK)
		})
		t.Run("services due within the week get one action per due date, one item each", func(t *testing.T) {
			if res := e.billingCycle(); res.Created != 2 || res.Billed != 3 {
				t.Fatalf("cycle %+v", res)
			}
			if got := e.dueActions(f); !slices.Equal(got, []string{"2026-11-25 pending 2", "2026-11-27 pending 1"}) {
				t.Fatalf("actions %v", got)
			}
		})
		t.Run("a second cycle the same day creates nothing", func(t *testing.T) {
			if res := e.billingCycle(); res != (billing.CycleResult{}) {
				t.Fatalf("cycle %+v", res)
			}
			if n := len(e.dueActions(f)); n != 2 {
				t.Fatalf("%d actions", n)
			}
		})
		t.Run("after a restart, a cycle still creates nothing twice", func(t *testing.T) {
			restarted := newEnv(t, db) // new services and worker on the same database and Temporal
			if res := restarted.billingCycle(); res.Created != 0 || res.Billed != 0 {
				t.Fatalf("cycle %+v", res)
			}
			if n := len(e.dueActions(f)); n != 2 {
				t.Fatalf("%d actions", n)
			}
		})
		t.Run("a snoozed action is pending again once its date has come", func(t *testing.T) {
			var seo string
			for _, a := range e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-actions", token: f.owner.token}).
				expect(t, http.StatusOK).items() {
				if a["due_date"] == "2026-11-27" {
					seo = a["payment_action_id"].(string)
				}
			}
			e.do(req{method: "POST", path: "/api/v1/payment-actions/" + seo + "/snooze", token: f.owner.token,
				body: map[string]any{"snoozed_until": "2026-11-23"}}).expect(t, http.StatusOK)
			if res := e.billingCycle(); res.Woken != 0 {
				t.Fatalf("woken before its date: %+v", res)
			}
			e.advance(2 * 24 * time.Hour)
			if res := e.billingCycle(); res.Woken != 1 || res.Created != 0 {
				t.Fatalf("cycle %+v", res)
			}
			f.owner.token = e.do(req{method: "POST", path: "/api/v1/auth/login", // the token of two days ago has expired
				body: map[string]any{"email": f.owner.email, "password": password, "client_type": "api"}}).expect(t, http.StatusOK).str("access_token")
			if got := e.dueActions(f); !slices.Equal(got, []string{"2026-11-25 pending 2", "2026-11-27 pending 1"}) {
				t.Fatalf("actions %v", got)
			}
		})
	})
}

func TestTheBillingScheduleIsInTemporal(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t))
	ctx := context.Background()
	for range 2 { // a second start finds it there
		if err := schedules.EnsureBillingSchedule(ctx, e.temporal, e.taskQueue); err != nil {
			t.Fatal(err)
		}
	}
	d, err := e.temporal.ScheduleClient().GetHandle(ctx, "billing-cycle").Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	action, _ := d.Schedule.Action.(*client.ScheduleWorkflowAction)
	if action == nil || action.Workflow != schedules.BillingWorkflowName || len(d.Schedule.Spec.CronExpressions) != 1 && len(d.Schedule.Spec.Calendars) != 1 {
		t.Fatalf("schedule %+v, action %+v", d.Schedule.Spec, d.Schedule.Action)
	}
}

func TestAServiceWhoseDueDateHasComeIsBilledAtOnce(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)           // the server's clock says 21 November 2026
		f := e.billingFixture("Ada") // its service is due on 31 January 2027
		hosting := e.addService(f, map[string]any{"name": "Hosting", "amount": 1500, "next_due_date": "2026-11-21"})

		t.Run("a service created due today has its action in the answer's wake, due at once", func(t *testing.T) {
			if got := e.dueActions(f); !slices.Equal(got, []string{"2026-11-21 pending 1"}) {
				t.Fatalf("actions %v", got)
			}
		})
		t.Run("the next cycle bills it no second time and tells of it no second time", func(t *testing.T) {
			if res := e.billingCycle(); res != (billing.CycleResult{}) {
				t.Fatalf("cycle %+v", res)
			}
			if got := e.dueActions(f); !slices.Equal(got, []string{"2026-11-21 pending 1"}) {
				t.Fatalf("actions %v", got)
			}
		})
		t.Run("editing it without a new due date bills nothing more", func(t *testing.T) {
			e.do(req{method: "PATCH", path: "/api/v1/client-services/" + hosting, token: f.owner.token,
				body: map[string]any{"name": "Hosting and backups", "next_due_date": "2026-11-21"}}).expect(t, http.StatusOK)
			if n := len(e.dueActions(f)); n != 1 {
				t.Fatalf("%d actions", n)
			}
		})
		t.Run("a service edited to a past due date has its action at once", func(t *testing.T) {
			e.do(req{method: "PATCH", path: "/api/v1/client-services/" + f.serviceID, token: f.owner.token,
				body: map[string]any{"next_due_date": "2026-11-10"}}).expect(t, http.StatusOK)
			if got := e.dueActions(f); !slices.Equal(got, []string{"2026-11-10 pending 1", "2026-11-21 pending 1"}) {
				t.Fatalf("actions %v", got)
			}
		})
		t.Run("a paused service is billed once it is active again", func(t *testing.T) {
			seo := e.addService(f, map[string]any{"name": "SEO", "amount": 30000, "next_due_date": "2026-11-19", "status": "paused"})
			if n := len(e.dueActions(f)); n != 2 {
				t.Fatalf("a paused service was billed: %d actions", n)
			}
			e.do(req{method: "PATCH", path: "/api/v1/client-services/" + seo, token: f.owner.token,
				body: map[string]any{"status": "active"}}).expect(t, http.StatusOK)
			if got := e.dueActions(f); !slices.Equal(got, []string{"2026-11-10 pending 1", "2026-11-19 pending 1", "2026-11-21 pending 1"}) {
				t.Fatalf("actions %v", got)
			}
		})
		t.Run("a service due later is left to the cycle, which bills it with the others of its day", func(t *testing.T) {
			e.addService(f, map[string]any{"name": "Ads", "amount": 10000, "next_due_date": "2026-11-25"})
			e.addService(f, map[string]any{"name": "Domain", "amount": 900, "next_due_date": "2026-11-25"})
			if n := len(e.dueActions(f)); n != 3 {
				t.Fatalf("%d actions before the cycle", n)
			}
			if res := e.billingCycle(); res.Created != 1 || res.Billed != 2 || res.Due != 0 {
				t.Fatalf("cycle %+v", res)
			}
		})
	})
}

func TestBillNowBillsAServiceAheadOfItsDueDateOnce(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)           // the server's clock says 21 November 2026
		f := e.billingFixture("Ada") // its service is due on 31 January 2027
		billNow := func(id string) *response {
			return e.do(req{method: "POST", path: "/api/v1/client-services/" + id + "/bill-now", token: f.owner.token})
		}
		var first string
		t.Run("a service not due yet is billed for its next due date, pending and not due", func(t *testing.T) {
			a := billNow(f.serviceID).expect(t, http.StatusCreated)
			first = a.str("payment_action_id")
			if a.str("due_date") != "2027-01-31" || a.str("status") != "pending" {
				t.Fatalf("action %s", a.Body)
			}
		})
		t.Run("a second call answers the same action and creates nothing", func(t *testing.T) {
			if again := billNow(f.serviceID).expect(t, http.StatusOK); again.str("payment_action_id") != first {
				t.Fatalf("answered %s, want %s", again.str("payment_action_id"), first)
			}
			if got := e.dueActions(f); !slices.Equal(got, []string{"2027-01-31 pending 1"}) {
				t.Fatalf("actions %v", got)
			}
		})
		t.Run("the cycle bills it no second time", func(t *testing.T) {
			seo := e.addService(f, map[string]any{"name": "SEO", "amount": 30000, "next_due_date": "2026-11-25"})
			billNow(seo).expect(t, http.StatusCreated)
			if res := e.billingCycle(); res.Created != 0 || res.Due != 0 {
				t.Fatalf("cycle %+v", res)
			}
		})
		t.Run("a paused service, or one with no due date, is not billed", func(t *testing.T) {
			paused := e.addService(f, map[string]any{"name": "Ads", "amount": 10000, "next_due_date": "2026-12-15", "status": "paused"})
			billNow(paused).expect(t, http.StatusConflict, "client_service_id")
			undated := e.addService(f, map[string]any{"name": "Audit", "amount": 5000})
			billNow(undated).expect(t, http.StatusConflict, "next_due_date")
			if n := len(e.dueActions(f)); n != 2 {
				t.Fatalf("%d actions", n)
			}
		})
		t.Run("another company's service is not found", func(t *testing.T) {
			other := e.billingFixture("Bob")
			e.do(req{method: "POST", path: "/api/v1/client-services/" + other.serviceID + "/bill-now", token: f.owner.token}).
				expect(t, http.StatusNotFound)
		})
	})
}
