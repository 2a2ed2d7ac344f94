package api_test

import (
	"net/http"
	"testing"

	"agencyhub/migrations/dbtest"
	"agencyhub/models"
)

func TestHealthz(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		t.Run("answers 200 with the database up", func(t *testing.T) {
			resp := e.do(req{method: "GET", path: "/healthz"}).expect(t, http.StatusOK)
			checks := resp.json["checks"].(map[string]any)
			if resp.str("status") != "ok" || checks["database"].(map[string]any)["status"] != "ok" {
				t.Fatalf("healthz: %s", resp.Body)
			}
		})
		t.Run("answers 503 naming the database when it is down", func(t *testing.T) {
			models.CloseDB(db.DB)
			resp := e.do(req{method: "GET", path: "/healthz"}).expect(t, http.StatusServiceUnavailable)
			checks := resp.json["checks"].(map[string]any)
			if resp.str("status") != "unavailable" || checks["database"].(map[string]any)["status"] != "down" || resp.Header().Get("X-App-Result") != "error" {
				t.Fatalf("healthz with the database closed: %s", resp.Body)
			}
		})
	})
}
