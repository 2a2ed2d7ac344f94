package billing_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
	"agencyhub/models/billing"
	"agencyhub/models/money"
	"agencyhub/platform/realtime"
)

// BenchmarkBillingCycle runs one billing cycle over 50,000 active services due within the
// horizon, two per client (25,000 actions of two items), on a SQLite file, and reports the
// cycle's wall time and services billed per second. The actions of the previous iteration
// are removed, outside the timer, so that every iteration bills everything again.
func BenchmarkBillingCycle(b *testing.B) {
	const clients, perClient = 25_000, 2
	db := dbtest.SQLite(b)
	tn := dbtest.NewTenant(b, db.DB, "bench")
	svc := billing.NewService(db.DB, tn.Companies, realtime.NewLocal())
	ctx := context.Background()
	types, err := svc.ServiceTypes(ctx, tn.Company.ID, nil, []string{billing.StatusActive})
	if err != nil || len(types) == 0 {
		b.Fatalf("service types %v, %v", types, err)
	}
	now := time.Now().UTC()
	today := models.DateOf(now)
	due := today.AddDays(3)
	var rows []billing.Client
	var services []billing.ClientService
	for i := range clients {
		c := billing.Client{ID: models.NewID(), CompanyID: tn.Company.ID, ClientType: "individual", Status: billing.StatusActive,
			Name: fmt.Sprintf("Client %d", i), SearchText: fmt.Sprintf("client %d", i), CreatedAt: now, UpdatedAt: now}
		rows = append(rows, c)
		for j := range perClient {
			services = append(services, billing.ClientService{ID: models.NewID(), CompanyID: tn.Company.ID, ClientID: c.ID,
				ProjectID: tn.Project.ID, ClientServiceTypeID: types[0].ID, Name: fmt.Sprintf("Service %d", j), Status: billing.StatusActive,
				Amount: money.Amount(150000), Currency: "RUB", BillingPeriod: "monthly", NextDueDate: &due, DueAnchorDay: due.Day(),
				MetadataJSON: "{}", CreatedAt: now, UpdatedAt: now})
		}
	}
	if err := db.DB.CreateInBatches(rows, 500).Error; err != nil {
		b.Fatal(err)
	}
	if err := db.DB.CreateInBatches(services, 500).Error; err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		if err := db.DB.Exec("DELETE FROM payment_action_items").Error; err != nil {
			b.Fatal(err)
		}
		if err := db.DB.Exec("DELETE FROM payment_actions").Error; err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := svc.RunCycle(ctx, today)
		if err != nil || res.Created != clients || res.Billed != clients*perClient {
			b.Fatalf("cycle %+v, %v", res, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/cycle")
	b.ReportMetric(float64(clients*perClient*b.N)/b.Elapsed().Seconds(), "services/s")
}
