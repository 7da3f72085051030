package duckdb

import (
	"path/filepath"
	"strconv"
	"strings"
)

// reserved holds DuckDB's reserved keywords (duckdb_keywords() with
// keyword_category 'reserved' in DuckDB 1.5). A table or column with one of
// these names must be quoted, so TableName avoids them.
var reserved = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`all analyse analyze and any array as asc
		asymmetric both case cast check collate column constraint create
		default deferrable desc describe distinct do else end except false
		fetch for foreign from group having in initially intersect into lambda
		lateral leading limit not null offset on only or order pivot
		pivot_longer pivot_wider placing primary qualify references returning
		select show some summarize symmetric table then to trailing true union
		unique unpivot using variadic when where window with`) {
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

// quoteIdent returns name as an SQL identifier, quoted only when needed so
// that generated SQL stays readable.
func quoteIdent(name string) string {
	if plainIdent(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
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
