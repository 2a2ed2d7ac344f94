package billing

import (
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/money"
)

// MaxScheduleDays is the longest window a payment schedule covers.
const MaxScheduleDays = 400

// ScheduledPayment is one coming due date of a service.
type ScheduledPayment struct {
	ClientService
	ClientName     string
	ServiceTypeKey string
	DueDate        models.Date
}

// MonthTotal is what falls due in one month (YYYY-MM) in one currency.
type MonthTotal struct {
	Month    string
	Currency string
	Amount   money.Amount
	Count    int
}

// PaymentSchedule lists the due dates from from to to (inclusive, at most MaxScheduleDays
// days) of the project's active services, by date, as the billing cycle will bill them:
// from each service's next due date on, one billing period at a time from its anchor day,
// once for services billed once; and totals per month and currency. Errors: invalid (to
// before from, or the window too long).
func (s *Service) PaymentSchedule(ctx context.Context, projectID uuid.UUID,
	from, to models.Date) ([]ScheduledPayment, []MonthTotal, error) {
	if to.Compare(from) < 0 || to.Compare(from.AddDays(MaxScheduleDays)) > 0 {
		return nil, nil, models.Invalid("invalid_schedule_window", "to")
	}
	var services []struct {
		ClientService
		ClientName string
	}
	err := s.DB.WithContext(ctx).Table("client_services").Select("client_services.*, clients.name AS client_name").
		Joins("JOIN clients ON clients.id = client_services.client_id").
		Where(
			"client_services.project_id = ? AND client_services.status = ? AND client_services.next_due_date <= ?",
			projectID, ServiceActive, to,
		).
		Order("client_services.id").Find(&services).Error
	if err != nil {
		return nil, nil, models.Internal("read scheduled services: %w", err)
	}
	rows := make([]ClientService, len(services))
	for i, sv := range services {
		rows[i] = sv.ClientService
	}
	typed, err := s.typed(ctx, rows)
	if err != nil {
		return nil, nil, err
	}
	var out []ScheduledPayment
	for i, ts := range typed {
		for due := *ts.NextDueDate; due.Compare(to) <= 0; due = dueAfter(ts.ClientService, due) {
			if due.Compare(from) >= 0 {
				out = append(out, ScheduledPayment{
					ClientService:  ts.ClientService,
					ClientName:     services[i].ClientName,
					ServiceTypeKey: ts.Type.Key,
					DueDate:        due,
				})
			}
			if ts.BillingPeriod == "once" {
				break
			}
		}
	}
	slices.SortStableFunc(out, func(a, b ScheduledPayment) int { return a.DueDate.Compare(b.DueDate) })
	return out, monthTotals(out), nil
}

// monthTotals sums scheduled payments by month and currency, ordered by both.
func monthTotals(payments []ScheduledPayment) []MonthTotal {
	var totals []MonthTotal
	index := map[string]int{}
	for _, p := range payments {
		key := p.DueDate.String()[:7] + " " + p.Currency
		i, ok := index[key]
		if !ok {
			i = len(totals)
			index[key] = i
			totals = append(totals, MonthTotal{Month: p.DueDate.String()[:7], Currency: p.Currency})
		}
		totals[i].Amount += p.Amount
		totals[i].Count++
	}
	slices.SortFunc(totals, func(a, b MonthTotal) int {
		return cmp.Or(cmp.Compare(a.Month, b.Month), cmp.Compare(a.Currency, b.Currency))
	})
	return totals
}
