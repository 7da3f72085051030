package analysis

import (
	"context"
	"fmt"
	"strings"

	"github.com/quarry-dev/quarry"
)

// Names repeat: a table of counties has a "Washington County" in thirty
// states, a register of people two "John Smith"s. Grouping by the name
// alone adds up different things that share it, so "which county has the
// highest rate" would answer with an average of thirty counties.
// QualifyLabels finds the column that tells such namesakes apart.

// MaxQualifyRows bounds the tables QualifyLabels reads: each label costs
// a scan per candidate column.
const MaxQualifyRows = 1_000_000

// maxQualifierValues is the most values a column telling namesakes apart
// may have: a state, a region, a city, not another name.
const maxQualifierValues = 100

// QualifyLabels sets Within on each text column of t that labels rows
// but repeats: more than half of its rows hold a value of their own, some
// share one, and one text column that says where the thing is (a state,
// a region; with fewer values than the label has, and at most half the
// rows; the one with fewest that works) makes the pair unique over the
// rows. A table with a date has events for rows, not things, and is left
// alone. Columns that look like
// identifiers or codes are left alone: an order number repeating over the
// lines of an order is one order. count answers a query that returns one
// integer; from is the table as a query names it. A failing count leaves
// the column as it is.
func QualifyLabels(ctx context.Context, t *SourceTable, from string, quote func(string) string,
	count func(ctx context.Context, query string) (int64, error)) {
	if t.Rows <= 1 || t.Rows > MaxQualifyRows {
		return
	}
	var quals []int
	for i, c := range t.Columns {
		if c.Type == quarry.TypeDate || c.Type == quarry.TypeDatetime || c.Type == "timestamp" {
			return // a dated row is an event: a customer of two orders is one customer
		}
		if c.Type == quarry.TypeString && len(c.Values) >= 2 && len(c.Values) <= maxQualifierValues && placeLike(c.Name) {
			quals = append(quals, i)
		}
	}
	if len(quals) == 0 {
		return
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Type != quarry.TypeString || identifierLike(c.Name) {
			continue
		}
		l := quote(c.Name)
		n, err := count(ctx, fmt.Sprintf("SELECT count(%s) FROM %s", l, from))
		if err != nil || n < 2 {
			continue
		}
		d, err := count(ctx, fmt.Sprintf("SELECT count(DISTINCT %s) FROM %s", l, from))
		if err != nil || d >= n || 2*d < n {
			continue
		}
		best := -1
		for _, q := range quals {
			nq := int64(len(t.Columns[q].Values))
			if q == i || nq >= d || 2*nq > n || best >= 0 && len(t.Columns[q].Values) >= len(t.Columns[best].Values) {
				continue // a state has many counties; a key makes any pair unique
			}
			pairs, err := count(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT DISTINCT %s, %s FROM %s WHERE %s IS NOT NULL) AS pairs",
				l, quote(t.Columns[q].Name), from, l))
			if err == nil && pairs == n {
				best = q
			}
		}
		if best >= 0 {
			c.Within = t.Columns[best].Name
		}
	}
}

// placeLike reports whether a column's name says where or under what a
// thing is: a state, a country, a region, a department, a league. Such a
// column tells namesakes apart; a book title beside a customer does not.
func placeLike(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == ' ' || r == '-' || r == '.' }) {
		switch w {
		case "state", "st", "states", "province", "prov", "country", "ctry", "cntry", "nation", "region", "rgn", "reg",
			"county", "cty", "city", "town", "district", "dist", "continent", "territory", "dept", "department",
			"division", "div", "league", "conference", "conf", "parent", "area", "zone", "borough", "municipality", "canton":
			return true
		}
	}
	return false
}

// identifierLike reports whether a column's name says it holds an
// identifier or a code rather than a name: order_id, CustomerID, sku,
// zip_code, fips.
func identifierLike(name string) bool {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == ' ' || r == '-' || r == '.' })
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	if strings.HasSuffix(last, "ID") || strings.HasSuffix(last, "Id") {
		return true
	}
	switch strings.ToLower(last) {
	case "id", "no", "nr", "num", "number", "code", "cd", "key", "sku", "uuid", "zip", "fips", "isbn":
		return true
	}
	return false
}
