package api_test

import (
	"net/http"
	"slices"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestSchedulePreviewListsTheNextFires: a cron is evaluated in its time zone and an
// interval from the epoch, answered in UTC; a cron publishing refuses is 400 naming cron.
func TestSchedulePreviewListsTheNextFires(t *testing.T) {
	e := newEnv(t, dbtest.SQLite(t)) // the clock reads 2026-11-21 (a Saturday) 09:00 UTC
	u := e.signUp("Ada")
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"weekdays at nine in Moscow", map[string]any{"cron": "0 9 * * 1-5", "timezone": "Europe/Moscow", "count": 3},
			[]string{"2026-11-23T06:00:00Z", "2026-11-24T06:00:00Z", "2026-11-25T06:00:00Z"}},
		{"hourly in UTC by default", map[string]any{"cron": "@hourly"},
			[]string{"2026-11-21T10:00:00Z", "2026-11-21T11:00:00Z", "2026-11-21T12:00:00Z", "2026-11-21T13:00:00Z", "2026-11-21T14:00:00Z"}},
		{"every 7 hours from the epoch", map[string]any{"interval_seconds": 7 * 3600, "count": 2},
			[]string{"2026-11-21T15:00:00Z", "2026-11-21T22:00:00Z"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(req{method: "POST", path: "/api/v1/schedules/preview", token: u.token, body: c.body}).expect(t, http.StatusOK)
			var got []string
			for _, f := range r.json["fire_times"].([]any) {
				got = append(got, f.(string))
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("fire times %v, want %v", got, c.want)
			}
		})
	}
	for _, bad := range []string{"0 9 * * MON-FRI ?", "61 * * * *", "@every 1h", "TZ=UTC 0 9 * * *", "0 9 1 * 1"} {
		e.do(req{method: "POST", path: "/api/v1/schedules/preview", token: u.token, body: map[string]any{"cron": bad}}).expect(t, http.StatusBadRequest, "cron")
	}
	e.do(req{method: "POST", path: "/api/v1/schedules/preview", token: u.token, body: map[string]any{"cron": "@daily", "timezone": "Mars/Olympus"}}).
		expect(t, http.StatusBadRequest, "timezone")
	e.do(req{method: "POST", path: "/api/v1/schedules/preview", body: map[string]any{"cron": "@daily"}}).expect(t, http.StatusUnauthorized)
}
