package research

// Claims named with different words. Two sources rarely name a quantity
// alike: "the ward has 72 beds" and "the wing's 64 beds", "1,327 silver
// coins" recovered by archaeologists and "the find includes 1,372 coins",
// "the contract was worth €74.5 million" and "the total cost is €47.5
// million". Such claims are of one thing when they agree on all that
// Claim.Like asks but their qualifiers and nouns of one class, unless a
// source tells the qualifiers apart: a document that gives the stand
// 6,200 seats and the ground 18,450 seats says that stand seats and
// ground seats are two things, and no pair of claims that differ by
// "stand" is then alike.

import (
	"slices"
	"strconv"
	"strings"

	rs "github.com/quarry-dev/quarry/research"
)

// headClasses put the nouns sources use for one attribute together.
var headClasses = map[string]string{
	"cost": "cost", "bill": "cost", "contract": "cost", "expenditure": "cost", "spending": "cost", "outlay": "cost",
	"investment": "cost", "build": "cost", "tag": "cost", "value": "cost",
	"funding": "funding", "grant": "funding", "award": "funding", "sponsorship": "funding",
	// What a fund takes in is not what it gives out: donations are apart
	// from grants.
	"donation": "donation", "gift": "donation",
	"boost": "funding", "allocation": "funding", "subsidy": "funding", "aid": "funding", "bailout": "funding",
	"fee": "fee", "price": "fee", "payment": "fee", "transfer": "fee", "consideration": "fee", "purchase": "fee", "acquisition": "fee", "takeover": "fee",
	"buyout": "fee",
	"fund":   "fund", "pot": "fund", "purse": "fund", "pool": "fund", "money": "fund",
	"revenue": "revenue", "turnover": "revenue", "sales": "revenue", "receipt": "revenue", "proceeds": "revenue", "takings": "revenue",
	"export": "revenue", "gross": "revenue",
	// A place opens, a scheme launches, a plant is commissioned, a film
	// is released: the day each began is one.
	"opening": "opening", "commissioning": "opening", "inauguration": "opening",
	"visitor": "visitor", "visit": "visitor", "attendance": "visitor", "attendee": "visitor", "admission": "visitor", "guest": "visitor",
	"audience": "visitor", "crowd": "visitor", "visitation": "visitor",
	"employee": "employee", "staff": "employee", "worker": "employee", "headcount": "employee", "workforce": "employee", "personnel": "employee",
	"staffer": "employee", "crew": "employee", "crewmember": "employee", "job": "employee",
	// Homes counted by what they are, who lives in them or what they
	// are to a utility.
	"home": "home", "household": "home", "property": "home", "dwelling": "home", "residence": "home", "premises": "home",
	"vote": "vote", "voter": "vote", "ballot": "vote",
	"student": "student", "pupil": "student",
	"death": "death", "fatality": "death",
	"traveller": "passenger", "traveler": "passenger", "flyer": "passenger",
	"member": "member", "membership": "member",
	"resident": "resident", "inhabitant": "resident", "population": "resident",
	"passenger": "passenger", "ridership": "passenger", "rider": "passenger",
	"seat": "seat", "spectator": "seat", "capacity": "seat",
	"launch": "opening", "release": "opening", "debut": "opening", "start": "opening",
	"declar": "status", "status": "status", "designat": "status", "certifi": "status", "recognis": "status", "recogniz": "status", "accredit": "status",
	"service": "service", "crossing": "service", "voyage": "service", "sailing": "service", "flight": "service", "trip": "service", "journey": "service",
}

func headClass(h string) string {
	if c, ok := headClasses[h]; ok {
		return c
	}
	// "exoplanet" counts planets: a compound's last word is its class.
	for _, base := range compoundBases {
		if strings.HasSuffix(h, base) && len(h) > len(base)+2 {
			return base
		}
	}
	return h
}

// compoundBases are nouns written inside longer ones ("exoplanets",
// "megawatts" aside).
var compoundBases = []string{"planet", "star", "ship", "boat", "plane", "craft", "house", "room", "school", "worker", "player", "user", "member"}

// durations are units that measure how long, of many different things.
var durations = set("year", "month", "week", "day", "hour", "minute", "second")

// toldApart holds the qualifiers some document tells apart, by the
// class of claim they qualify, and the periods claims of each class
// are for.
type toldApart struct {
	words   map[string]bool
	periods map[string]map[string]bool
}

func aliasKey(c Claim) string {
	return classKey(c) + "|" + c.Period
}

func classKey(c Claim) string {
	return headClass(c.Head) + "|" + headClass(c.Unit) + "|" + string(c.Modality)
}

// tellApart reads, in each document, the claims of one class that give
// different values, and keeps the qualifiers one has and the other
// lacks.
func tellApart(facts []rs.Fact, claims map[string]Claim, sources []rs.SearchResult) *toldApart {
	byDoc := map[string][]Claim{}
	for _, f := range facts {
		if c, ok := claims[f.ID]; ok {
			byDoc[docURL(f.SourceURL)] = append(byDoc[docURL(f.SourceURL)], c)
		}
	}
	// A correction's wrong figure and its right one name one thing.
	corrections := map[string]bool{}
	texts, _ := docTexts(sources)
	for d, text := range texts {
		corrections[d] = correcting(text)
	}
	t := toldApart{words: map[string]bool{}, periods: map[string]map[string]bool{}}
	for _, c := range claims {
		if c.Period != "" {
			if t.periods[classKey(c)] == nil {
				t.periods[classKey(c)] = map[string]bool{}
			}
			t.periods[classKey(c)][c.Period] = true
		}
	}
	for doc, cs := range byDoc {
		if corrections[doc] {
			continue
		}
		total := totalOf(cs)
		for i, a := range cs {
			for j, b := range cs[i+1:] {
				// "37 deficiencies" beside its 14, 9, 8 and 6: the whole
				// of a breakdown names no thing apart from its parts.
				if i == total || i+1+j == total {
					continue
				}
				// A claim of no qualifier beside named ones is the subject's
				// among others' (a table's rows): it tells no word apart.
				if aliasKey(a) != aliasKey(b) || Same(a.Value, b.Value) || len(a.Mods) == 0 || len(b.Mods) == 0 {
					continue
				}
				// "Fieldwork began on 17 February" in a media release of
				// 16 April: two events, which tell no word of either apart.
				if a.Unit == "date" && a.Head != b.Head {
					continue
				}
				for _, w := range symmetricDifference(a.Mods, b.Mods) {
					t.words[aliasKey(a)+"\x00"+w] = true
				}
			}
		}
	}
	return &t
}

// totalOf is the index of the claim in cs that sums the others of its
// class (a breakdown's total), -1 when none does.
func totalOf(cs []Claim) int {
	for i, c := range cs {
		if c.Value.Kind != KindNumber && c.Value.Kind != KindMoney || c.Value.Num == 0 {
			continue
		}
		sum, parts := 0.0, 0
		for j, d := range cs {
			if j != i && aliasKey(d) == aliasKey(c) && d.Value.Kind == c.Value.Kind && d.Period == c.Period {
				sum += d.Value.Num
				parts++
			}
		}
		if parts >= 2 && closeNumbers(sum, c.Value.Num) {
			return i
		}
	}
	return -1
}

// alike reports whether c and d are one thing named with different
// words: one unit, period and modality, heads and units of one class,
// and qualifiers no source tells apart; values that could be one
// quantity misreported (within a factor of ten, dates within a year).
func (t *toldApart) alike(c, d Claim) bool {
	if c.Bound || d.Bound || c.Adrift || d.Adrift || classKey(c) != classKey(d) || singular(c.Unit) == "star" {
		return false
	}
	// A claim of no period meets one of a period when its class is
	// claimed for that period alone ("1,410 contributors" and "1,140
	// contributors by the end of 2024"), never beside two years.
	if c.Period != d.Period && (c.Period != "" && d.Period != "" || !t.meets(c, d.Period) || !t.meets(d, c.Period)) {
		return false
	}
	if durations[c.Unit] || c.Head == "date" || d.Head == "date" || c.Value.Kind != d.Value.Kind || c.Unit == "person" {
		return false // a chief executive is not a chief financial officer
	}
	if otherMeasure(c.Mods, d.Mods) || otherActs(c, d) {
		return false
	}
	// Days of events named by other words are one day only when what
	// they are of agrees: "opened" and "launched" of the subject, not
	// "construction started" and "opened".
	if c.Unit == "date" && c.Head != d.Head && headClass(c.Head) == "opening" && !c.Compatible(d) {
		return false
	}
	for _, w := range symmetricDifference(c.Mods, d.Mods) {
		if t.words[aliasKey(c)+"\x00"+w] || t.words[aliasKey(d)+"\x00"+w] {
			return false
		}
	}
	// Claims that name different things alone ("ward beds", "wing beds")
	// meet only as figures that could be one misread or mistyped.
	if len(c.Mods) > 0 && len(d.Mods) > 0 && !slices.ContainsFunc(c.Mods, func(w string) bool { return slices.Contains(d.Mods, w) }) &&
		c.Value.Kind != KindDate && max(c.Value.Num, d.Value.Num) > 3*min(c.Value.Num, d.Value.Num) {
		return false
	}
	// Days of things named apart ("substantial completion", "aquatic
	// centre heat-recovery link completion"): one is no misreading of
	// the other's name.
	if c.Value.Kind == KindDate && len(c.Mods) > 0 && len(d.Mods) > 0 && max(len(c.Mods), len(d.Mods)) >= 3 &&
		!slices.ContainsFunc(c.Mods, func(w string) bool { return slices.Contains(d.Mods, w) }) {
		return false
	}
	return plausiblyOne(c.Value, d.Value)
}

// meets reports whether claim c, of no period, is taken to be for year
// p: its source's own year when its class is claimed for that year; the
// year before when its class is not claimed for the source's year; the
// only year its class is claimed for when its source is undated.
func (t *toldApart) meets(c Claim, p string) bool {
	if c.Period != "" {
		return true
	}
	periods := t.periods[classKey(c)]
	if c.year == 0 {
		return len(periods) == 1 && periods[p]
	}
	y, err := strconv.Atoi(p)
	if err != nil {
		return false
	}
	// An undated source's year, its corpus's, is not stretched to the
	// year before.
	return c.year == y || c.year == y+1 && !periods[strconv.Itoa(c.year)] && !c.guessed
}

// yearsApart reports a claim of no period, in a dated source, that is
// more than a year from every claim of a group whose time is known (its
// period, or its source's year when it has none): "1,950 residents had
// joined" in 2021 and "the class comprises 2,318 residents" in 2025 are
// counts of two times.
func yearsApart(group []Claim, c Claim) bool {
	tc := timeOf(c)
	if c.Period != "" || tc == 0 || c.Unit == "date" {
		return false
	}
	known := false
	for _, m := range group {
		tm := timeOf(m)
		if tm == 0 {
			continue
		}
		known = true
		if tm-tc <= 1 && tc-tm <= 1 {
			return false
		}
	}
	return known
}

// timeOf is the year a claim is of: its period, else its source's year;
// 0 when neither is known.
func timeOf(c Claim) int {
	if y, err := strconv.Atoi(strings.Fields(c.Period + " x")[0]); err == nil {
		return y
	}
	return c.year
}

func plausiblyOne(a, b Value) bool {
	if a.Kind != b.Kind || a.Kind != KindDate && a.Kind != KindMoney && a.Kind != KindNumber {
		return true
	}
	if a.Kind == KindDate {
		y := a.Year - b.Year
		return a.Year != 0 && b.Year != 0 && y >= -1 && y <= 1
	}
	lo, hi := min(a.Num, b.Num), max(a.Num, b.Num)
	return lo > 0 && hi <= 5*lo
}

func symmetricDifference(a, b []string) []string {
	var out []string
	for _, w := range a {
		if !slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	for _, w := range b {
		if !slices.Contains(a, w) {
			out = append(out, w)
		}
	}
	return out
}
