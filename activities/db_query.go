package activities

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"agencyhub/activities/egress"
	"agencyhub/models/integration"
)

// postgresProvider names the database in failure diagnostics.
const postgresProvider = "postgres"

// Bounds of db.query, also in its config schema.
const (
	dbDefaultRows    = 100
	dbMaxRows        = 1000
	dbDefaultTimeout = 10
	dbMaxTimeout     = 60
)

// DBQuery is the db.query action: one statement, its parameters bound by the server (never
// spliced into the SQL), against the postgres.database integration named by
// action_dependency_id, in a transaction of its own that is read-only unless read_only is
// false (which only an owner or admin may publish, engine.Drafts.Writes). The connection
// goes through the egress policy like every call to a user-chosen host.
//
// Config: action_dependency_id; sql; params (values of $1, $2 …); max_rows (1-1000, 100);
// timeout_seconds (1-60, 10: the statement_timeout); read_only (true).
//
// Output: rows (at most max_rows, column name to value: numbers, text, booleans, null,
// timestamps as RFC 3339, other types as text), row_count (rows returned, or affected by a
// statement that returns none), truncated (more rows than max_rows).
//
// Failures:
//
//	config or integration unusable, host refused by the egress policy   validation
//	the statement is wrong (syntax, unknown table, a write when read-only) validation
//	password or user refused                                        auth
//	connection refused, timeout, the server busy or shutting down   transient
//	the statement timed out                                         transient when read-only,
//	                                                                timeout_unknown otherwise
//	other database errors                                           permanent
type DBQuery struct {
	ActionDependencies ActionDependencies
	// Policy decides which database addresses may be dialled.
	Policy egress.Policy
}

// Run executes the statement.
func (a DBQuery) Run(ctx context.Context, req Request) (Result, error) {
	statement, err := requiredText(req.Config, "sql")
	if err != nil {
		return Result{}, err
	}
	params, _ := req.Config["params"].([]any)
	maxRows, err := boundedInt(req.Config, "max_rows", dbDefaultRows, dbMaxRows)
	if err != nil {
		return Result{}, err
	}
	timeout, err := boundedInt(req.Config, "timeout_seconds", dbDefaultTimeout, dbMaxTimeout)
	if err != nil {
		return Result{}, err
	}
	readOnly := req.Config["read_only"] != false
	const field = "action_dependency_id"
	dep, err := loadDependency(ctx, a.ActionDependencies, req, field, integration.TypePostgresDatabase, true)
	if err != nil {
		return Result{}, err
	}
	cfg, err := a.connConfig(dep, timeout)
	if err != nil {
		return Result{}, err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return Result{}, dbFailure(ctx, err, true)
	}
	defer conn.Close(context.WithoutCancel(ctx))

	access := pgx.ReadOnly
	if !readOnly {
		access = pgx.ReadWrite
	}
	var res Result
	err = pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{AccessMode: access}, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, statement, params...)
		if err != nil {
			return err
		}
		res, err = collectRows(rows, maxRows)
		return err
	})
	if err != nil {
		return Result{}, dbFailure(ctx, err, readOnly)
	}
	return res, nil
}

// connConfig is the connection to the integration's database, dialled through the
// egress policy, with the statement timeout set.
func (a DBQuery) connConfig(dep *integration.Unsealed, timeoutSeconds int) (*pgx.ConnConfig, error) {
	host, _ := dep.Metadata["host"].(string)
	database, _ := dep.Metadata["database"].(string)
	user, _ := dep.Metadata["username"].(string)
	password, _ := dep.Auth["password"].(string)
	sslmode, _ := dep.Metadata["sslmode"].(string)
	if sslmode == "" {
		sslmode = "verify-full"
	}
	port := 5432
	if p, ok := dep.Metadata["port"].(float64); ok {
		port = int(p)
	}
	if host == "" || database == "" || user == "" {
		return nil, Failed(ClassValidation, "integration_incomplete", "db_incomplete", "", nil)
	}
	u := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword(user, password),
		Host:     net.JoinHostPort(host, strconv.Itoa(port)),
		Path:     "/" + database,
		RawQuery: url.Values{"sslmode": {sslmode}, "connect_timeout": {"10"}, "application_name": {"agencyhub db.query"}}.Encode(),
	}
	cfg, err := pgx.ParseConfig(u.String())
	if err != nil {
		return nil, Failed(ClassValidation, "integration_incomplete", "db_settings_unusable", "", Args{"error": err.Error()})
	}
	cfg.DialFunc = a.Policy.DialContext
	cfg.RuntimeParams["statement_timeout"] = strconv.Itoa(timeoutSeconds * 1000)
	return cfg, nil
}

// collectRows reads up to maxRows rows as JSON values, and counts them (or, for a
// statement that returns none, the rows it affected).
func collectRows(rows pgx.Rows, maxRows int) (Result, error) {
	defer rows.Close()
	var columns []string
	for _, f := range rows.FieldDescriptions() {
		columns = append(columns, f.Name)
	}
	out := []any{}
	truncated := false
	for rows.Next() {
		if len(out) == maxRows {
			truncated = true
			break
		}
		values, err := rows.Values()
		if err != nil {
			return Result{}, err
		}
		row := make(map[string]any, len(values))
		for i, v := range values {
			row[columns[i]] = jsonValue(v)
		}
		out = append(out, row)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Result{}, err
	}
	count := int64(len(out))
	if len(columns) == 0 {
		count = rows.CommandTag().RowsAffected()
	}
	return Result{
		Output:           map[string]any{"rows": out, "row_count": count, "truncated": truncated},
		ProviderResponse: map[string]any{"command": rows.CommandTag().String(), "columns": columns},
	}, nil
}

// jsonValue turns a value pgx decoded into one JSON keeps as it is.
func jsonValue(v any) any {
	switch v := v.(type) {
	case nil, bool, string, float64, float32, int64, int32, int16, int8, map[string]any, []any:
		return v // jsonb and json arrive decoded
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano)
	case pgtype.Numeric:
		if f, err := v.Float64Value(); err == nil && f.Valid {
			return f.Float64
		}
		return nil
	case [16]byte:
		return uuid.UUID(v).String()
	case []byte:
		return string(v)
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

// dbFailure classifies what the database or the way to it answered.
func dbFailure(ctx context.Context, err error, readOnly bool) error {
	if ctx.Err() == context.Canceled {
		return ctx.Err()
	}
	fail := func(class, code, key, next string, args Args) error {
		f := Failed(class, code, key, next, args)
		f.Provider = postgresProvider
		return f
	}
	var refused *egress.RefusedError
	if errors.As(err, &refused) {
		return fail(ClassValidation, "egress_refused", "db_egress_refused", "", Args{"egress_reason": refused.Reason})
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return fail(ClassTransient, "connection_failed", "db_unreachable", "", Args{"error": err.Error()})
	}
	const said = "db_answered"
	args := Args{"error": pgErr.Message, "status": pgErr.Code}
	switch {
	case pgErr.Code == "25006":
		return fail(ClassValidation, "read_only_transaction", said, "db_read_only.next", args)
	case pgErr.Code == "57014" && readOnly:
		return fail(ClassTransient, "statement_timeout", said, "db_slow.next", args)
	case pgErr.Code == "57014":
		return fail(ClassTimeoutUnknown, "statement_timeout", said, "db_took_effect.next", args)
	case strings.HasPrefix(pgErr.Code, "28"):
		return fail(ClassAuth, "database_auth_failed", said, "db_login.next", args)
	case strings.HasPrefix(pgErr.Code, "42"), strings.HasPrefix(pgErr.Code, "22"), strings.HasPrefix(pgErr.Code, "23"), pgErr.Code == "08P01":
		return fail(ClassValidation, "statement_refused", said, "db_statement.next", args)
	case strings.HasPrefix(pgErr.Code, "53"), strings.HasPrefix(pgErr.Code, "57"),
		strings.HasPrefix(pgErr.Code, "40"), strings.HasPrefix(pgErr.Code, "08"):
		return fail(ClassTransient, "database_busy", said, "retried.next", args)
	}
	return fail(ClassPermanent, "database_error", said, "db_check.next", args)
}

// boundedInt reads a whole number field from 1 to max; def when absent.
func boundedInt(m map[string]any, field string, def, max int) (int, error) {
	s, err := optionalString(m, field)
	if err != nil || s == "" {
		return def, err
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > max {
		return 0, invalidField(field, "field_whole_number", Args{"limit": strconv.Itoa(max)})
	}
	return n, nil
}
