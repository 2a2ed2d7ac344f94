package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"agencyhub/migrations/dbtest"
)

// BenchmarkAuthenticatedRead measures one signed-in read through the whole stack: request
// id, language, access-token check against the session row, company access, render.
func BenchmarkAuthenticatedRead(b *testing.B) {
	e := newEnv(b, dbtest.SQLite(b))
	u := e.signUp("Bench")
	companyID := e.companyOf(u, "Bench Co")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := httptest.NewRequest("GET", "/api/v1/companies/"+companyID, nil)
		r.Header.Set("Authorization", "Bearer "+u.token)
		rec := httptest.NewRecorder()
		e.handler.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
