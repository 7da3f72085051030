package duckdb

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/quarry-dev/quarry"
)

// colProfile is the profile of one column that the role rules read.
type colProfile struct {
	Name     string
	Type     string // a quarry.Type constant
	Rows     int64
	NonNull  int64
	Distinct int64
	Samples  []string
	Min, Max float64
	HasMin   bool
}

// Name parts that mark a number as a category rather than a quantity.
var codeWords = wordSet(`zip zipcode postal postcode year yr month week quarter qtr
	day weekday dow hour code type status category cat level tier class
	group segment grade version cohort bucket band region store
	area district dept department`)

// Name parts that mark a number as a quantity to add up.
var measureWords = wordSet(`amount amt revenue price cost costs qty quantity
	units unit total sales value spend profit margin discount fee fees tax
	score rating duration seconds secs minutes mins hours weight balance
	income clicks impressions visits sessions views orders count cnt num
	items converted conversions gmv arr mrr pct percent rate`)

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$`)

// role decides a column's quarry role. The rules, first match wins:
//
//  1. DATE and TIMESTAMP columns are timestamps.
//  2. A key-like name (id, *_id, *Id, *_key, *_uuid, uuid, guid) is an id,
//     unless it has at most 20 values repeated across many rows
//     (store_id with 5 stores is better used as a dimension).
//  3. Booleans are dimensions.
//  4. Integer 0/1 columns (converted, is_refund) are measures: summing a
//     flag counts the rows that have it, and averaging it gives a rate.
//  5. Numbers whose name says category (year, month, zip, *_code, status,
//     tier, ...) are dimensions; numbers whose name says quantity (amount,
//     price, qty, revenue, ...) are measures.
//  6. Integers that look like years (1900-2100, at most 50 values) or have
//     at most 10 values repeated across 100+ rows are codes: dimensions.
//  7. Other numbers are measures.
//  8. Text whose values are all UUIDs, or that is unique on 100+ rows
//     (emails, order numbers, free text), is an id: not useful to segment.
//  9. Everything else is a dimension.
func (p *colProfile) role() string {
	ratio := 0.0
	if p.NonNull > 0 {
		ratio = float64(p.Distinct) / float64(p.NonNull)
	}
	switch p.Type {
	case quarry.TypeDate, quarry.TypeDatetime:
		return quarry.RoleTimestamp
	}
	if keyName(p.Name) {
		if p.Distinct <= 20 && ratio < 0.5 {
			return quarry.RoleDimension
		}
		return quarry.RoleID
	}
	words := nameWords(p.Name)
	switch p.Type {
	case quarry.TypeBoolean:
		return quarry.RoleDimension
	case quarry.TypeInteger, quarry.TypeFloat:
		integer := p.Type == quarry.TypeInteger
		switch {
		case integer && p.HasMin && p.Min >= 0 && p.Max <= 1:
			return quarry.RoleMeasure
		case anyWord(words, codeWords) && !anyWord(words, measureWords):
			return quarry.RoleDimension
		case anyWord(words, measureWords):
			return quarry.RoleMeasure
		case integer && p.HasMin && p.Min >= 1900 && p.Max <= 2100 && p.Distinct <= 50:
			return quarry.RoleDimension
		case integer && p.Distinct <= 10 && p.NonNull >= 100:
			return quarry.RoleDimension
		}
		return quarry.RoleMeasure
	case quarry.TypeString:
		if len(p.Samples) > 0 && allMatch(p.Samples, uuidRE) && ratio >= 0.9 {
			return quarry.RoleID
		}
		if p.NonNull >= 100 && p.Distinct == p.NonNull {
			return quarry.RoleID
		}
	}
	return quarry.RoleDimension
}

// keyName reports whether a column name reads as a key.
func keyName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "id", "uuid", "guid", "key", "pk":
		return true
	}
	for _, suf := range []string{"_id", "_key", "_uuid", "_guid", " id", "-id"} {
		if strings.HasSuffix(n, suf) {
			return true
		}
	}
	// camelCase: customerId, orderID
	if len(name) > 2 && (strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")) && unicode.IsLower(rune(name[len(name)-3])) {
		return true
	}
	return false
}

// nameWords splits a column name into lower-case words at underscores,
// spaces, dashes and camelCase humps.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r)
	}
	flush()
	return words
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

func anyWord(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}

func allMatch(values []string, re *regexp.Regexp) bool {
	for _, v := range values {
		if !re.MatchString(v) {
			return false
		}
	}
	return true
}
