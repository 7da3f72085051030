package duckdb

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
)

// reserved holds the DuckDB keywords that cannot stand unquoted as a
// column name in every position (duckdb_keywords() in DuckDB 1.5,
// categories 'reserved', 'type_function' and 'column_name': order, group,
// at, is, left, values, time, ...). A table or column with one of these
// names must be quoted, so TableName avoids them and quoteIdent quotes
// them.
var reserved = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`all analyse analyze and any array as asc
		asymmetric both case cast check collate column constraint create
		default deferrable desc describe distinct do else end except false
		fetch for foreign from group having in initially intersect into lambda
		lateral leading limit not null offset on only or order pivot
		pivot_longer pivot_wider placing primary qualify references returning
		select show some summarize symmetric table then to trailing true union
		unique unpivot using variadic when where window with

		anti asof at authorization binary by collation columns concurrently
		cross freeze full generated glob ilike inner is isnull join left like
		map natural notnull outer overlaps positional right semi similar struct
		tablesample try_cast unpack verbose

		between bigint bit boolean char character coalesce dec decimal exists
		extract float grouping grouping_id inout int integer interval national
		nchar none nullif numeric out overlay position precision real row setof
		smallint substring time timestamp treat trim values varchar
		xmlattributes xmlconcat xmlelement xmlexists xmlforest xmlnamespaces
		xmlparse xmlpi xmlroot xmlserialize xmltable`) {
		reserved[k] = true
	}
}

// maxIdentLen keeps generated names readable in prompts and reports.
const maxIdentLen = 63

// plainIdent reports whether s can appear in SQL without quotes.
func plainIdent(s string) bool {
	if s == "" || reserved[s] {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// SQL text is built from three kinds of pieces. Quarry's own constants
// (layouts, patterns, options) are written as literals by quoteString.
// Names of tables and columns are written by quoteIdent. Values that come
// from data or from a user (a CSV cell, a path, a pattern) go in as query
// parameters wherever DuckDB takes one, and are never spliced into the
// text; the one exception is a --time-format layout, which must be literal
// text inside the expression TimeColumn returns, and which TimeColumn
// checks first.
//
// DuckDB's parser cannot read a NUL byte in SQL text: the statement ends
// there and the error quotes the SQL around it. checkCSV refuses NUL
// anywhere in a CSV file and LoadFile refuses names holding one, so no
// loaded name has a NUL; the quoting functions still write U+FFFD in its
// place, so that whatever slips through fails as an unknown name or value
// rather than as a parse error of Quarry's own SQL.

// quoteIdent returns name as an SQL identifier, quoted only when needed so
// that generated SQL stays readable.
func quoteIdent(name string) string {
	if plainIdent(name) {
		return name
	}
	return `"` + strings.ReplaceAll(noNUL(name), `"`, `""`) + `"`
}

// quoteString returns s as an SQL string literal.
func quoteString(s string) string {
	return "'" + strings.ReplaceAll(noNUL(s), "'", "''") + "'"
}

// textList returns ss as a VARCHAR[] query parameter, or false when one of
// them is not valid UTF-8: the driver crashes the process on such a list
// (duckdb-go 2.10505 binds a NULL pointer), where it refuses a single
// such string cleanly. Text read from DuckDB or from a file checkCSV
// passed is always valid; the check is the last line.
func textList(ss []string) ([]string, bool) {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return nil, false
		}
	}
	return ss, true
}

// noNUL returns s with every NUL byte replaced by U+FFFD.
func noNUL(s string) string {
	if strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}

// TableName derives a table name from an uploaded file's name: the base
// name without extension, lower-cased, with every run of characters other
// than a-z and 0-9 turned into one underscore ("Orders 2024.csv" ->
// "orders_2024"). Names that would start with a digit get a "t_" prefix,
// reserved words get a "_data" suffix, an empty result becomes "data", and
// a name already in taken (compared lower-case) gets "_2", "_3", ... The
// result is always a plain identifier that needs no quoting.
func TableName(fileName string, taken map[string]bool) string {
	base := filepath.Base(fileName)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	name := strings.TrimRight(b.String(), "_")
	if name == "" {
		name = "data"
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "t_" + name
	}
	if len(name) > maxIdentLen-8 { // room for a suffix
		name = strings.TrimRight(name[:maxIdentLen-8], "_")
	}
	if reserved[name] {
		name += "_data"
	}
	isTaken := func(n string) bool {
		for k := range taken {
			if strings.EqualFold(k, n) {
				return true
			}
		}
		return false
	}
	if !isTaken(name) {
		return name
	}
	for i := 2; ; i++ {
		n := name + "_" + strconv.Itoa(i)
		if !isTaken(n) {
			return n
		}
	}
}

// tableNameHint tells how file names become table names, for errors that
// name a table that does not exist.
const tableNameHint = "each file is a table named after it: lower case, every run of other characters than a-z and 0-9 becomes _, " +
	"a name starting with a digit gets t_ (2014_q4.csv is t_2014_q4), and an SQL keyword gets _data (order.csv is order_data)"

// withQuoteHint adds a hint to a syntax error when the SQL names, without
// quotes, a loaded column whose name is an SQL keyword or is not a plain
// identifier (order, group, at, "Unit Price").
func (e *Engine) withQuoteHint(err *quarry.Error, sqlText string) *quarry.Error {
	var need []string
	seen := map[string]bool{}
	lower := strings.ToLower(sqlText)
	words := bareWords(lower)
	for _, name := range e.tableNames() {
		t, ok := e.lookup(name)
		if !ok {
			continue
		}
		for _, c := range t.Columns {
			if plainIdent(c.Name) || seen[c.Name] {
				continue
			}
			// A name mentioned bare starts with one of the text's bare
			// words; looking that up first keeps thousands of columns
			// from each scanning the whole text.
			col := strings.ToLower(c.Name)
			first := col[:len(col)-len(strings.TrimLeftFunc(col, func(r rune) bool { return r < 0x80 && wordByte(byte(r)) || r >= 0x80 }))]
			if first != "" && !words[first] {
				continue
			}
			if mentionsBare(lower, col) {
				seen[c.Name] = true
				need = append(need, quoteIdent(c.Name))
			}
		}
	}
	if len(need) == 0 {
		return err
	}
	return err.WithHint("quote column names that are SQL keywords or hold other characters in double quotes: " + strings.Join(need, ", "))
}

// mentionsBare reports whether word occurs in sql as a whole word outside
// double quotes and string literals.
func mentionsBare(sql, word string) bool {
	var quote byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '"' || c == '\'' {
			quote = c
			continue
		}
		if strings.HasPrefix(sql[i:], word) && (i == 0 || !wordByte(sql[i-1])) &&
			(i+len(word) == len(sql) || !wordByte(sql[i+len(word)])) {
			return true
		}
	}
	return false
}

// bareWords returns the runs of word bytes in sql outside double quotes
// and string literals, as mentionsBare sees them.
func bareWords(sql string) map[string]bool {
	words := map[string]bool{}
	var quote byte
	start := -1
	for i := 0; i <= len(sql); i++ {
		var c byte
		if i < len(sql) {
			c = sql[i]
		}
		if quote == 0 && i < len(sql) && wordByte(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			words[sql[start:i]] = true
			start = -1
		}
		if i == len(sql) {
			break
		}
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		}
	}
	return words
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}
