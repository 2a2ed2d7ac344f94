package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"agencyhub/migrations/dbtest"
)

func TestPaymentSchedule(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.billingFixture("Ada") // Support: 25 000 RUB monthly, due 31 Jan 2027
		e.addService(f, map[string]any{"name": "Licence", "amount": 100, "currency": "USD", "billing_period": "quarterly", "next_due_date": "2026-12-15"})
		e.addService(f, map[string]any{"name": "Audit", "amount": 90000, "billing_period": "once", "next_due_date": "2027-02-10"})
		e.addService(f, map[string]any{"name": "Paused", "amount": 1, "status": "paused", "next_due_date": "2027-02-01"})
		schedule := func(query string) *response {
			return e.do(req{method: "GET", path: "/api/v1/projects/" + f.projectID + "/payment-schedule" + query, token: f.owner.token})
		}

		got := schedule("?from=2027-01-01&to=2027-04-30").expect(t, http.StatusOK)
		t.Run("the window lists every due date of active services, by date, from the anchor day", func(t *testing.T) {
			var dates []string
			for _, it := range got.items() {
				dates = append(dates, it["due_date"].(string)+" "+it["service_name"].(string))
			}
			want := []string{"2027-01-31 Support", "2027-02-10 Audit", "2027-02-28 Support", "2027-03-15 Licence", "2027-03-31 Support", "2027-04-30 Support"}
			if len(dates) != len(want) {
				t.Fatalf("schedule: %v, want %v", dates, want)
			}
			for i := range want {
				if dates[i] != want[i] {
					t.Fatalf("schedule: %v, want %v", dates, want)
				}
			}
		})
		t.Run("totals are per month and currency", func(t *testing.T) {
			totals, _ := got.json["totals"].([]any)
			want := []string{"2027-01 RUB 25000 1", "2027-02 RUB 115000 2", "2027-03 RUB 25000 1", "2027-03 USD 100 1", "2027-04 RUB 25000 1"}
			if len(totals) != len(want) {
				t.Fatalf("totals: %v", totals)
			}
			for i, w := range want {
				tt := totals[i].(map[string]any)
				if line := tt["month"].(string) + " " + tt["currency"].(string) + " " + fmt.Sprint(tt["amount"]) + " " + fmt.Sprint(tt["count"]); line != w {
					t.Errorf("total %d = %s, want %s", i, line, w)
				}
			}
		})
		t.Run("the window defaults to 90 days from today", func(t *testing.T) {
			def := schedule("").expect(t, http.StatusOK)
			if def.str("from") != "2026-11-21" || def.str("to") != "2027-02-19" || len(def.items()) != 3 {
				t.Fatalf("default window: %s", def.Body)
			}
		})
		t.Run("a window longer than 400 days, reversed or malformed is 400", func(t *testing.T) {
			schedule("?from=2027-01-01&to=2028-02-06").expect(t, http.StatusBadRequest, "to")
			schedule("?from=2027-01-01&to=2026-12-31").expect(t, http.StatusBadRequest, "to")
			schedule("?from=tomorrow").expect(t, http.StatusBadRequest, "from")
			schedule("?from=2027-01-01&to=2028-02-05").expect(t, http.StatusOK)
		})
	})
}
