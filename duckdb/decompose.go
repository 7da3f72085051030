package duckdb

import (
	"math"
	"strings"

	"github.com/quarry-dev/quarry/investigation"
)

// decomposed is a metric expression split into Scale * num / den.
type decomposed struct {
	kind     string
	scale    float64
	num, den node // den nil for sum, count and count_distinct
	distinct node // the counted expression of COUNT(DISTINCT ...)
	filter   node // its FILTER condition, if any
	row      node // num's value on one row, when num is SUM of it (plainSum)
}

// Aggregates that add up over disjoint groups when not DISTINCT.
var additiveAggs = map[string]bool{"sum": true, "count": true, "count_star": true}

// decompose splits the metric's select expression. Errors:
// UNSUPPORTED_METRIC naming the part that does not decompose.
func decompose(expr node) (*decomposed, error) {
	inner, scale, err := peel(expr)
	if err != nil {
		return nil, err
	}
	d := &decomposed{scale: scale}
	fn := strings.ToLower(str(inner, "function_name"))
	switch {
	case isBinary(inner, "/"):
		kids := list(inner, "children")
		num, ns, err := peel(kids[0])
		if err != nil {
			return nil, err
		}
		den, ds, err := peel(kids[1])
		if err != nil {
			return nil, err
		}
		if err := additive(num); err != nil {
			return nil, err
		}
		if err := additive(den); err != nil {
			return nil, err
		}
		d.kind, d.num, d.den, d.scale = investigation.MetricRatio, num, den, scale*ns/ds
	case str(inner, "class") == "FUNCTION" && (fn == "avg" || fn == "mean") && !isDistinct(inner):
		if len(list(inner, "children")) != 1 {
			return nil, unsupported("AVG takes one argument")
		}
		sum, count := clone(inner).(node), clone(inner).(node)
		sum["function_name"], count["function_name"] = "sum", "count"
		d.kind, d.num, d.den = investigation.MetricAverage, sum, count
	case str(inner, "class") == "FUNCTION" && fn == "count" && isDistinct(inner):
		kids := list(inner, "children")
		if len(kids) != 1 {
			return nil, unsupported("COUNT(DISTINCT ...) takes one expression")
		}
		d.kind, d.num, d.distinct, d.filter = investigation.MetricDistinct, inner, kids[0], obj(inner, "filter")
	default:
		if err := additive(inner); err != nil {
			return nil, err
		}
		d.kind, d.num, d.row = investigation.MetricSum, inner, plainSum(inner)
		if countsOnly(inner) {
			d.kind = investigation.MetricCount
		}
	}
	if math.IsInf(d.scale, 0) || math.IsNaN(d.scale) || d.scale == 0 {
		return nil, unsupported("the constant factor of the metric is zero or not finite")
	}
	return d, nil
}

// peel strips what lies between the top of an expression and its
// aggregates without changing which rows count: casts, NULLIF(x, c),
// COALESCE(x, c), unary signs, and multiplication or division by
// constants, which it returns as a factor.
func peel(x node) (node, float64, error) {
	scale := 1.0
	for {
		if x == nil {
			return nil, 0, unsupported("the metric has an empty expression")
		}
		if _, ok := constant(x); ok {
			return nil, 0, unsupported("the metric must be an aggregate, not a constant")
		}
		kids := list(x, "children")
		fn := strings.ToLower(str(x, "function_name"))
		switch {
		case str(x, "class") == "CAST" && numericType(obj(x, "cast_type")):
			x = obj(x, "child")
		case str(x, "class") == "FUNCTION" && fn == "nullif" && len(kids) == 2 && isConst(kids[1]):
			x = kids[0]
		case str(x, "type") == "OPERATOR_COALESCE" && len(kids) == 2 && isConst(kids[1]):
			x = kids[0] // COALESCE and IFNULL
		case isUnary(x, "-"):
			scale, x = -scale, kids[0]
		case isUnary(x, "+"):
			x = kids[0]
		case isBinary(x, "*") && isConst(kids[0]):
			c, _ := constant(kids[0])
			scale, x = scale*c, kids[1]
		case isBinary(x, "*") && isConst(kids[1]):
			c, _ := constant(kids[1])
			scale, x = scale*c, kids[0]
		case isBinary(x, "/") && isConst(kids[1]):
			c, _ := constant(kids[1])
			if c == 0 {
				return nil, 0, unsupported("the metric divides by zero")
			}
			scale, x = scale/c, kids[0]
		default:
			return x, scale, nil
		}
	}
}

// additive checks that x adds up over disjoint groups: SUM and COUNT
// aggregates (with FILTER, CASE or anything row-level inside), their sums
// and differences, and constant multiples of those.
func additive(x node) error {
	x, _, err := peel(x)
	if err != nil {
		return err
	}
	kids := list(x, "children")
	fn := strings.ToLower(str(x, "function_name"))
	switch {
	case isBinary(x, "+") || isBinary(x, "-"):
		if err := additive(kids[0]); err != nil {
			return err
		}
		return additive(kids[1])
	case str(x, "class") != "FUNCTION":
		return unsupported("the metric must be built from aggregates; %s is not one", describe(x))
	case additiveAggs[fn] && isDistinct(x):
		if fn == "count" {
			return unsupported("COUNT(DISTINCT ...) can only be the whole metric, not part of a ratio or sum")
		}
		return unsupported("%s(DISTINCT ...) does not add up across segments", strings.ToUpper(fn))
	case additiveAggs[fn]:
		return nil
	case fn == "avg" || fn == "mean":
		return unsupported("AVG can only be the whole metric; write SUM(x) / COUNT(x) to combine it")
	case knownAggregate(fn):
		return unsupported("%s does not add up across segments, so Quarry cannot explain its change", strings.ToUpper(fn))
	}
	if is, _ := x["is_operator"].(bool); is {
		return unsupported("the operator %s between aggregates is not supported; a metric may divide once (A / B) and add or subtract aggregates", fn)
	}
	return unsupported("%s(...) around or between aggregates is not supported", strings.ToUpper(fn))
}

// plainSum returns x's argument when x is SUM of one expression, without
// DISTINCT, FILTER or ORDER BY: the SUM of one row is that row's value.
func plainSum(x node) node {
	kids := list(x, "children")
	if str(x, "class") != "FUNCTION" || strings.ToLower(str(x, "function_name")) != "sum" || len(kids) != 1 ||
		isDistinct(x) || obj(x, "filter") != nil || len(list(obj(x, "order_bys"), "orders")) > 0 {
		return nil
	}
	return kids[0]
}

// countsOnly reports whether every aggregate under x is a COUNT.
func countsOnly(x node) bool {
	only := true
	walk(x, func(n node) {
		if str(n, "class") == "FUNCTION" && strings.ToLower(str(n, "function_name")) == "sum" {
			only = false
		}
	})
	return only
}

// knownAggregate lists aggregates that are not sum-decomposable, for a
// clearer message than "not supported".
func knownAggregate(fn string) bool {
	switch fn {
	case "min", "max", "median", "mode", "first", "last", "any_value", "arg_min", "arg_max", "argmin", "argmax",
		"min_by", "max_by", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
		"product", "string_agg", "list", "array_agg", "bool_and", "bool_or", "entropy", "kurtosis", "skewness",
		"corr", "covar_pop", "covar_samp", "histogram", "approx_count_distinct", "geomean", "favg", "bit_and", "bit_or":
		return true
	}
	return strings.HasPrefix(fn, "quantile") || strings.HasPrefix(fn, "percentile") ||
		strings.HasPrefix(fn, "approx_") || strings.HasPrefix(fn, "regr_") || strings.HasPrefix(fn, "reservoir_")
}

func describe(x node) string {
	switch str(x, "class") {
	case "COLUMN_REF":
		if names, ok := x["column_names"].([]any); ok && len(names) > 0 {
			parts := make([]string, len(names))
			for i, n := range names {
				parts[i], _ = n.(string)
			}
			return "column " + strings.Join(parts, ".")
		}
		return "a column"
	case "CASE":
		return "a CASE expression outside an aggregate"
	}
	kind := strings.ToLower(strings.ReplaceAll(str(x, "class"), "_", " "))
	if kind == "" {
		return "an expression"
	}
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind + " expression"
	}
	return "a " + kind + " expression"
}

func isDistinct(x node) bool {
	b, _ := x["distinct"].(bool)
	return b
}

func isBinary(x node, op string) bool {
	return str(x, "class") == "FUNCTION" && str(x, "function_name") == op && len(list(x, "children")) == 2
}

func isUnary(x node, op string) bool {
	return str(x, "class") == "FUNCTION" && str(x, "function_name") == op && len(list(x, "children")) == 1
}

func isConst(x node) bool {
	_, ok := constant(x)
	return ok
}

// constant evaluates a numeric constant expression: literals, casts of
// literals, unary minus and * / + - between constants.
func constant(x node) (float64, bool) {
	switch str(x, "class") {
	case "CONSTANT":
		v := obj(x, "value")
		if null, _ := v["is_null"].(bool); null {
			return 0, false
		}
		t := obj(v, "type")
		f, ok := number(v["value"])
		if !ok {
			return 0, false
		}
		switch str(t, "id") {
		case "DECIMAL":
			s, _ := number(obj(t, "type_info")["scale"])
			return f / math.Pow(10, s), true
		case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "FLOAT", "DOUBLE":
			return f, true
		}
		return 0, false
	case "CAST":
		if !numericType(obj(x, "cast_type")) {
			return 0, false
		}
		return constant(obj(x, "child"))
	case "FUNCTION":
		kids := list(x, "children")
		if len(kids) == 1 && str(x, "function_name") == "-" {
			c, ok := constant(kids[0])
			return -c, ok
		}
		if len(kids) != 2 {
			return 0, false
		}
		a, ok1 := constant(kids[0])
		b, ok2 := constant(kids[1])
		if !ok1 || !ok2 {
			return 0, false
		}
		switch str(x, "function_name") {
		case "*":
			return a * b, true
		case "/":
			if b == 0 {
				return 0, false
			}
			return a / b, true
		case "+":
			return a + b, true
		case "-":
			return a - b, true
		}
	}
	return 0, false
}

// numericType reports whether a cast target is a number type.
func numericType(t node) bool {
	switch str(t, "id") {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
		"UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL":
		return true
	}
	return false
}
