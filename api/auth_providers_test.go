package api_test

import (
	"net/http"
	"reflect"
	"testing"

	"agencyhub/api"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/auth"
)

// TestAuthProvidersListsTheConfiguredOnes: the sign-in page learns, without signing in, which
// identity providers this server has, in order and by their display names; none when none is
// configured.
func TestAuthProvidersListsTheConfiguredOnes(t *testing.T) {
	db := dbtest.SQLite(t)
	t.Run("configured providers are listed in order with their names", func(t *testing.T) {
		e := newEnv(t, db, func(s *api.Server) {
			s.Auth.Settings.Providers = map[string]auth.ProviderConfig{
				"idp_c": {DisplayName: "Partner login", ClientID: "c"},
				"idp_a": {DisplayName: "Corporate account", ClientID: "a"},
			}
		})
		got := e.do(req{method: "GET", path: "/api/v1/auth/providers"}).expect(t, http.StatusOK).items()
		want := []map[string]any{{"provider": "idp_a", "display_name": "Corporate account"}, {"provider": "idp_c", "display_name": "Partner login"}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("providers %v, want %v", got, want)
		}
	})
	t.Run("without providers the list is empty", func(t *testing.T) {
		e := newEnv(t, db)
		if got := e.do(req{method: "GET", path: "/api/v1/auth/providers"}).expect(t, http.StatusOK).items(); len(got) != 0 {
			t.Fatalf("providers %v", got)
		}
	})
}
