package billing

import (
	"testing"
	"time"

	"agencyhub/models"
)

func TestDueAfterKeepsTheAnchorDay(t *testing.T) {
	d := func(y int, m time.Month, day int) models.Date { return models.NewDate(y, m, day) }
	for _, tc := range []struct {
		name   string
		period string
		anchor int
		due    models.Date
		want   models.Date
	}{
		{"monthly from 31 Jan clamps to 28 Feb", "monthly", 31, d(2027, 1, 31), d(2027, 2, 28)},
		{"monthly from the clamped 28 Feb returns to 31 Mar", "monthly", 31, d(2027, 2, 28), d(2027, 3, 31)},
		{"monthly from 31 Mar clamps to 30 Apr", "monthly", 31, d(2027, 3, 31), d(2027, 4, 30)},
		{"monthly in a leap year clamps to 29 Feb", "monthly", 30, d(2028, 1, 30), d(2028, 2, 29)},
		{"without an anchor the due date's day is one", "monthly", 0, d(2027, 1, 15), d(2027, 2, 15)},
		{"weekly counts days", "weekly", 31, d(2027, 12, 28), d(2028, 1, 4)},
		{"quarterly from 30 Nov clamps to 29 Feb", "quarterly", 30, d(2027, 11, 30), d(2028, 2, 29)},
		{"semiannual crosses the year", "semiannual", 31, d(2027, 8, 31), d(2028, 2, 29)},
		{"yearly from 29 Feb clamps to 28 Feb", "yearly", 29, d(2028, 2, 29), d(2029, 2, 28)},
		{"once stays", "once", 5, d(2027, 1, 5), d(2027, 1, 5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dueAfter(ClientService{BillingPeriod: tc.period, DueAnchorDay: tc.anchor}, tc.due)
			if got != tc.want {
				t.Fatalf("dueAfter(%s) = %s, want %s", tc.due, got, tc.want)
			}
		})
	}
}
