package api_test

import (
	"net/http"
	"testing"

	"agencyhub/migrations/dbtest"
)

// TestNewUserJourney walks the path a new user takes, as the bar describes it.
func TestNewUserJourney(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		reg := e.do(req{method: "POST", path: "/api/v1/auth/register", body: map[string]any{
			"email": "Ada@Example.com", "password": password, "name": "Ada"}}).expect(t, http.StatusCreated)
		if reg.str("status") != "active" || reg.str("email") != "ada@example.com" {
			t.Fatalf("register answered %s", reg.Body)
		}

		login := e.do(req{method: "POST", path: "/api/v1/auth/login", body: map[string]any{
			"email": "ada@example.com", "password": password, "client_type": "api", "device_label": "CLI"}}).expect(t, http.StatusOK)
		token, refresh := login.str("access_token"), login.str("refresh_token")
		if token == "" || refresh == "" || login.str("token_type") != "Bearer" {
			t.Fatalf("login answered %s", login.Body)
		}

		me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: token}).expect(t, http.StatusOK)
		if me.str("user_id") != reg.str("user_id") || me.json["current_company_id"] != nil {
			t.Fatalf("me answered %s", me.Body)
		}

		company := e.do(req{method: "POST", path: "/api/v1/companies", token: token, body: map[string]any{"name": "Северный ветер"}}).
			expect(t, http.StatusCreated)
		if company.str("role") != "owner" || company.str("slug") != "severnyy-veter" {
			t.Fatalf("company create answered %s", company.Body)
		}
		companyID := company.str("company_id")
		project := e.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/projects", token: token, body: map[string]any{"name": "Site"}}).
			expect(t, http.StatusCreated)
		if project.str("hook_secret") == "" || project.str("hook_key") == "" {
			t.Fatalf("project create answered %s", project.Body)
		}

		wc := e.do(req{method: "PUT", path: "/api/v1/auth/workspace-context", token: token, body: map[string]any{
			"active_project_id": project.str("project_id")}}).expect(t, http.StatusOK)
		if wc.str("active_company_id") != companyID || wc.str("active_project_id") != project.str("project_id") {
			t.Fatalf("workspace put answered %s", wc.Body)
		}
		me = e.do(req{method: "GET", path: "/api/v1/auth/me", token: token}).expect(t, http.StatusOK)
		if me.str("current_company_id") != companyID {
			t.Fatalf("me after selecting a company answered %s", me.Body)
		}

		refreshed := e.do(req{method: "POST", path: "/api/v1/auth/refresh", body: map[string]any{"refresh_token": refresh}}).expect(t, http.StatusOK)
		newToken := refreshed.str("access_token")
		if newToken == "" || refreshed.str("refresh_token") == "" || refreshed.str("refresh_token") == refresh {
			t.Fatalf("refresh answered %s", refreshed.Body)
		}

		sessions := e.do(req{method: "GET", path: "/api/v1/auth/sessions", token: newToken}).expect(t, http.StatusOK).items()
		if len(sessions) != 1 || sessions[0]["is_current"] != true || sessions[0]["device_label"] != "CLI" || sessions[0]["client_type"] != "api" {
			t.Fatalf("sessions = %v", sessions)
		}

		e.do(req{method: "POST", path: "/api/v1/auth/logout", token: newToken}).expect(t, http.StatusNoContent)
		e.do(req{method: "GET", path: "/api/v1/auth/me", token: newToken}).expect(t, http.StatusUnauthorized, "access_token")
		e.do(req{method: "GET", path: "/api/v1/auth/me", token: token}).expect(t, http.StatusUnauthorized, "access_token")
		e.do(req{method: "POST", path: "/api/v1/auth/refresh", body: map[string]any{"refresh_token": refreshed.str("refresh_token")}}).
			expect(t, http.StatusUnauthorized, "refresh_token")
	})
}
