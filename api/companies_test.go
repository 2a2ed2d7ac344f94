package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"agencyhub/migrations/dbtest"
)

// slugPattern is the contract's pattern of a company slug.
var slugPattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)

// asSubtest returns the environment reporting to t, so a failed request names the subtest
// that sent it.
func (e *env) asSubtest(t *testing.T) *env {
	c := *e
	c.t = t
	return &c
}

// addToCompany has owner add u to the company with role.
func (e *env) addToCompany(owner user, companyID string, u user, role string) {
	e.t.Helper()
	e.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/members", token: owner.token,
		body: map[string]any{"email": u.email, "role": role}}).expect(e.t, http.StatusCreated)
}

// pagesOf walks a list page by page with the given limit and returns the pages.
func (e *env) pagesOf(t *testing.T, token, path string, limit string) [][]map[string]any {
	t.Helper()
	var pages [][]map[string]any
	cursor := ""
	for range 20 {
		url := path + "?limit=" + limit
		if cursor != "" {
			url += "&cursor=" + cursor
		}
		resp := e.do(req{method: "GET", path: url, token: token}).expect(t, http.StatusOK)
		pages = append(pages, resp.items())
		cursor = resp.str("next_cursor")
		if cursor == "" {
			return pages
		}
	}
	t.Fatalf("%s did not end after 20 pages", path)
	return nil
}

// idsOf returns the values of key in items, in order.
func idsOf(items []map[string]any, key string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it[key].(string)
	}
	return out
}

// llcFields is a valid legal_entity with every field set.
func llcFields() map[string]any {
	return map[string]any{
		"entity_type": "legal_entity", "name": "Northwind LLC",
		"inn": "7707083893", "kpp": "773601001", "ogrn": "1027700132195",
		"legal_address": "125009, Moscow, Tverskaya 1", "actual_address": "125009, Moscow, Tverskaya 2",
		"postal_address": "125009, Moscow, PO Box 7", "bank_name": "Sberbank",
		"bik": "044525225", "settlement_account": "40702810938000000001", "correspondent_account": "30101810400000000225",
	}
}

// entrepreneurFields is a valid individual_entrepreneur.
func entrepreneurFields() map[string]any {
	return map[string]any{
		"entity_type": "individual_entrepreneur", "name": "IP Ivanov I. I.",
		"inn": "500100732259", "ogrnip": "304500116000157",
	}
}

// fieldsWith returns a copy of fields with changes applied; a nil change removes the field.
func fieldsWith(fields map[string]any, changes map[string]any) map[string]any {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

func TestCompanies(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		base := newEnv(t, db)
		ada := base.signUp("Ada")
		bob := base.signUp("Bob")
		var northwind, severny string

		t.Run("creating a company makes the caller its owner with a slug from the name", func(t *testing.T) {
			e := base.asSubtest(t)
			c := e.do(req{method: "POST", path: "/api/v1/companies", token: ada.token, body: map[string]any{"name": "Northwind Agency"}}).
				expect(t, http.StatusCreated)
			if c.str("role") != "owner" || c.str("slug") != "northwind-agency" || c.str("name") != "Northwind Agency" || c.str("company_id") == "" {
				t.Fatalf("create answered %s", c.Body)
			}
			northwind = c.str("company_id")
		})

		t.Run("a Cyrillic name gets a transliterated slug", func(t *testing.T) {
			e := base.asSubtest(t)
			c := e.do(req{method: "POST", path: "/api/v1/companies", token: ada.token, body: map[string]any{"name": "Северный ветер"}}).
				expect(t, http.StatusCreated)
			if c.str("slug") != "severnyy-veter" || c.str("name") != "Северный ветер" {
				t.Fatalf("create answered %s", c.Body)
			}
			severny = c.str("company_id")
		})

		t.Run("a second company with the same name gets a different slug", func(t *testing.T) {
			e := base.asSubtest(t)
			c := e.do(req{method: "POST", path: "/api/v1/companies", token: bob.token, body: map[string]any{"name": "Northwind Agency"}}).
				expect(t, http.StatusCreated)
			slug := c.str("slug")
			if slug == "northwind-agency" || !strings.HasPrefix(slug, "northwind-agency-") || !slugPattern.MatchString(slug) {
				t.Fatalf("second company's slug = %q, want northwind-agency with a suffix", slug)
			}
		})

		t.Run("a missing, blank or too long name is refused naming name", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, body := range []map[string]any{{}, {"name": ""}, {"name": "   "}, {"name": strings.Repeat("n", 201)}} {
				e.do(req{method: "POST", path: "/api/v1/companies", token: ada.token, body: body}).expect(t, http.StatusBadRequest, "name")
			}
		})

		t.Run("the list shows only the caller's companies with the caller's role", func(t *testing.T) {
			e := base.asSubtest(t)
			items := e.do(req{method: "GET", path: "/api/v1/companies", token: ada.token}).expect(t, http.StatusOK).items()
			if got := idsOf(items, "company_id"); len(got) != 2 || got[0] != northwind || got[1] != severny {
				t.Fatalf("Ada's companies = %v, want [%s %s]", got, northwind, severny)
			}
			for _, it := range items {
				if it["role"] != "owner" {
					t.Errorf("Ada's role in %v = %v, want owner", it["name"], it["role"])
				}
			}
			bobs := e.do(req{method: "GET", path: "/api/v1/companies", token: bob.token}).expect(t, http.StatusOK).items()
			if len(bobs) != 1 || bobs[0]["company_id"] == northwind || bobs[0]["company_id"] == severny {
				t.Fatalf("Bob's companies = %v, want only his own", bobs)
			}
		})

		t.Run("the list pages with limit and next_cursor", func(t *testing.T) {
			e := base.asSubtest(t)
			pages := e.pagesOf(t, ada.token, "/api/v1/companies", "1")
			if len(pages) != 2 || len(pages[0]) != 1 || len(pages[1]) != 1 ||
				pages[0][0]["company_id"] != northwind || pages[1][0]["company_id"] != severny {
				t.Fatalf("pages = %v", pages)
			}
		})

		t.Run("get answers the company with the caller's role", func(t *testing.T) {
			e := base.asSubtest(t)
			c := e.do(req{method: "GET", path: "/api/v1/companies/" + northwind, token: ada.token}).expect(t, http.StatusOK)
			if c.str("company_id") != northwind || c.str("name") != "Northwind Agency" || c.str("slug") != "northwind-agency" || c.str("role") != "owner" {
				t.Fatalf("get answered %s", c.Body)
			}
		})

		t.Run("patch renames the company and keeps its slug", func(t *testing.T) {
			e := base.asSubtest(t)
			p := e.do(req{method: "PATCH", path: "/api/v1/companies/" + northwind, token: ada.token, body: map[string]any{"name": "  Northwind Digital "}}).
				expect(t, http.StatusOK)
			if p.str("name") != "Northwind Digital" || p.str("slug") != "northwind-agency" || p.str("role") != "owner" {
				t.Fatalf("patch answered %s", p.Body)
			}
			c := e.do(req{method: "GET", path: "/api/v1/companies/" + northwind, token: ada.token}).expect(t, http.StatusOK)
			if c.str("name") != "Northwind Digital" || c.str("slug") != "northwind-agency" {
				t.Fatalf("get after rename answered %s", c.Body)
			}
		})

		t.Run("patch changes the slug", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "PATCH", path: "/api/v1/companies/" + northwind, token: ada.token, body: map[string]any{"slug": "northwind-digital"}}).
				expect(t, http.StatusOK)
			c := e.do(req{method: "GET", path: "/api/v1/companies/" + northwind, token: ada.token}).expect(t, http.StatusOK)
			if c.str("slug") != "northwind-digital" || c.str("name") != "Northwind Digital" {
				t.Fatalf("get after slug change answered %s", c.Body)
			}
		})

		t.Run("patch to a slug another company uses is a conflict naming slug", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "PATCH", path: "/api/v1/companies/" + northwind, token: ada.token, body: map[string]any{"slug": "severnyy-veter", "name": "Renamed"}}).
				expect(t, http.StatusConflict, "slug")
			c := e.do(req{method: "GET", path: "/api/v1/companies/" + northwind, token: ada.token}).expect(t, http.StatusOK)
			if c.str("slug") != "northwind-digital" || c.str("name") != "Northwind Digital" {
				t.Fatalf("a refused patch changed the company: %s", c.Body)
			}
		})

		t.Run("patch to the company's own slug is no conflict", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "PATCH", path: "/api/v1/companies/" + northwind, token: ada.token, body: map[string]any{"slug": "northwind-digital"}}).
				expect(t, http.StatusOK)
		})

		t.Run("patch to a slug that breaks the pattern is refused naming slug", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, slug := range []string{"", "Northwind", "north wind", "-northwind", "northwind-", "север", strings.Repeat("a", 64)} {
				e.do(req{method: "PATCH", path: "/api/v1/companies/" + northwind, token: ada.token, body: map[string]any{"slug": slug}}).
					expect(t, http.StatusBadRequest, "slug")
			}
			c := e.do(req{method: "GET", path: "/api/v1/companies/" + northwind, token: ada.token}).expect(t, http.StatusOK)
			if c.str("slug") != "northwind-digital" {
				t.Fatalf("a refused patch changed the slug: %s", c.Body)
			}
		})

		t.Run("patch to a blank name is refused naming name", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, name := range []string{"", "   ", strings.Repeat("n", 201)} {
				e.do(req{method: "PATCH", path: "/api/v1/companies/" + northwind, token: ada.token, body: map[string]any{"name": name}}).
					expect(t, http.StatusBadRequest, "name")
			}
		})

		t.Run("the first company becomes active and the second does not", func(t *testing.T) {
			e := base.asSubtest(t)
			cara := e.signUp("Cara")
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: cara.token}).expect(t, http.StatusOK)
			if me.json["current_company_id"] != nil {
				t.Fatalf("me before any company answered %s", me.Body)
			}
			first := e.companyOf(cara, "First")
			second := e.companyOf(cara, "Second")
			me = e.do(req{method: "GET", path: "/api/v1/auth/me", token: cara.token}).expect(t, http.StatusOK)
			if me.str("current_company_id") != first {
				t.Fatalf("current_company_id = %v, want the first company %s (second is %s)", me.json["current_company_id"], first, second)
			}
			wc := e.do(req{method: "GET", path: "/api/v1/auth/workspace-context", token: cara.token}).expect(t, http.StatusOK)
			if wc.str("active_company_id") != first || wc.str("active_project_id") != "" {
				t.Fatalf("workspace context answered %s", wc.Body)
			}
		})

		t.Run("switch makes the company the caller's active one", func(t *testing.T) {
			e := base.asSubtest(t)
			wc := e.do(req{method: "POST", path: "/api/v1/companies/" + severny + "/switch", token: ada.token}).expect(t, http.StatusOK)
			if wc.str("user_id") != ada.id || wc.str("active_company_id") != severny || wc.str("active_project_id") != "" {
				t.Fatalf("switch answered %s", wc.Body)
			}
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: ada.token}).expect(t, http.StatusOK)
			if me.str("current_company_id") != severny {
				t.Fatalf("me after switch answered %s", me.Body)
			}
			wc = e.do(req{method: "POST", path: "/api/v1/companies/" + northwind + "/switch", token: ada.token}).expect(t, http.StatusOK)
			if wc.str("active_company_id") != northwind {
				t.Fatalf("switching back answered %s", wc.Body)
			}
		})

		t.Run("switch clears an active project of another company", func(t *testing.T) {
			e := base.asSubtest(t)
			project := e.projectIn(ada, northwind, "Site")
			wc := e.do(req{method: "PUT", path: "/api/v1/auth/workspace-context", token: ada.token, body: map[string]any{"active_project_id": project}}).
				expect(t, http.StatusOK)
			if wc.str("active_company_id") != northwind || wc.str("active_project_id") != project {
				t.Fatalf("selecting the project answered %s", wc.Body)
			}
			wc = e.do(req{method: "POST", path: "/api/v1/companies/" + severny + "/switch", token: ada.token}).expect(t, http.StatusOK)
			if wc.str("active_company_id") != severny || wc.str("active_project_id") != "" {
				t.Fatalf("switch answered %s", wc.Body)
			}
		})

		t.Run("a company created after losing the active one becomes active", func(t *testing.T) {
			e := base.asSubtest(t)
			dan := e.signUp("Dan")
			e.addToCompany(ada, northwind, dan, "member")
			e.do(req{method: "POST", path: "/api/v1/companies/" + northwind + "/switch", token: dan.token}).expect(t, http.StatusOK)
			e.do(req{method: "DELETE", path: "/api/v1/companies/" + northwind + "/members/" + dan.id, token: ada.token}).expect(t, http.StatusNoContent)
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: dan.token}).expect(t, http.StatusOK)
			if me.json["current_company_id"] != nil {
				t.Fatalf("me after removal answered %s", me.Body)
			}
			own := e.companyOf(dan, "Dan's Own")
			me = e.do(req{method: "GET", path: "/api/v1/auth/me", token: dan.token}).expect(t, http.StatusOK)
			if me.str("current_company_id") != own {
				t.Fatalf("current_company_id = %v, want the new company %s", me.json["current_company_id"], own)
			}
		})
	})
}

// TestCompaniesWithTheSameNameCreatedAtOnce checks that simultaneous creates of one name
// all succeed, each with a slug of its own.
func TestCompaniesWithTheSameNameCreatedAtOnce(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		u := e.signUp("Founder")
		const n = 8
		for round := range 3 {
			name := "Twin Agency " + string(rune('a'+round))
			answers := make([]*response, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					answers[i] = e.do(req{method: "POST", path: "/api/v1/companies", token: u.token, body: map[string]any{"name": name}})
				})
			}
			wg.Wait()
			slugs := map[string]bool{}
			for _, a := range answers {
				if a.Code != http.StatusCreated {
					t.Fatalf("round %d: a simultaneous create answered %d %s", round, a.Code, a.Body)
				}
				slugs[a.str("slug")] = true
			}
			if len(slugs) != n {
				t.Fatalf("round %d: %d creates gave %d distinct slugs: %v", round, n, len(slugs), slugs)
			}
		}
	})
}

// TestRolesAndMembers walks the permission table: owner (read, work, manage, own), admin
// (read, work, manage), member (read, work), viewer (read).
func TestRolesAndMembers(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		base := newEnv(t, db)
		olga, adam, mia, vic := base.signUp("Olga"), base.signUp("Adam"), base.signUp("Mia"), base.signUp("Vic")
		companyID := base.companyOf(olga, "Roles Agency")
		projectID := base.projectIn(olga, companyID, "Olga's Site")
		entityID := base.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/legal-entities", token: olga.token, body: llcFields()}).
			expect(t, http.StatusCreated).str("company_legal_entity_id")
		companyPath := "/api/v1/companies/" + companyID
		projectPath := "/api/v1/projects/" + projectID
		entityPath := "/api/v1/company-legal-entities/" + entityID

		t.Run("an owner adds members and the answer shows their account", func(t *testing.T) {
			e := base.asSubtest(t)
			m := e.do(req{method: "POST", path: companyPath + "/members", token: olga.token, body: map[string]any{"email": "Adam@Example.COM", "role": "admin"}}).
				expect(t, http.StatusCreated)
			if m.str("user_id") != adam.id || m.str("email") != adam.email || m.str("name") != "Adam" || m.str("role") != "admin" {
				t.Fatalf("add member answered %s", m.Body)
			}
			e.addToCompany(olga, companyID, mia, "member")
			e.addToCompany(olga, companyID, vic, "viewer")
		})

		t.Run("the member list shows every member's e-mail, name and role", func(t *testing.T) {
			e := base.asSubtest(t)
			items := e.do(req{method: "GET", path: companyPath + "/members", token: vic.token}).expect(t, http.StatusOK).items()
			want := map[string][3]string{
				olga.id: {olga.email, "Olga", "owner"}, adam.id: {adam.email, "Adam", "admin"},
				mia.id: {mia.email, "Mia", "member"}, vic.id: {vic.email, "Vic", "viewer"},
			}
			if len(items) != len(want) {
				t.Fatalf("members = %v", items)
			}
			for _, it := range items {
				w, ok := want[it["user_id"].(string)]
				if !ok || it["email"] != w[0] || it["name"] != w[1] || it["role"] != w[2] {
					t.Errorf("member %v, want %v", it, w)
				}
			}
			pages := e.pagesOf(t, olga.token, companyPath+"/members", "3")
			if len(pages) != 2 || len(pages[0]) != 3 || len(pages[1]) != 1 {
				t.Fatalf("member pages = %v", pages)
			}
		})

		t.Run("each member sees the company with their own role", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, c := range []struct {
				u    user
				role string
			}{{olga, "owner"}, {adam, "admin"}, {mia, "member"}, {vic, "viewer"}} {
				if got := e.do(req{method: "GET", path: companyPath, token: c.u.token}).expect(t, http.StatusOK).str("role"); got != c.role {
					t.Errorf("%s sees role %q, want %q", c.u.email, got, c.role)
				}
				items := e.do(req{method: "GET", path: "/api/v1/companies", token: c.u.token}).expect(t, http.StatusOK).items()
				if len(items) != 1 || items[0]["company_id"] != companyID || items[0]["role"] != c.role {
					t.Errorf("%s's company list = %v", c.u.email, items)
				}
			}
		})

		t.Run("a viewer can read the company, its projects and legal entities", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, path := range []string{companyPath, companyPath + "/projects", projectPath, companyPath + "/legal-entities", entityPath, companyPath + "/members"} {
				e.do(req{method: "GET", path: path, token: vic.token}).expect(t, http.StatusOK)
			}
			e.do(req{method: "POST", path: companyPath + "/switch", token: vic.token}).expect(t, http.StatusOK)
		})

		t.Run("a viewer is forbidden to change anything", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, r := range []req{
				{method: "PATCH", path: companyPath, body: map[string]any{"name": "Viewer's"}},
				{method: "POST", path: companyPath + "/projects", body: map[string]any{"name": "Viewer's"}},
				{method: "PATCH", path: projectPath, body: map[string]any{"name": "Viewer's"}},
				{method: "POST", path: projectPath + "/hook-secret/rotate"},
				{method: "POST", path: companyPath + "/legal-entities", body: entrepreneurFields()},
				{method: "PATCH", path: entityPath, body: map[string]any{"name": "Viewer's"}},
				{method: "DELETE", path: entityPath},
				{method: "POST", path: companyPath + "/members", body: map[string]any{"email": "nobody@example.com", "role": "viewer"}},
				{method: "PATCH", path: companyPath + "/members/" + vic.id, body: map[string]any{"role": "admin"}},
				{method: "DELETE", path: companyPath + "/members/" + mia.id},
			} {
				r.token = vic.token
				resp := e.do(r).expect(t, http.StatusForbidden)
				if resp.str("status") != "error" {
					t.Errorf("%s %s: Problem.status = %q, want error", r.method, r.path, resp.str("status"))
				}
			}
			c := e.do(req{method: "GET", path: companyPath, token: olga.token}).expect(t, http.StatusOK)
			p := e.do(req{method: "GET", path: projectPath, token: olga.token}).expect(t, http.StatusOK)
			le := e.do(req{method: "GET", path: entityPath, token: olga.token}).expect(t, http.StatusOK)
			projects := e.do(req{method: "GET", path: companyPath + "/projects", token: olga.token}).expect(t, http.StatusOK).items()
			if c.str("name") != "Roles Agency" || p.str("name") != "Olga's Site" || le.str("name") != "Northwind LLC" || len(projects) != 1 {
				t.Fatalf("forbidden requests changed stored state: %s %s %s %v", c.Body, p.Body, le.Body, projects)
			}
		})

		t.Run("a member can create and rename projects", func(t *testing.T) {
			e := base.asSubtest(t)
			created := e.do(req{method: "POST", path: companyPath + "/projects", token: mia.token, body: map[string]any{"name": "Mia's"}}).
				expect(t, http.StatusCreated)
			if created.str("hook_secret") == "" {
				t.Fatalf("create answered %s", created.Body)
			}
			e.do(req{method: "PATCH", path: "/api/v1/projects/" + created.str("project_id"), token: mia.token, body: map[string]any{"name": "Mia's Site"}}).
				expect(t, http.StatusOK)
			p := e.do(req{method: "PATCH", path: projectPath, token: mia.token, body: map[string]any{"name": "Olga's Site, by Mia"}}).
				expect(t, http.StatusOK)
			if p.str("name") != "Olga's Site, by Mia" {
				t.Fatalf("patch answered %s", p.Body)
			}
		})

		t.Run("a member is forbidden to rotate secrets, manage legal entities, the company or members", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, r := range []req{
				{method: "POST", path: projectPath + "/hook-secret/rotate"},
				{method: "POST", path: companyPath + "/legal-entities", body: entrepreneurFields()},
				{method: "PATCH", path: entityPath, body: map[string]any{"name": "Mia's"}},
				{method: "DELETE", path: entityPath},
				{method: "PATCH", path: companyPath, body: map[string]any{"name": "Mia's"}},
				{method: "POST", path: companyPath + "/members", body: map[string]any{"email": "nobody@example.com", "role": "viewer"}},
				{method: "PATCH", path: companyPath + "/members/" + vic.id, body: map[string]any{"role": "member"}},
				{method: "DELETE", path: companyPath + "/members/" + vic.id},
			} {
				r.token = mia.token
				e.do(r).expect(t, http.StatusForbidden)
			}
			entities := e.do(req{method: "GET", path: companyPath + "/legal-entities", token: mia.token}).expect(t, http.StatusOK).items()
			if len(entities) != 1 {
				t.Fatalf("forbidden requests changed the legal entities: %v", entities)
			}
		})

		t.Run("an admin can change the company, legal entities, secrets and members below owner", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "PATCH", path: companyPath, token: adam.token, body: map[string]any{"name": "Roles Agency Ltd"}}).expect(t, http.StatusOK)
			created := e.do(req{method: "POST", path: companyPath + "/legal-entities", token: adam.token, body: entrepreneurFields()}).
				expect(t, http.StatusCreated)
			e.do(req{method: "PATCH", path: "/api/v1/company-legal-entities/" + created.str("company_legal_entity_id"), token: adam.token,
				body: map[string]any{"bank_name": "Bank"}}).expect(t, http.StatusOK)
			e.do(req{method: "DELETE", path: "/api/v1/company-legal-entities/" + created.str("company_legal_entity_id"), token: adam.token}).
				expect(t, http.StatusNoContent)
			e.do(req{method: "POST", path: projectPath + "/hook-secret/rotate", token: adam.token}).expect(t, http.StatusOK)

			nia := e.signUp("Nia")
			e.addToCompany(adam, companyID, nia, "viewer")
			m := e.do(req{method: "PATCH", path: companyPath + "/members/" + nia.id, token: adam.token, body: map[string]any{"role": "admin"}}).
				expect(t, http.StatusOK)
			if m.str("role") != "admin" || m.str("email") != nia.email {
				t.Fatalf("role change answered %s", m.Body)
			}
			e.do(req{method: "DELETE", path: companyPath + "/members/" + nia.id, token: adam.token}).expect(t, http.StatusNoContent)
		})

		t.Run("an admin is forbidden to grant the owner role or change an owner", func(t *testing.T) {
			e := base.asSubtest(t)
			nora := e.signUp("Nora")
			for _, r := range []req{
				{method: "POST", path: companyPath + "/members", body: map[string]any{"email": nora.email, "role": "owner"}},
				{method: "PATCH", path: companyPath + "/members/" + mia.id, body: map[string]any{"role": "owner"}},
				{method: "PATCH", path: companyPath + "/members/" + adam.id, body: map[string]any{"role": "owner"}},
				{method: "PATCH", path: companyPath + "/members/" + olga.id, body: map[string]any{"role": "admin"}},
				{method: "DELETE", path: companyPath + "/members/" + olga.id},
			} {
				r.token = adam.token
				e.do(r).expect(t, http.StatusForbidden)
			}
			roles := map[string]any{}
			for _, it := range e.do(req{method: "GET", path: companyPath + "/members", token: olga.token}).expect(t, http.StatusOK).items() {
				roles[it["user_id"].(string)] = it["role"]
			}
			if len(roles) != 4 || roles[olga.id] != "owner" || roles[adam.id] != "admin" || roles[mia.id] != "member" {
				t.Fatalf("forbidden requests changed the members: %v", roles)
			}
		})

		t.Run("an unknown role is refused naming role", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "PATCH", path: companyPath + "/members/" + mia.id, token: olga.token, body: map[string]any{"role": "superuser"}}).
				expect(t, http.StatusBadRequest, "role")
			e.do(req{method: "POST", path: companyPath + "/members", token: olga.token, body: map[string]any{"email": "x@example.com", "role": "superuser"}}).
				expect(t, http.StatusBadRequest, "role")
		})

		t.Run("adding an e-mail with no account is refused naming email", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "POST", path: companyPath + "/members", token: olga.token, body: map[string]any{"email": "nobody@example.com", "role": "member"}}).
				expect(t, http.StatusBadRequest, "email")
		})

		t.Run("adding someone who is already a member is a conflict", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "POST", path: companyPath + "/members", token: olga.token, body: map[string]any{"email": mia.email, "role": "admin"}}).
				expect(t, http.StatusConflict, "email")
			e.do(req{method: "POST", path: companyPath + "/members", token: olga.token, body: map[string]any{"email": olga.email, "role": "viewer"}}).
				expect(t, http.StatusConflict, "email")
			m := e.do(req{method: "GET", path: companyPath, token: mia.token}).expect(t, http.StatusOK)
			if m.str("role") != "member" {
				t.Fatalf("a refused add changed Mia's role: %s", m.Body)
			}
		})

		t.Run("changing or removing someone who is not a member is not found", func(t *testing.T) {
			e := base.asSubtest(t)
			stranger := e.signUp("Stranger")
			e.do(req{method: "PATCH", path: companyPath + "/members/" + stranger.id, token: olga.token, body: map[string]any{"role": "admin"}}).
				expect(t, http.StatusNotFound)
			e.do(req{method: "DELETE", path: companyPath + "/members/" + stranger.id, token: olga.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "GET", path: companyPath, token: stranger.token}).expect(t, http.StatusNotFound)
		})

		t.Run("an owner can grant and take back the owner role", func(t *testing.T) {
			e := base.asSubtest(t)
			m := e.do(req{method: "PATCH", path: companyPath + "/members/" + adam.id, token: olga.token, body: map[string]any{"role": "owner"}}).
				expect(t, http.StatusOK)
			if m.str("role") != "owner" {
				t.Fatalf("grant answered %s", m.Body)
			}
			if got := e.do(req{method: "GET", path: companyPath, token: adam.token}).expect(t, http.StatusOK).str("role"); got != "owner" {
				t.Fatalf("Adam's role after the grant = %q", got)
			}
			// Now an owner, Adam may change another owner.
			e.do(req{method: "PATCH", path: companyPath + "/members/" + olga.id, token: adam.token, body: map[string]any{"role": "owner"}}).
				expect(t, http.StatusOK)
			e.do(req{method: "PATCH", path: companyPath + "/members/" + adam.id, token: olga.token, body: map[string]any{"role": "admin"}}).
				expect(t, http.StatusOK)
			nora := e.do(req{method: "POST", path: companyPath + "/members", token: olga.token, body: map[string]any{"email": "nora@example.com", "role": "owner"}}).
				expect(t, http.StatusCreated)
			if nora.str("role") != "owner" {
				t.Fatalf("adding an owner answered %s", nora.Body)
			}
			e.do(req{method: "DELETE", path: companyPath + "/members/" + nora.str("user_id"), token: olga.token}).expect(t, http.StatusNoContent)
		})

		t.Run("the last owner cannot be demoted or removed", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "PATCH", path: companyPath + "/members/" + olga.id, token: olga.token, body: map[string]any{"role": "admin"}}).
				expect(t, http.StatusConflict, "role")
			e.do(req{method: "DELETE", path: companyPath + "/members/" + olga.id, token: olga.token}).
				expect(t, http.StatusConflict, "role")
			if got := e.do(req{method: "GET", path: companyPath, token: olga.token}).expect(t, http.StatusOK).str("role"); got != "owner" {
				t.Fatalf("Olga's role after the refusals = %q", got)
			}
		})

		t.Run("one of two owners can step down, leaving the other as the last", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "PATCH", path: companyPath + "/members/" + adam.id, token: olga.token, body: map[string]any{"role": "owner"}}).
				expect(t, http.StatusOK)
			e.do(req{method: "PATCH", path: companyPath + "/members/" + adam.id, token: adam.token, body: map[string]any{"role": "admin"}}).
				expect(t, http.StatusOK)
			e.do(req{method: "PATCH", path: companyPath + "/members/" + olga.id, token: olga.token, body: map[string]any{"role": "viewer"}}).
				expect(t, http.StatusConflict, "role")
		})

		t.Run("a removed member loses access to the company", func(t *testing.T) {
			e := base.asSubtest(t)
			e.do(req{method: "DELETE", path: companyPath + "/members/" + vic.id, token: olga.token}).expect(t, http.StatusNoContent)
			for _, path := range []string{companyPath, companyPath + "/projects", projectPath, entityPath, companyPath + "/members"} {
				e.do(req{method: "GET", path: path, token: vic.token}).expect(t, http.StatusNotFound)
			}
			if items := e.do(req{method: "GET", path: "/api/v1/companies", token: vic.token}).expect(t, http.StatusOK).items(); len(items) != 0 {
				t.Fatalf("Vic's companies after removal = %v", items)
			}
			for _, it := range e.do(req{method: "GET", path: companyPath + "/members", token: olga.token}).expect(t, http.StatusOK).items() {
				if it["user_id"] == vic.id {
					t.Fatalf("the member list still shows Vic: %v", it)
				}
			}
		})
	})
}

// TestRolesTwoOwnersDemotingEachOtherAtOnce checks that concurrent demotions cannot leave
// a company without an owner.
func TestRolesTwoOwnersDemotingEachOtherAtOnce(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		for i := range 10 {
			a, b := e.signUp("OwnerA"+string(rune('a'+i))), e.signUp("OwnerB"+string(rune('a'+i)))
			companyID := e.companyOf(a, "Shared")
			e.addToCompany(a, companyID, b, "owner")
			var wg sync.WaitGroup
			codes := make([]int, 2)
			for j, pair := range [][2]user{{a, b}, {b, a}} {
				wg.Go(func() {
					codes[j] = e.do(req{method: "PATCH", path: "/api/v1/companies/" + companyID + "/members/" + pair[1].id,
						token: pair[0].token, body: map[string]any{"role": "admin"}}).Code
				})
			}
			wg.Wait()
			owners := 0
			for _, it := range e.do(req{method: "GET", path: "/api/v1/companies/" + companyID + "/members", token: a.token}).expect(t, http.StatusOK).items() {
				if it["role"] == "owner" {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("round %d: after two owners demoted each other at once (answers %v) the company has %d owners, want 1", i, codes, owners)
			}
		}
	})
}

func TestLegalEntities(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		base := newEnv(t, db)
		olga := base.signUp("Olga")
		companyID := base.companyOf(olga, "Legal Agency")
		listPath := "/api/v1/companies/" + companyID + "/legal-entities"
		create := func(e *env, body map[string]any) *response {
			return e.do(req{method: "POST", path: listPath, token: olga.token, body: body})
		}
		var llcID string

		t.Run("a valid legal entity is stored with every field", func(t *testing.T) {
			e := base.asSubtest(t)
			fields := llcFields()
			created := create(e, fields).expect(t, http.StatusCreated)
			llcID = created.str("company_legal_entity_id")
			got := e.do(req{method: "GET", path: "/api/v1/company-legal-entities/" + llcID, token: olga.token}).expect(t, http.StatusOK)
			for _, resp := range []*response{created, got} {
				for k, want := range fields {
					if resp.json[k] != want {
						t.Errorf("%s = %v, want %v", k, resp.json[k], want)
					}
				}
				if resp.str("company_id") != companyID || resp.str("company_legal_entity_id") != llcID || resp.str("ogrnip") != "" {
					t.Errorf("answer %s", resp.Body)
				}
			}
		})

		t.Run("a valid individual entrepreneur is stored", func(t *testing.T) {
			e := base.asSubtest(t)
			created := create(e, entrepreneurFields()).expect(t, http.StatusCreated)
			got := e.do(req{method: "GET", path: "/api/v1/company-legal-entities/" + created.str("company_legal_entity_id"), token: olga.token}).
				expect(t, http.StatusOK)
			if got.str("entity_type") != "individual_entrepreneur" || got.str("inn") != "500100732259" || got.str("ogrnip") != "304500116000157" ||
				got.str("kpp") != "" || got.str("ogrn") != "" || got.str("name") != "IP Ivanov I. I." {
				t.Fatalf("get answered %s", got.Body)
			}
		})

		t.Run("a legal entity with only the required fields is stored", func(t *testing.T) {
			e := base.asSubtest(t)
			create(e, map[string]any{"entity_type": "legal_entity", "name": "Minimal LLC", "inn": "7707083893"}).expect(t, http.StatusCreated)
		})

		invalid := []struct {
			name     string
			body     map[string]any
			validate string
		}{
			{"a wrong INN check digit is refused naming inn", fieldsWith(llcFields(), map[string]any{"inn": "7707083894"}), "inn"},
			{"a 12-digit INN for a legal entity is refused naming inn", fieldsWith(llcFields(), map[string]any{"inn": "500100732259"}), "inn"},
			{"a 10-digit INN for an individual entrepreneur is refused naming inn", fieldsWith(entrepreneurFields(), map[string]any{"inn": "7707083893"}), "inn"},
			{"a wrong OGRNIP check digit is refused naming ogrnip", fieldsWith(entrepreneurFields(), map[string]any{"ogrnip": "304500116000158"}), "ogrnip"},
			{"every bad field is named in one answer",
				fieldsWith(llcFields(), map[string]any{"inn": "7707083894", "ogrn": "1027700132196", "settlement_account": "40702810938000000002"}),
				"inn,ogrn,settlement_account"},
			{"a KPP on an individual entrepreneur is refused naming kpp", fieldsWith(entrepreneurFields(), map[string]any{"kpp": "773601001"}), "kpp"},
			{"an OGRN on an individual entrepreneur is refused naming ogrn", fieldsWith(entrepreneurFields(), map[string]any{"ogrn": "1027700132195"}), "ogrn"},
			{"an OGRNIP on a legal entity is refused naming ogrnip", fieldsWith(llcFields(), map[string]any{"ogrnip": "304500116000157"}), "ogrnip"},
			{"a malformed KPP is refused naming kpp", fieldsWith(llcFields(), map[string]any{"kpp": "7736010"}), "kpp"},
			{"a settlement account without a BIK is refused naming settlement_account",
				fieldsWith(llcFields(), map[string]any{"bik": nil, "correspondent_account": nil}), "settlement_account"},
			{"accounts that do not belong to the BIK are refused naming them",
				fieldsWith(llcFields(), map[string]any{"bik": "044599226"}), "settlement_account,correspondent_account"},
			{"a blank name is refused naming name", fieldsWith(llcFields(), map[string]any{"name": "   "}), "name"},
			{"missing required fields are named", map[string]any{"kpp": "773601001"}, "entity_type,inn,name"},
			{"an unknown entity type is refused naming entity_type", fieldsWith(llcFields(), map[string]any{"entity_type": "partnership"}), "entity_type"},
			{"an unknown field is refused naming it", fieldsWith(llcFields(), map[string]any{"okpo": "12345678"}), "okpo"},
		}
		for _, c := range invalid {
			t.Run(c.name, func(t *testing.T) {
				e := base.asSubtest(t)
				create(e, c.body).expect(t, http.StatusBadRequest, strings.Split(c.validate, ",")...)
			})
		}

		t.Run("refused legal entities are not stored", func(t *testing.T) {
			e := base.asSubtest(t)
			if items := e.do(req{method: "GET", path: listPath, token: olga.token}).expect(t, http.StatusOK).items(); len(items) != 3 {
				t.Fatalf("legal entities = %v, want the 3 valid ones", items)
			}
		})

		t.Run("patch validates the merged result", func(t *testing.T) {
			e := base.asSubtest(t)
			path := "/api/v1/company-legal-entities/" + llcID
			e.do(req{method: "PATCH", path: path, token: olga.token, body: map[string]any{"entity_type": "individual_entrepreneur"}}).
				expect(t, http.StatusBadRequest, "inn", "kpp", "ogrn")
			e.do(req{method: "PATCH", path: path, token: olga.token, body: map[string]any{"bik": ""}}).
				expect(t, http.StatusBadRequest, "settlement_account", "correspondent_account")
			e.do(req{method: "PATCH", path: path, token: olga.token, body: map[string]any{"inn": "7707083894", "name": "Renamed LLC"}}).
				expect(t, http.StatusBadRequest, "inn")
			got := e.do(req{method: "GET", path: path, token: olga.token}).expect(t, http.StatusOK)
			for k, want := range llcFields() {
				if got.json[k] != want {
					t.Errorf("after refused patches %s = %v, want %v", k, got.json[k], want)
				}
			}
		})

		t.Run("patch changes only the fields it names", func(t *testing.T) {
			e := base.asSubtest(t)
			path := "/api/v1/company-legal-entities/" + llcID
			before := e.do(req{method: "GET", path: path, token: olga.token}).expect(t, http.StatusOK)
			p := e.do(req{method: "PATCH", path: path, token: olga.token, body: map[string]any{"name": "Northwind Holding", "kpp": "", "legal_address": "Moscow"}}).
				expect(t, http.StatusOK)
			got := e.do(req{method: "GET", path: path, token: olga.token}).expect(t, http.StatusOK)
			want := fieldsWith(llcFields(), map[string]any{"name": "Northwind Holding", "kpp": "", "legal_address": "Moscow",
				"company_id": companyID, "company_legal_entity_id": llcID, "created_at": before.str("created_at")})
			for _, resp := range []*response{p, got} {
				for k, w := range want {
					if resp.json[k] != w {
						t.Errorf("%s = %v, want %v", k, resp.json[k], w)
					}
				}
			}
			// Turning it into an entrepreneur works once the fields fit.
			e.do(req{method: "PATCH", path: path, token: olga.token, body: map[string]any{
				"entity_type": "individual_entrepreneur", "inn": "500100732259", "ogrn": "", "ogrnip": "304500116000157"}}).
				expect(t, http.StatusOK)
			if got := e.do(req{method: "GET", path: path, token: olga.token}).expect(t, http.StatusOK); got.str("entity_type") != "individual_entrepreneur" {
				t.Fatalf("get answered %s", got.Body)
			}
		})

		t.Run("delete removes the legal entity", func(t *testing.T) {
			e := base.asSubtest(t)
			id := create(e, llcFields()).expect(t, http.StatusCreated).str("company_legal_entity_id")
			path := "/api/v1/company-legal-entities/" + id
			e.do(req{method: "DELETE", path: path, token: olga.token}).expect(t, http.StatusNoContent)
			e.do(req{method: "GET", path: path, token: olga.token}).expect(t, http.StatusNotFound)
			e.do(req{method: "PATCH", path: path, token: olga.token, body: map[string]any{"name": "Back"}}).expect(t, http.StatusNotFound)
			e.do(req{method: "DELETE", path: path, token: olga.token}).expect(t, http.StatusNotFound)
			for _, it := range e.do(req{method: "GET", path: listPath, token: olga.token}).expect(t, http.StatusOK).items() {
				if it["company_legal_entity_id"] == id {
					t.Fatalf("the list still shows the deleted entity")
				}
			}
		})

		t.Run("the list pages one entity at a time", func(t *testing.T) {
			e := base.asSubtest(t)
			all := e.do(req{method: "GET", path: listPath, token: olga.token}).expect(t, http.StatusOK)
			if all.str("next_cursor") != "" || len(all.items()) != 3 {
				t.Fatalf("full list = %s", all.Body)
			}
			pages := e.pagesOf(t, olga.token, listPath, "1")
			var paged []string
			for _, p := range pages {
				if len(p) != 1 {
					t.Fatalf("page of %d items with limit=1", len(p))
				}
				paged = append(paged, idsOf(p, "company_legal_entity_id")...)
			}
			if want := idsOf(all.items(), "company_legal_entity_id"); strings.Join(paged, ",") != strings.Join(want, ",") {
				t.Fatalf("paged ids %v, want %v", paged, want)
			}
		})

		t.Run("a bad limit or cursor is refused naming it", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, q := range []string{"?limit=0", "?limit=201", "?limit=x"} {
				e.do(req{method: "GET", path: listPath + q, token: olga.token}).expect(t, http.StatusBadRequest, "limit")
			}
			e.do(req{method: "GET", path: listPath + "?cursor=not-a-cursor", token: olga.token}).expect(t, http.StatusBadRequest, "cursor")
		})
	})
}

func TestProjects(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		base := newEnv(t, db)
		olga := base.signUp("Olga")
		companyID := base.companyOf(olga, "Project Agency")
		listPath := "/api/v1/companies/" + companyID + "/projects"
		var projectID, secret, hookKey string

		t.Run("create answers the webhook secret once, with the hook key", func(t *testing.T) {
			e := base.asSubtest(t)
			p := e.do(req{method: "POST", path: listPath, token: olga.token, body: map[string]any{"name": "Website"}}).expect(t, http.StatusCreated)
			projectID, secret, hookKey = p.str("project_id"), p.str("hook_secret"), p.str("hook_key")
			if projectID == "" || len(secret) < 16 || hookKey == "" || p.str("name") != "Website" || p.str("company_id") != companyID {
				t.Fatalf("create answered %s", p.Body)
			}
			if p.str("hook_secret_masked") != secret[:4]+"****" {
				t.Fatalf("hook_secret_masked = %q, want the first 4 characters of %q then ****", p.str("hook_secret_masked"), secret)
			}
		})

		t.Run("get shows the secret masked and never in full", func(t *testing.T) {
			e := base.asSubtest(t)
			p := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID, token: olga.token}).expect(t, http.StatusOK)
			if _, shown := p.json["hook_secret"]; shown || strings.Contains(p.Body.String(), secret) {
				t.Fatalf("get reveals the secret: %s", p.Body)
			}
			if p.str("hook_secret_masked") != secret[:4]+"****" || p.str("hook_key") != hookKey || p.str("name") != "Website" {
				t.Fatalf("get answered %s", p.Body)
			}
			list := e.do(req{method: "GET", path: listPath, token: olga.token}).expect(t, http.StatusOK)
			if strings.Contains(list.Body.String(), secret) || strings.Contains(list.Body.String(), `"hook_secret"`) {
				t.Fatalf("list reveals the secret: %s", list.Body)
			}
		})

		t.Run("each project gets its own secret and hook key", func(t *testing.T) {
			e := base.asSubtest(t)
			p := e.do(req{method: "POST", path: listPath, token: olga.token, body: map[string]any{"name": "Shop"}}).expect(t, http.StatusCreated)
			if p.str("hook_secret") == secret || p.str("hook_key") == hookKey || p.str("hook_secret_masked") == secret[:4]+"****" {
				t.Fatalf("second project answered %s, first had secret %q key %q", p.Body, secret, hookKey)
			}
		})

		t.Run("rotate answers a new secret and the masked value follows it", func(t *testing.T) {
			e := base.asSubtest(t)
			r := e.do(req{method: "POST", path: "/api/v1/projects/" + projectID + "/hook-secret/rotate", token: olga.token}).expect(t, http.StatusOK)
			rotated := r.str("hook_secret")
			if rotated == "" || rotated == secret || r.str("hook_secret_masked") != rotated[:4]+"****" || r.str("hook_key") != hookKey {
				t.Fatalf("rotate answered %s; old secret %q", r.Body, secret)
			}
			p := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID, token: olga.token}).expect(t, http.StatusOK)
			if p.str("hook_secret_masked") != rotated[:4]+"****" || p.str("hook_secret_masked") == secret[:4]+"****" {
				t.Fatalf("after rotation hook_secret_masked = %q; old secret %q, new %q", p.str("hook_secret_masked"), secret, rotated)
			}
			secret = rotated
		})

		t.Run("patch renames the project", func(t *testing.T) {
			e := base.asSubtest(t)
			p := e.do(req{method: "PATCH", path: "/api/v1/projects/" + projectID, token: olga.token, body: map[string]any{"name": " Website 2027 "}}).
				expect(t, http.StatusOK)
			if p.str("name") != "Website 2027" || p.str("hook_secret_masked") != secret[:4]+"****" {
				t.Fatalf("patch answered %s", p.Body)
			}
			if _, shown := p.json["hook_secret"]; shown {
				t.Fatalf("patch reveals the secret: %s", p.Body)
			}
			got := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID, token: olga.token}).expect(t, http.StatusOK)
			if got.str("name") != "Website 2027" {
				t.Fatalf("get after patch answered %s", got.Body)
			}
		})

		t.Run("an empty patch changes nothing", func(t *testing.T) {
			e := base.asSubtest(t)
			p := e.do(req{method: "PATCH", path: "/api/v1/projects/" + projectID, token: olga.token, body: map[string]any{}}).expect(t, http.StatusOK)
			if p.str("name") != "Website 2027" {
				t.Fatalf("empty patch answered %s", p.Body)
			}
		})

		t.Run("an empty, blank or too long name is refused naming name", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, name := range []string{"", "   ", strings.Repeat("n", 201), strings.Repeat("я", 201)} {
				e.do(req{method: "POST", path: listPath, token: olga.token, body: map[string]any{"name": name}}).expect(t, http.StatusBadRequest, "name")
				e.do(req{method: "PATCH", path: "/api/v1/projects/" + projectID, token: olga.token, body: map[string]any{"name": name}}).
					expect(t, http.StatusBadRequest, "name")
			}
			e.do(req{method: "POST", path: listPath, token: olga.token, body: map[string]any{}}).expect(t, http.StatusBadRequest, "name")
			got := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID, token: olga.token}).expect(t, http.StatusOK)
			if got.str("name") != "Website 2027" {
				t.Fatalf("a refused patch changed the name: %s", got.Body)
			}
		})

		t.Run("a name of 200 characters is accepted, counted in characters", func(t *testing.T) {
			e := base.asSubtest(t)
			name := strings.Repeat("я", 200)
			p := e.do(req{method: "POST", path: listPath, token: olga.token, body: map[string]any{"name": name}}).expect(t, http.StatusCreated)
			if p.str("name") != name {
				t.Fatalf("create answered %s", p.Body)
			}
		})

		t.Run("the list pages with limit and next_cursor", func(t *testing.T) {
			e := base.asSubtest(t)
			all := e.do(req{method: "GET", path: listPath, token: olga.token}).expect(t, http.StatusOK).items()
			if len(all) != 3 || all[0]["project_id"] != projectID {
				t.Fatalf("projects = %v", all)
			}
			pages := e.pagesOf(t, olga.token, listPath, "2")
			if len(pages) != 2 || len(pages[0]) != 2 || len(pages[1]) != 1 {
				t.Fatalf("pages = %v", pages)
			}
			paged := append(idsOf(pages[0], "project_id"), idsOf(pages[1], "project_id")...)
			if strings.Join(paged, ",") != strings.Join(idsOf(all, "project_id"), ",") {
				t.Fatalf("paged ids %v, want %v", paged, idsOf(all, "project_id"))
			}
		})
	})
}

// TestTenancy proves a user who is not a member of a company cannot reach it or anything in
// it, and cannot even tell that it exists: every answer is the 404 a random id gets.
func TestTenancy(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		base := newEnv(t, db)
		ada, eve := base.signUp("Ada"), base.signUp("Eve")
		companyID := base.companyOf(ada, "Ada Agency")
		base.companyOf(eve, "Eve Agency")
		project := base.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/projects", token: ada.token, body: map[string]any{"name": "Site"}}).
			expect(t, http.StatusCreated)
		projectID := project.str("project_id")
		entityID := base.do(req{method: "POST", path: "/api/v1/companies/" + companyID + "/legal-entities", token: ada.token, body: llcFields()}).
			expect(t, http.StatusCreated).str("company_legal_entity_id")

		cases := []struct {
			name   string
			method string
			path   string // with %s where the id goes
			id     string
			body   any
		}{
			{"get company", "GET", "/api/v1/companies/%s", companyID, nil},
			{"patch company", "PATCH", "/api/v1/companies/%s", companyID, map[string]any{"name": "Eve's now"}},
			{"switch to the company", "POST", "/api/v1/companies/%s/switch", companyID, nil},
			{"list members", "GET", "/api/v1/companies/%s/members", companyID, nil},
			{"add a member", "POST", "/api/v1/companies/%s/members", companyID, map[string]any{"email": eve.email, "role": "owner"}},
			{"change a member's role", "PATCH", "/api/v1/companies/%s/members/" + ada.id, companyID, map[string]any{"role": "viewer"}},
			{"remove a member", "DELETE", "/api/v1/companies/%s/members/" + ada.id, companyID, nil},
			{"list legal entities", "GET", "/api/v1/companies/%s/legal-entities", companyID, nil},
			{"create a legal entity", "POST", "/api/v1/companies/%s/legal-entities", companyID, entrepreneurFields()},
			{"get a legal entity", "GET", "/api/v1/company-legal-entities/%s", entityID, nil},
			{"patch a legal entity", "PATCH", "/api/v1/company-legal-entities/%s", entityID, map[string]any{"name": "Eve's now"}},
			{"delete a legal entity", "DELETE", "/api/v1/company-legal-entities/%s", entityID, nil},
			{"list projects", "GET", "/api/v1/companies/%s/projects", companyID, nil},
			{"create a project", "POST", "/api/v1/companies/%s/projects", companyID, map[string]any{"name": "Eve's"}},
			{"get a project", "GET", "/api/v1/projects/%s", projectID, nil},
			{"patch a project", "PATCH", "/api/v1/projects/%s", projectID, map[string]any{"name": "Eve's now"}},
			{"rotate a project's secret", "POST", "/api/v1/projects/%s/hook-secret/rotate", projectID, nil},
		}
		for _, c := range cases {
			t.Run("an outsider who tries to "+c.name+" gets the same 404 as for a random id", func(t *testing.T) {
				e := base.asSubtest(t)
				real := e.do(req{method: c.method, path: strings.Replace(c.path, "%s", c.id, 1), token: eve.token, body: c.body}).
					expect(t, http.StatusNotFound)
				random := e.do(req{method: c.method, path: strings.Replace(c.path, "%s", uuid.NewString(), 1), token: eve.token, body: c.body}).
					expect(t, http.StatusNotFound)
				for _, f := range []string{"status", "title", "detail", "action", "validate"} {
					if real.json[f] != random.json[f] {
						t.Errorf("Problem.%s = %q for a real id but %q for a random one", f, real.json[f], random.json[f])
					}
				}
				for _, h := range []string{"X-App-Result", "X-App-Validate", "X-App-Action", "Content-Type", "Content-Language"} {
					if real.Header().Get(h) != random.Header().Get(h) {
						t.Errorf("%s = %q for a real id but %q for a random one", h, real.Header().Get(h), random.Header().Get(h))
					}
				}
				if real.str("status") != "error" {
					t.Errorf("Problem.status = %q, want error", real.str("status"))
				}
			})
		}

		t.Run("the outsider's attempts changed nothing", func(t *testing.T) {
			e := base.asSubtest(t)
			c := e.do(req{method: "GET", path: "/api/v1/companies/" + companyID, token: ada.token}).expect(t, http.StatusOK)
			if c.str("name") != "Ada Agency" || c.str("role") != "owner" {
				t.Errorf("company = %s", c.Body)
			}
			members := e.do(req{method: "GET", path: "/api/v1/companies/" + companyID + "/members", token: ada.token}).expect(t, http.StatusOK).items()
			if len(members) != 1 || members[0]["user_id"] != ada.id || members[0]["role"] != "owner" {
				t.Errorf("members = %v", members)
			}
			le := e.do(req{method: "GET", path: "/api/v1/company-legal-entities/" + entityID, token: ada.token}).expect(t, http.StatusOK)
			if le.str("name") != "Northwind LLC" {
				t.Errorf("legal entity = %s", le.Body)
			}
			if items := e.do(req{method: "GET", path: "/api/v1/companies/" + companyID + "/legal-entities", token: ada.token}).expect(t, http.StatusOK).items(); len(items) != 1 {
				t.Errorf("legal entities = %v", items)
			}
			p := e.do(req{method: "GET", path: "/api/v1/projects/" + projectID, token: ada.token}).expect(t, http.StatusOK)
			if p.str("name") != "Site" || p.str("hook_secret_masked") != project.str("hook_secret_masked") {
				t.Errorf("project = %s, created as %s", p.Body, project.Body)
			}
			if items := e.do(req{method: "GET", path: "/api/v1/companies/" + companyID + "/projects", token: ada.token}).expect(t, http.StatusOK).items(); len(items) != 1 {
				t.Errorf("projects = %v", items)
			}
		})

		t.Run("the outsider's own lists and workspace show nothing of the company", func(t *testing.T) {
			e := base.asSubtest(t)
			for _, it := range e.do(req{method: "GET", path: "/api/v1/companies", token: eve.token}).expect(t, http.StatusOK).items() {
				if it["company_id"] == companyID {
					t.Fatalf("Eve's company list shows Ada's company")
				}
			}
			me := e.do(req{method: "GET", path: "/api/v1/auth/me", token: eve.token}).expect(t, http.StatusOK)
			if me.str("current_company_id") == companyID {
				t.Fatalf("Eve's active company is Ada's")
			}
		})
	})
}
