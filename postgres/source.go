// Package postgres queries a PostgreSQL database in place for an analysis
// (analysis.Source): every query runs alone in a read-only transaction
// bounded by its context, and no more than the row limit comes back.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

const (
	// ConnectTimeout bounds OpenSource's first connection.
	ConnectTimeout = 5 * time.Second
	// DefaultTimeout bounds a statement whose context has no deadline.
	DefaultTimeout = 30 * time.Second
	// cancelMargin is how much earlier than its context's deadline the
	// server cancels a statement.
	cancelMargin = 50 * time.Millisecond
	// maxConns is the pool's size: an analysis runs two steps at once.
	maxConns = 2
)

// connectTimeout is ConnectTimeout, shorter in tests.
var connectTimeout = ConnectTimeout

// Source is a PostgreSQL database an analysis queries in place.
type Source struct {
	pool *pgxpool.Pool
	// name is the database's name, the prefix of query errors.
	name string
	// StatementTimeout bounds a statement whose context has no deadline;
	// DefaultTimeout when 0.
	StatementTimeout time.Duration
}

var _ analysis.Source = (*Source)(nil)

// OpenSource connects to the database of dsn (a postgres:// URL or a
// key=value string) and checks that it answers within ConnectTimeout.
// Errors, which never show the password: INVALID for a connection string
// that cannot be read or credentials the server refuses, NOT_FOUND for a
// database or host that does not exist, UNAVAILABLE for a server that
// cannot be reached.
func OpenSource(ctx context.Context, dsn string) (*Source, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the PostgreSQL connection string %s is not valid: %s", Mask(dsn), scrub(parseDetail(err), dsn)).
			WithHint("write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE")
	}
	cfg.MaxConns = maxConns
	cfg.MinConns = 0
	cc := cfg.ConnConfig
	if cc.ConnectTimeout == 0 || cc.ConnectTimeout > connectTimeout {
		cc.ConnectTimeout = connectTimeout
	}
	// Nothing is kept on the server between queries (no named prepared
	// statements); each query is parsed, described and run.
	cc.DefaultQueryExecMode = pgx.QueryExecModeDescribeExec
	setDefault(cc.RuntimeParams, "application_name", "quarry")
	// Dates and times come back in UTC, as the rest of quarry reads them.
	setDefault(cc.RuntimeParams, "timezone", "UTC")
	// Belt and braces: a transaction the query could start is read-only too.
	cc.RuntimeParams["default_transaction_read_only"] = "on"

	where := fmt.Sprintf("%s:%d/%s", cc.Host, cc.Port, cc.Database)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "the PostgreSQL connection string %s is not valid: %s", Mask(dsn), scrub(err.Error(), dsn))
	}
	pctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, connectError(err, where, cc.User, dsn)
	}
	name := cc.Database
	if name == "" {
		name = "postgres"
	}
	return &Source{pool: pool, name: name}, nil
}

func setDefault(m map[string]string, k, v string) {
	for key := range m {
		if strings.EqualFold(key, k) {
			return
		}
	}
	m[k] = v
}

// parseDetail is what is wrong with a connection string, without the
// string itself (pgconn repeats it, masked best-effort).
func parseDetail(err error) string {
	if u := errors.Unwrap(err); u != nil {
		return u.Error()
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "cannot parse `"); ok {
		if _, detail, ok := strings.Cut(rest, "`: "); ok {
			return detail
		}
	}
	return msg
}

// connectError says why the first connection failed, with the server's own
// words where it gave some.
func connectError(err error, where, user, dsn string) error {
	var pe *pgconn.PgError
	var dns *net.DNSError
	var op *net.OpError
	msg := func(detail string) string {
		return fmt.Sprintf("cannot connect to PostgreSQL at %s as %s: %s", where, strconv.Quote(user), scrub(detail, dsn))
	}
	switch {
	case errors.As(err, &pe):
		switch pe.Code {
		case "3D000": // invalid_catalog_name
			return quarry.Errorf(quarry.ECodeNotFound, "%s", msg(pe.Message)).WithHint("check the database name in the connection string")
		case "28P01", "28000": // invalid_password, invalid_authorization_specification
			return quarry.Errorf(quarry.ECodeInvalid, "%s", msg(pe.Message)).WithHint("check the user name and password in the connection string")
		case "53300", "57P03": // too_many_connections, cannot_connect_now
			return quarry.Errorf(quarry.ECodeUnavailable, "%s", msg(pe.Message)).WithHint("try again later")
		}
		return quarry.Errorf(quarry.ECodeInvalid, "%s", msg(pe.Message))
	case errors.As(err, &dns) && dns.IsNotFound:
		return quarry.Errorf(quarry.ECodeNotFound, "%s", msg("no such host "+dns.Name)).WithHint("check the host name in the connection string")
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return quarry.Errorf(quarry.ECodeUnavailable, "%s", msg(fmt.Sprintf("no answer within %s", connectTimeout))).
			WithHint("check the host and port, and that the server accepts connections from here")
	case errors.As(err, &op):
		return quarry.Errorf(quarry.ECodeUnavailable, "%s", msg(op.Err.Error())).
			WithHint("check the host and port, and that the server is running")
	}
	return quarry.Errorf(quarry.ECodeUnavailable, "%s", msg(err.Error()))
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// Dialect implements analysis.Source.
func (s *Source) Dialect() string { return "postgres" }

// Close implements analysis.Source.
func (s *Source) Close() error {
	s.pool.Close()
	return nil
}

// readOnly runs fn in a read-only transaction whose statements time out
// with ctx's deadline (DefaultTimeout without one), and rolls it back:
// nothing a query does, a SET included, outlives it.
func (s *Source) readOnly(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) error) error {
	return s.rolledBack(ctx, pgx.ReadOnly, fn)
}

// rolledBack runs fn in a transaction of the access mode whose statements
// time out with ctx's deadline (DefaultTimeout without one), and always
// rolls it back.
func (s *Source) rolledBack(ctx context.Context, mode pgx.TxAccessMode, fn func(ctx context.Context, tx pgx.Tx) error) error {
	timeout := s.timeout()
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
		if timeout <= 0 {
			return context.DeadlineExceeded
		}
		// The server cancels the statement a little before the context
		// would break the connection, which is then kept.
		if timeout > 4*cancelMargin {
			timeout -= cancelMargin
		}
	} else {
		// The server's timeout cancels the statement; this one, a little
		// later, a connection that stopped answering.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout+ConnectTimeout)
		defer cancel()
	}
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: mode})
	if err != nil {
		return err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ConnectTimeout)
		defer cancel()
		tx.Rollback(rctx)
	}()
	ms := max(timeout.Milliseconds(), 1)
	if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = "+strconv.FormatInt(ms, 10), pgx.QueryExecModeSimpleProtocol); err != nil {
		return err
	}
	return fn(ctx, tx)
}

func (s *Source) timeout() time.Duration {
	if s.StatementTimeout > 0 {
		return s.StatementTimeout
	}
	return DefaultTimeout
}

// Query implements analysis.Source: one statement that reads, in a
// read-only transaction, at most limit rows. More rows is an INVALID
// error, not a silently cut result; a statement that writes is FORBIDDEN.
// PostgreSQL's own message is kept (`column "amont" does not exist`), with
// its hint, for the analysis to classify and repair by.
func (s *Source) Query(ctx context.Context, q string, limit int) (*quarry.QueryResult, error) {
	if err := checkStatement(q); err != nil {
		return nil, err
	}
	var res *quarry.QueryResult
	err := s.readOnly(ctx, func(ctx context.Context, tx pgx.Tx) error {
		// Cancelled when the limit is passed, so that the rest of a big
		// result is not read (the connection is dropped instead).
		qctx, cancel := context.WithCancel(ctx)
		defer cancel()
		rows, err := tx.Query(qctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		fields := rows.FieldDescriptions()
		res = &quarry.QueryResult{Columns: make([]string, len(fields)), Rows: [][]any{}}
		for i, f := range fields {
			res.Columns[i] = f.Name
		}
		for rows.Next() {
			if len(res.Rows) >= limit {
				cancel()
				return analysis.RowLimitError(limit)
			}
			vals, err := rows.Values()
			if err != nil {
				return err
			}
			for i, v := range vals {
				vals[i] = value(v)
			}
			res.Rows = append(res.Rows, vals)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, s.queryError(ctx, err)
	}
	return res, nil
}

// queryError keeps PostgreSQL's words and its hint (`function sum(text)
// does not exist (No function matches the given name and argument
// types...)`), which the analysis classifies and repairs by.
func (s *Source) queryError(ctx context.Context, err error) error {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "57014" && strings.Contains(pe.Message, "statement timeout") {
		if _, ok := ctx.Deadline(); ok {
			// The timeout was the context's deadline, a moment early.
			return context.DeadlineExceeded
		}
	}
	if !errors.As(err, &pe) {
		if errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return quarry.Errorf(quarry.ECodeUnavailable, "%s: PostgreSQL did not answer: %w", s.name, err)
	}
	msg := pe.Message
	if pe.Hint != "" {
		// In the message, where the analysis reads it.
		msg += " (" + pe.Hint + ")"
	}
	e := quarry.Errorf(quarry.ECodeInvalid, "%s: %s", s.name, msg)
	switch {
	case pe.Code == "25006": // read_only_sql_transaction
		e = quarry.Errorf(quarry.ECodeForbidden, "%s: only read-only queries are allowed: %s", s.name, msg)
	case pe.Code == "42501": // insufficient_privilege
		e.Code = quarry.ECodeForbidden
	case pe.Code == "57014": // query_canceled: the statement timeout
		e.Hint = fmt.Sprintf("filter or aggregate more, or allow more than %s", s.timeout())
	case strings.HasPrefix(pe.Code, "08"), pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03":
		e.Code = quarry.ECodeUnavailable
	}
	return e
}
