package intent

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Requests name what a table's rows are without the table saying so: a
// survey's "respondents", a register's "babies", a league's "players". No
// column or value is called that; the words describe the rows. entityNouns
// are such names of units of observation: people, places, organisations
// and the things records are kept of.
var entityNouns = setOf("respondent", "participant", "individual", "person", "subject", "patient", "customer",
	"client", "employee", "worker", "student", "pupil", "member", "user", "player", "athlete", "voter", "resident",
	"household", "family", "mother", "baby", "infant", "child", "applicant", "borrower", "visitor", "guest",
	"buyer", "seller", "owner", "teacher", "doctor", "physician", "nurse", "volunteer", "donor", "recipient",
	"case", "country", "nation", "state", "province", "county", "city", "town", "district", "municipality",
	"tract", "neighbourhood", "neighborhood", "school", "hospital", "clinic", "company", "firm", "business",
	"store", "shop", "branch", "plant", "farm", "house", "property", "building", "car", "vehicle",
	"model", "airport", "station", "site", "team", "club", "pig", "animal", "plot", "tree", "specimen", "sample",
	"item", "product", "book", "movie", "film", "song", "album", "restaurant", "hotel", "listing", "app", "recipe",
	"passenger", "traveler", "traveller", "account", "shipment", "parcel", "package", "consignment",
	"delivery", "order", "booking", "reservation", "transaction", "trip", "flight", "claim", "loan",
	"invoice", "commune", "village", "parish", "staff")

// isEntityNoun reports whether w, singular or plural, names a unit of
// observation.
func isEntityNoun(w string) bool { return entityNouns[singular(w)] }

// rowNouns reads each word left that names a unit of observation as the
// table's rows: "average age of respondents by marital status" is the
// average age of the rows. Counting them ("how many respondents") counts
// the rows only when each row is one: the table has no name or id column
// whose values repeat. It returns the first such word's index, -1 if none.
func (p *parser) rowNouns() int {
	first := -1
	if p.t == nil {
		return first
	}
	for i := range p.toks {
		t := p.toks[i]
		if t.used || t.kind != kWord || stopwords[t.low] || !isEntityNoun(t.low) || p.isValue(i) || p.tableNamed(t.raw) >= 0 ||
			p.valueEnd[i] && kindNouns[t.low] { // "Dairy products": what the value names
			continue
		}
		if p.countsHere(i) && (!p.rowsAreEntities() || p.tableNamesOtherRows(t.low)) || p.idNamesOtherRows(t.low) {
			continue
		}
		if b := p.toks[max(i-1, 0)].low; i > 0 && p.free(i-1) && p.toks[i-1].kind == kWord && !stopwords[b] && !rowsOf[b] && b != "amongst" && b != "within" {
			continue // "flagship stores": the word before says which, and is not understood
		}
		p.toks[i].used = true
		p.subjectAt = append(p.subjectAt, i)
		p.understood(i, fmt.Sprintf("%s -> the rows of %s (each row is one)", t.raw, p.t.Name), t.raw+" ("+p.t.Name+")")
		if first < 0 {
			first = i
		}
	}
	return first
}

// rowsAreEntities reports whether each row of the chosen table can be
// taken for one thing: a name or id column holds a different value on
// every row; or, with no such key known, no date says the rows are
// observations over time and no name or id column repeats a value. A text
// column's values are known only when they are few; an integer id's range
// is known.
func (p *parser) rowsAreEntities() bool {
	if p.t.Rows <= 0 {
		return false
	}
	repeats := false
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if !isIDLike(c) && !namesThings(c) {
			continue
		}
		switch {
		case isText(c) && len(c.Values) > 0:
			if p.keyOfRows(c) {
				return true // a key: one value a row
			}
			repeats = true
		case c.Type == "integer":
			lo, err1 := strconv.ParseFloat(c.Min, 64)
			hi, err2 := strconv.ParseFloat(c.Max, 64)
			switch {
			case err1 != nil || err2 != nil:
				repeats = true
			case hi-lo+1 == float64(p.t.Rows):
				return true
			case hi-lo+1 < float64(p.t.Rows):
				repeats = true
			}
		}
	}
	// a dated row is an observation of something, unless a date of birth
	// says each row is a person (a registry's diagnosis and exit dates)
	return !repeats && (p.date == nil || slices.ContainsFunc(p.t.Columns, func(c Column) bool { return isDate(&c) && birthDate(&c) }))
}

// namesThings reports whether a text column names the things rows are
// about: a name, a player, a title.
func namesThings(c *Column) bool {
	if !isText(c) {
		return false
	}
	for _, w := range nameWords(c.Name) {
		if w == "name" || w == "player" || w == "title" || w == "person" || isEntityNoun(w) && w != "state" && w != "country" {
			return true
		}
	}
	return false
}

// tableNamesOtherRows reports whether the chosen table's name says its rows
// are other things than w: customers counted over a table of orders are
// not its rows.
func (p *parser) tableNamesOtherRows(w string) bool {
	for _, name := range append([]string{p.t.Name}, p.t.Aliases...) {
		for _, nw := range nameWords(name) {
			if (isEntityNoun(nw) || isCountNoun(nw)) && !sameWord(w, nw) {
				return true
			}
		}
	}
	return false
}

// idNamesOtherRows reports whether the table's id column says its rows are
// things other than w: hvst_id numbers harvests, so "workers" are not its
// rows.
func (p *parser) idNamesOtherRows(w string) bool {
	other := false
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		ws := nameWords(c.Name)
		if len(ws) != 2 || !idEnds[ws[1]] || len(ws[0]) < 2 || generic[ws[0]] {
			continue
		}
		for _, n := range append([]string{singular(w)}, entitySynonyms[singular(w)]...) {
			if sameWord(n, ws[0]) || subsequence(ws[0], n) {
				return false
			}
		}
		other = true
	}
	return other
}

// entitySynonyms are other names of the same rows: a parcel is a
// shipment, an account a customer.
var entitySynonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range [][]string{{"shipment", "parcel", "package", "consignment", "delivery"},
		{"customer", "client", "account"}, {"patient", "case", "subject", "participant"},
		{"order", "purchase"}, {"respondent", "participant", "person", "individual"}} {
		for _, w := range g {
			m[w] = append(m[w], g...)
		}
	}
	return m
}()

// subsequence reports whether abbr is written with letters of w in
// order, starting with its first: "shp" of shipment, "hvst" of harvest.
func subsequence(abbr, w string) bool {
	if abbr == "" || w == "" || abbr[0] != w[0] {
		return false
	}
	k := 0
	for i := 0; i < len(w) && k < len(abbr); i++ {
		if w[i] == abbr[k] {
			k++
		}
	}
	return k == len(abbr)
}

// shareOfAFilterBy reports a share asked per group of rows a filter picks
// inside the share's own words: "% of employees remote by dept" may be the
// remote part of each department or each department's part of the remote
// employees, and which is not said. A filter outside the share's words
// ("share of revenue by region for Technology") scopes the whole.
func (p *parser) shareOfAFilterBy() error {
	if !slices.Contains(p.in.Analyses, AnalysisShare) || p.in.RateOf != "" {
		return nil
	}
	share := p.sharePos()
	if share < 0 {
		return nil
	}
	if t := p.in.Top; len(p.in.GroupBy) == 0 && t != nil && t.Column != "" {
		// "which make has the highest share of SUVs": the SUV part of
		// each make's cars, as a make has its share; "accounts for the
		// highest share" is each make's part of all the SUVs, ranked by
		// their counts
		first, col := len(p.toks), ""
		for c, at := range p.filterAt {
			if at > share && at < first && c != t.Column {
				first, col = at, c
			}
		}
		part := slices.ContainsFunc(p.toks[:share], func(t token) bool { return wholeVerbs[t.low] })
		if col != "" && !part {
			p.in.RateOf = col
			p.understood(share, fmt.Sprintf("%s -> the share of rows with that %s within each %s", p.src(share, first+1), col, t.Column), "")
		}
		return nil
	}
	if len(p.in.GroupBy) == 0 {
		return nil
	}
	group := -1
	for k := share + 1; k < len(p.toks); k++ {
		if p.toks[k].used && (p.toks[k].low == "by" || p.toks[k].low == "per" || p.toks[k].low == "each" || p.toks[k].low == "across") {
			group = k
			break
		}
	}
	if group < 0 {
		return nil
	}
	if p.bareShare {
		// "% female by region": the share within each region, as a rate
		first, col := group, ""
		for c, at := range p.filterAt {
			if at > share && at < first {
				first, col = at, c // the value right after the share word: "pct married in NE"
			}
		}
		if col != "" {
			p.in.RateOf = col
			p.understood(share, fmt.Sprintf("%s -> the share of rows with that %s within each %s", p.src(share, group), col, p.in.GroupBy[0].Column), "")
			return nil
		}
	}
	// a value ("% of employees remote by dept") or a condition ("share of
	// cars discounted, by make") inside the share's words picks its part
	inside := func(k int) bool { return k > share && k < group }
	if slices.ContainsFunc(slices.Collect(maps.Keys(p.valueStart)), inside) || slices.ContainsFunc(slices.Collect(maps.Values(p.filterAt)), inside) {
		g := p.in.GroupBy[0].Column
		p.in.Unknown = append(p.in.Unknown, Unknown{Word: p.src(share+1, group),
			Reason: "a share within each " + g + ", or each " + g + "'s share of these rows? Not said"})
	}
	return nil
}

// wholeVerbs say a thing's part of a whole: "which make accounts for the
// highest share of SUVs" ranks each make's part of all the SUVs.
var wholeVerbs = setOf("accounts", "account", "accounted", "makes", "contributes", "contributed", "represents", "represented")

// sharePos returns where the first word asking for a share ends, -1 if
// none does.
func (p *parser) sharePos() int {
	share := -1
	for k, kind := range p.akind {
		if kind == AnalysisShare && (share < 0 || k < share) {
			share = k
		}
	}
	return share
}

// partVerbs end the rows a share is of and start what picks its part:
// "what share of bookings at Lisbon hotels came through OTAs".
var partVerbs = setOf("came", "come", "comes", "were", "was", "are", "is", "had", "have", "has", "went", "go", "goes",
	"used", "use", "uses", "got", "get", "gets", "did", "do", "does", "paid", "arrived", "ended")

// shareWhole reads which filters say the rows a share is of: the values
// that describe the rows' noun after the share ("what % of male patients
// had grade 5": of the male patients), those between that noun and the
// verb that says the part ("of bookings at Lisbon hotels came through
// OTAs": of the Lisbon bookings) and those after "among" or "within"
// ("share aged 65+ among women"). The other filters pick the part. A
// share with no other filter is of all the rows ("share of female
// patients"), and a share by a grouping is the grouping's.
func (p *parser) shareWhole() error {
	if !slices.Contains(p.in.Analyses, AnalysisShare) || len(p.in.GroupBy) > 0 || len(p.in.Filters) < 2 {
		return nil
	}
	share := p.sharePos()
	if share < 0 {
		return nil
	}
	noun, among := -1, -1
	for k := share + 1; k < len(p.toks); k++ {
		w := p.toks[k].low // read already: "patients -> the rows of pts"
		if noun < 0 && p.toks[k].kind == kWord && (isCountNoun(w) || personNouns[w] || isEntityNoun(w) || tableWord(p.t, w)) {
			noun = k // "male patients"
		}
		if among < 0 && (w == "among" || w == "amongst" || w == "within") {
			among = k
		}
	}
	verb := -1 // "of bookings at our Portuguese hotels came through OTAs": what follows the verb is the part
	for k := noun + 1; noun > share && k < len(p.toks) && verb < 0; k++ {
		if partVerbs[p.toks[k].low] {
			verb = k
		}
	}
	whole := func(col string) bool {
		at, ok := p.filterAt[col]
		return ok && (noun > share && at > share && at < noun || verb > noun && at > noun && at < verb || among > share && at > among)
	}
	var ofWhole, ofPart []string
	for _, f := range p.in.Filters {
		switch {
		case p.yearColumn() != nil && f.Column == p.yearColumn().Name:
		case whole(f.Column):
			ofWhole = append(ofWhole, f.Column)
		default:
			ofPart = append(ofPart, f.Column)
		}
	}
	if len(ofWhole) == 0 || len(ofPart) == 0 {
		return nil
	}
	p.in.ShareWithin = slices.Compact(ofWhole)
	var of []string
	for _, f := range p.in.Filters {
		if slices.Contains(ofWhole, f.Column) {
			of = append(of, f.Column+" "+f.Op+" "+strings.Join(f.Values, ", "))
		}
	}
	p.understood(share, "the share -> of the rows where "+strings.Join(of, " and "), "the share of the rows where "+strings.Join(of, " and "))
	return nil
}

// runningTotal reports "cumulative" or "running total" said over a
// grouping by time: a total that grows period by period, which no step
// computes. Without a grouping, "cumulative sales" is their total.
func (p *parser) runningTotal() error {
	if p.t == nil || !slices.ContainsFunc(p.in.GroupBy, func(g Group) bool {
		c := p.columnByName(g.Column)
		return g.Grain != "" || c != nil && (isDate(c) || p.isYearColumn(c))
	}) {
		return nil
	}
	for i, t := range p.toks {
		if t.low == "cumulative" || t.low == "running" && (p.next(i) == "total" || p.next(i) == "sum") || t.low == "cumulatively" {
			p.in.Unknown = append(p.in.Unknown, Unknown{Word: t.raw, Reason: "a running total, period by period, is not computed; the table gives each period's own total"})
			return nil
		}
	}
	return nil
}
