package analyze

import (
	"regexp"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
)

// fuzzInput is a step with three numeric columns, one with a space and
// one with a double quote in its name, and a text column.
var fuzzInput = &output{table: "step_rows", columns: []quarry.Column{
	{Name: "a", DataType: quarry.TypeFloat}, {Name: "b c", DataType: quarry.TypeInteger},
	{Name: `q"x`, DataType: quarry.TypeFloat}, {Name: "t", DataType: quarry.TypeString},
}}

// exprAtoms are what a compiled expression may hold besides operators,
// parentheses and spaces: a number literal or a numeric column, each cast
// to DOUBLE.
var exprAtoms = regexp.MustCompile(`CAST\('[-+0-9.e]+' AS DOUBLE\)|CAST\("a" AS DOUBLE\)|CAST\("b c" AS DOUBLE\)|CAST\("q""x" AS DOUBLE\)`)

// FuzzCompileExpression: a feature's expression never panics, and what it
// compiles to is numbers, the input's numeric columns, + - * / and
// parentheses, nothing else, whatever the user wrote.
func FuzzCompileExpression(f *testing.F) {
	for _, s := range []string{"a + 1", `("b c" * 2) / a`, `"q""x"`, `-(-a)`, "1e3 - .5", "a; DROP TABLE x", "t + 1",
		"((((a))))", "a +", "'a'", `"unterminated`, "1e999", "a/0", "__", "é + a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		sql, err := compileExpression(expr, fuzzInput, "rows")
		if err != nil {
			if quarry.ErrorCode(err) != quarry.ECodeInvalid {
				t.Fatalf("%q: %v; want INVALID", expr, err)
			}
			return
		}
		rest := exprAtoms.ReplaceAllString(sql, "")
		if strings.Trim(rest, "()+-*/ ") != "" {
			t.Fatalf("%q compiled to %s, which holds %q", expr, sql, rest)
		}
	})
}
