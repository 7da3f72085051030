package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"slices"
	"strings"

	sqlite3 "modernc.org/sqlite"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// Scans says what query reads, for the analyses' column policy, from
// SQLite's own resolution of it: while the statement compiles, SQLite asks
// the connection's authorizer about each column of each table it will read
// (SQLITE_READ), after stars, views, aliases, USING and subqueries are
// resolved, so the answer does not depend on the names in the text. The
// one exception is a join's USING or NATURAL, whose columns SQLite
// compares without asking: such a query is refused (FORBIDDEN) before it
// compiles, to be written with ON. A read
// of anything but the database's own tables and views (sqlite_schema,
// sqlite_dbpage, a pragma's table) is reported as opaque, which the
// policy refuses. The statement is compiled, never run. Errors: FORBIDDEN
// for more than one statement or a USING or NATURAL join, INVALID with SQLite's words for a query
// that does not compile, ctx.Err() when ctx ends.
func (s *Source) Scans(ctx context.Context, q string) ([]analysis.Scan, error) {
	if err := analysis.OneStatement(q); err != nil {
		return nil, err
	}
	if w := joinWord(q); w != "" {
		return nil, quarry.Errorf(quarry.ECodeForbidden, "SQLite does not report the columns a %s join compares, so it cannot be checked against the allowed columns", w).
			WithHint("write the join with ON, naming the columns")
	}
	own, err := s.tableNames(ctx)
	if err != nil {
		return nil, s.queryError(ctx, err)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, s.queryError(ctx, err)
	}
	defer conn.Close()
	var scans []analysis.Scan
	byTable := map[string]int{}
	record := func(action sqlite3.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite3.AuthorizerReturnCode {
		switch action {
		case sqlite3.AuthRead:
			if !slices.Contains(own, arg1) || strings.HasPrefix(strings.ToLower(arg1), "sqlite_") {
				scans = append(scans, analysis.Scan{Opaque: "the table " + arg1})
				return sqlite3.AuthorizerOK
			}
			i, ok := byTable[arg1]
			if !ok {
				i = len(scans)
				byTable[arg1] = i
				scans = append(scans, analysis.Scan{Table: arg1, Columns: []string{}})
			}
			// An empty name is the row id, as count(*) reads it.
			if arg2 != "" && !slices.Contains(scans[i].Columns, arg2) {
				scans[i].Columns = append(scans[i].Columns, arg2)
			}
		case sqlite3.AuthPragma:
			scans = append(scans, analysis.Scan{Opaque: "the pragma " + arg1})
		}
		return sqlite3.AuthorizerOK
	}
	if err := setAuthorizer(conn.Raw, record); err != nil {
		return nil, err
	}
	// The authorizer stays on the physical connection until removed:
	// removing it is the condition for returning the connection to the pool.
	defer func() {
		if err := setAuthorizer(conn.Raw, nil); err != nil {
			conn.Raw(func(any) error { return errBadConn })
		}
	}()
	stmt, err := conn.PrepareContext(ctx, q)
	if err != nil {
		return nil, s.queryError(ctx, err)
	}
	stmt.Close()
	return scans, nil
}

// errBadConn makes database/sql discard a connection rather than pool it.
var errBadConn = fmt.Errorf("sqlite: connection left with an authorizer: %w", driver.ErrBadConn)

func setAuthorizer(raw func(func(any) error) error, fn sqlite3.AuthorizerFn) error {
	return raw(func(dc any) error {
		reg, ok := dc.(sqlite3.AuthorizerRegisterer)
		if !ok {
			return quarry.Errorf(quarry.ECodeForbidden, "this SQLite driver cannot say which columns a query reads")
		}
		return reg.RegisterAuthorizer(fn)
	})
}

// joinWord returns "USING" or "NATURAL" when q holds that keyword outside
// string literals, quoted names and comments, else "".
func joinWord(q string) string {
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			j := strings.IndexByte(q[i+1:], end)
			if j < 0 {
				return ""
			}
			i += j + 2
		case strings.HasPrefix(q[i:], "--"):
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				return ""
			}
			i += j + 1
		case strings.HasPrefix(q[i:], "/*"):
			j := strings.Index(q[i+2:], "*/")
			if j < 0 {
				return ""
			}
			i += j + 4
		case isWordByte(c):
			j := i
			for j < len(q) && isWordByte(q[j]) {
				j++
			}
			if w := strings.ToUpper(q[i:j]); w == "USING" || w == "NATURAL" {
				return w
			}
			i = j
		default:
			i++
		}
	}
	return ""
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
