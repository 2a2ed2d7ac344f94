package activities

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"agencyhub/activities/egress"
	"agencyhub/migrations/dbtest"
	"agencyhub/models/integration"
)

// dbQueryWorld is a table in a schema of the test PostgreSQL and a postgres.database
// integration that reaches it.
type dbQueryWorld struct {
	deps   *projectDependencies
	dep    string
	schema string
}

func newDBQueryWorld(t *testing.T) *dbQueryWorld {
	t.Helper()
	db := dbtest.Postgres(t) // skips, saying so, without a server
	u, err := url.Parse(db.URL)
	if err != nil {
		t.Fatal(err)
	}
	w := &dbQueryWorld{deps: newProjectDependencies(), schema: u.Query().Get("search_path")}
	port, _ := strconv.Atoi(u.Port())
	password, _ := u.User.Password()
	w.dep = w.deps.add(integration.TypePostgresDatabase, map[string]any{
		"host": u.Hostname(), "port": float64(port), "database": u.Path[1:], "username": u.User.Username(), "sslmode": "disable",
	}, map[string]any{"password": password + "unused-by-trust-auth"})
	if err := db.Exec("CREATE TABLE " + w.schema + `.customers (id int PRIMARY KEY, name text, vip boolean, since timestamptz, balance numeric, tags jsonb);
		INSERT INTO ` + w.schema + `.customers VALUES
			(1, 'Ada', true, '2026-01-02T03:04:05Z', 12.5, '{"plan":"gold"}'),
			(2, 'Grace', false, NULL, 0, NULL),
			(3, 'Linus', false, NULL, 3, NULL)`).Error; err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *dbQueryWorld) run(t *testing.T, policy egress.Policy, config map[string]any) (Result, error) {
	t.Helper()
	config["action_dependency_id"] = w.dep
	return DBQuery{ActionDependencies: w.deps, Policy: policy}.Run(context.Background(), w.deps.request(ActionDBQuery, config))
}

func TestDBQueryAnswersRowsWithBoundParameters(t *testing.T) {
	t.Parallel()
	w := newDBQueryWorld(t)
	res, err := w.run(t, loopbackPolicy(t), map[string]any{
		"sql":    "SELECT id, name, vip, since, balance, tags FROM " + w.schema + ".customers WHERE id = $1 OR name = $2 ORDER BY id",
		"params": []any{"1", "Grace'; DROP TABLE customers; --"}, // a value, never SQL
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := res.Output["rows"].([]any)
	if len(rows) != 1 || res.Output["row_count"] != int64(1) || res.Output["truncated"] != false {
		t.Fatalf("output %v", res.Output)
	}
	ada := rows[0].(map[string]any)
	if ada["id"] != int32(1) || ada["name"] != "Ada" || ada["vip"] != true || ada["since"] != "2026-01-02T03:04:05Z" ||
		ada["balance"] != 12.5 || ada["tags"].(map[string]any)["plan"] != "gold" {
		t.Fatalf("row %#v", ada)
	}

	t.Run("max_rows cuts the answer and says so", func(t *testing.T) {
		res, err := w.run(t, loopbackPolicy(t), map[string]any{"sql": "SELECT id FROM " + w.schema + ".customers ORDER BY id", "max_rows": float64(2)})
		if err != nil || len(res.Output["rows"].([]any)) != 2 || res.Output["truncated"] != true {
			t.Fatalf("output %v, %v", res.Output, err)
		}
	})
}

func TestDBQueryWritesOnlyWhenItSaysSo(t *testing.T) {
	t.Parallel()
	w := newDBQueryWorld(t)
	insert := "INSERT INTO " + w.schema + ".customers (id, name) VALUES ($1, $2)"
	_, err := w.run(t, loopbackPolicy(t), map[string]any{"sql": insert, "params": []any{"4", "Barbara"}})
	requireFailure(t, err, ClassValidation, "read_only_transaction")

	res, err := w.run(t, loopbackPolicy(t), map[string]any{"sql": insert, "params": []any{"4", "Barbara"}, "read_only": false})
	if err != nil || res.Output["row_count"] != int64(1) || len(res.Output["rows"].([]any)) != 0 {
		t.Fatalf("insert answered %v, %v", res.Output, err)
	}
	count, err := w.run(t, loopbackPolicy(t), map[string]any{"sql": "SELECT count(*) AS n FROM " + w.schema + ".customers"})
	if err != nil || count.Output["rows"].([]any)[0].(map[string]any)["n"] != int64(4) {
		t.Fatalf("count answered %v, %v", count.Output, err)
	}
}

func TestDBQueryClassifiesFailures(t *testing.T) {
	t.Parallel()
	w := newDBQueryWorld(t)
	t.Run("a statement over its timeout is retried when read-only", func(t *testing.T) {
		_, err := w.run(t, loopbackPolicy(t), map[string]any{"sql": "SELECT pg_sleep(3)", "timeout_seconds": float64(1)})
		requireFailure(t, err, ClassTransient, "statement_timeout")
	})
	t.Run("a writing statement over its timeout has an unknown outcome", func(t *testing.T) {
		_, err := w.run(t, loopbackPolicy(t), map[string]any{"sql": "SELECT pg_sleep(3)", "timeout_seconds": float64(1), "read_only": false})
		requireFailure(t, err, ClassTimeoutUnknown, "statement_timeout")
	})
	t.Run("a wrong statement is the author's to fix", func(t *testing.T) {
		_, err := w.run(t, loopbackPolicy(t), map[string]any{"sql": "SELECT nope FROM " + w.schema + ".customers"})
		requireFailure(t, err, ClassValidation, "statement_refused")
	})
	t.Run("a database the egress policy refuses is not dialled", func(t *testing.T) {
		_, err := w.run(t, egress.Policy{}, map[string]any{"sql": "SELECT 1"})
		requireFailure(t, err, ClassValidation, "egress_refused")
	})
}
