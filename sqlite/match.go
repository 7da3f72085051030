package sqlite

import (
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry/retrieve"
)

// searchExpr returns the FTS5 query for searching scope for text: the
// terms of text (see termsExpr), narrowed to the scope's rows when
// scopeExpr can. It returns "" when text has no searchable words.
func searchExpr(scope, text string) string {
	terms := termsExpr(text)
	if terms == "" {
		return ""
	}
	if s := scopeExpr(scope); s != "" {
		return s + " AND (" + terms + ")"
	}
	return terms
}

// termsExpr turns any text into an FTS5 query that cannot fail to parse:
// the terms of retrieve.Terms, widened by retrieve.Expand, each quoted as a
// string and joined with OR. Quoting makes FTS5 operators in the text
// (NEAR, AND, *, -, ^, parentheses, column filters) plain words, and a
// term the tokenizer splits ("app_version", "5.2") becomes a phrase that
// matches those tokens side by side. It returns "" when the text has no
// searchable words.
func termsExpr(text string) string {
	terms := retrieve.Expand(retrieve.Terms(text))
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = quote(t)
	}
	return strings.Join(quoted, " OR ")
}

// scopeExpr returns an FTS5 expression matching the rows whose scope
// column holds the tokens of scope, or "" when scope has no letter or digit
// for the tokenizer to index. It narrows, it does not decide: a scope "a"
// also matches the rows of a scope "a-b", so callers still compare the
// scope exactly.
func scopeExpr(scope string) string {
	if strings.IndexFunc(scope, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return ""
	}
	return "scope : " + quote(scope)
}

// quote returns s as an FTS5 string.
func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
