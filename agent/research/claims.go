package research

// Claims on any topic: every value a sentence states (an amount, a
// count, a percentage, a dated event, a person in a role) is read with the attribute it is a
// value of (its head noun and modifiers), its unit, the period it is for
// and how the source holds it, so that claims are compared only with
// like claims: 412 patients with 388 patients, never 41 sites with 412
// patients, a planned enrollment with an actual one, or 2023's revenue
// with 2024's.

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Claim is what one sentence states about one value.
type Claim struct {
	Value Value
	// Text is the value as written, with its unit: "268 patients".
	Text string
	// Unit is what the value counts or measures: a currency ("USD"), "%",
	// a counted noun in the singular ("patient"), "date", or "".
	Unit string
	// Head is the attribute's head noun ("enrollment", "payment",
	// "opening"); Mods its qualifiers ("upfront", "licence"), lower case.
	Head string
	Mods []string
	// Attribute is how the claim names what it is about, for reading:
	// "upfront licence payment", "trial enrollment", "plant opening".
	Attribute string
	// Period is the year the value is for, "" when the sentence names none.
	Period   string
	Modality Modality
	// Object marks a date's qualifiers read from what its verb acts on
	// ("formed an alliance"): something other than the subject itself.
	Object bool
	// Bound marks a bound rather than a value ("more than 450
	// developers", "3900+ packages"): it conflicts with nothing.
	Bound bool
	// weak marks qualifiers that are only a definite noun as the
	// clause's subject ("The line has 18 stops"): it may be the subject
	// itself by another name, so it meets a claim about the subject.
	weak bool
	// owned is set when the claim's qualifiers name a part of the
	// subject or a thing of its own ("the trial", "1.3 Bo"), not only
	// what it counts.
	owned bool
	// Adrift marks a claim of no period, about the subject itself, in a
	// text that spans many years ("There were around 15,000 binary
	// packages" in a history): what it is of cannot be told, and it
	// conflicts with nothing.
	Adrift bool
	// Replaced marks a figure the sentence says is wrong or was
	// replaced ("£185,000, not £158,000", "Reports of a £15 million fee
	// are wrong"): no claim of its source, but the sign that the
	// source's other figures of its kind correct it.
	Replaced bool
	// Corrects marks a figure its source gives in place of one it
	// says is wrong.
	Corrects bool
	// Act is what was done to what a count counts, when a verb says it
	// ("distributed in 14 states", "interviewed 41 people"): counts of
	// one noun done different things are different quantities.
	Act string
	// year is the year its source was published, 0 when undated.
	year int
	// elsewhere marks the date of another document the sentence speaks
	// of ("An earlier version of this story, published on 28
	// February"): it dates nothing of the subject, nor its sentence's
	// figures.
	elsewhere bool
	// guessed marks a year that is its corpus's, its source undated.
	guessed bool
	// done marks a day its verb says was past ("opened on", "got the
	// job on"): no plan, even when it is after its source's own day.
	done bool
}

// futureBe are the words before a participle that make it a plan: "will
// be opened", "is to be opened".
var futureBe = set("be", "will", "would", "shall")

// Key is what two claims must share to be compared: head, unit, period
// and modality (their modifiers must also agree: Compatible).
func (c Claim) Key() string {
	return c.Head + "|" + c.Unit + "|" + c.Period + "|" + string(c.Modality)
}

// Like reports whether c and d are claims about one thing, to be
// compared: one unit, period and modality, one head (a date named only
// by what it dates, Head "date", meets any event of the same named
// thing), and modifiers that agree (Compatible).
func (c Claim) Like(d Claim) bool {
	if c.Unit != d.Unit || c.Period != d.Period || c.Modality != d.Modality || c.Bound || d.Bound || c.Adrift || d.Adrift {
		return false
	}
	// "five weeks later", "three weeks behind schedule": how long, of
	// what a duration alone does not say.
	if durations[singular(c.Unit)] && (len(c.Mods) == 0 || len(d.Mods) == 0) {
		return false
	}
	// "Four stars", "Five stars": two reviewers' opinions.
	if singular(c.Unit) == "star" {
		return false
	}
	if c.Head != d.Head {
		named := c.Unit == "date" && len(c.Mods) > 0 && len(d.Mods) > 0
		if !named || c.Head != "date" && d.Head != "date" {
			return false
		}
		// "Phase 1 (2023)": a year that only dates a thing says no day
		// of any event of it.
		if c.Head == "date" && c.Value.Day == "" || d.Head == "date" && d.Value.Day == "" {
			return false
		}
	}
	// "The company was founded in 1993" is not "formed an alliance in 1999".
	if c.Unit == "date" && (len(c.Mods) == 0 && d.Object || len(d.Mods) == 0 && c.Object) {
		return false
	}
	if otherMeasure(c.Mods, d.Mods) || otherActs(c, d) {
		return false
	}
	return c.Compatible(d)
}

// otherActs reports counts that say different things were done to
// what they count: people interviewed and people sickened, states a
// product was distributed in and states illnesses were reported in.
func otherActs(c, d Claim) bool { return c.Act != "" && d.Act != "" && c.Act != d.Act }

// Conflicts reports whether two like claims give values that differ
// beyond rounding: 412 patients against 388 patients, a plant opened in
// October 2023 against one opened in August 2024; never $35 million
// against $35.2 million.
func Conflicts(c, d Claim) bool { return c.Like(d) && !Same(c.Value, d.Value) }

// Compatible reports whether two claims with one Key are about the same
// thing: the modifiers of one are all among the other's ("upfront
// payment" and "upfront licence payment"; not "upfront payment" and
// "milestone payment"). A claim about the subject itself (no modifier)
// meets only another such claim: "The line has 18 stops" is not "a
// single fare costs £2".
func (c Claim) Compatible(d Claim) bool {
	switch {
	case len(c.Mods) == 0:
		return len(d.Mods) == 0 || d.weak
	case len(d.Mods) == 0:
		return c.weak
	}
	return subset(c.Mods, d.Mods) || subset(d.Mods, c.Mods)
}

func subset(a, b []string) bool {
	for _, w := range a {
		if !slices.Contains(b, w) {
			return false
		}
	}
	return true
}

// Claims returns the claims of sentence s, left to right; subject holds
// the lower-case words of the entity the corpus is about, which qualify
// nothing. A value that repeats an earlier claim's attribute and period
// in the same sentence ("restated to $46.9 million from the $48.2 million
// previously reported") is the figure replaced, not a second claim.
func Claims(s string, subject []string) []Claim {
	if publicationNote(s) {
		return nil // "Released 16 April 2025.": the document's own date
	}
	if cs, ok := labelClaims(s, subject); ok {
		return operating(cs)
	}
	toks := tokenize(s)
	vals := Values(s)
	r := &reader{s: s, toks: toks, subject: set(subject...)}
	r.markNames()
	var out []Claim
	var events []Value
	for _, v := range vals {
		var c Claim
		var ok bool
		switch v.Kind {
		case KindDate:
			c, ok = r.dated(v)
			if ok {
				events = append(events, v)
			}
		case KindMoney:
			c, ok = r.amount(v, out)
		case KindNumber:
			// "Phase 2 trial", "Chapter 3": a number after a name is
			// part of it.
			// "Apparently 3,470 staff", "Nearly 3,500 staff": a
			// sentence's first word is no name.
			// "the 2024–25 season": the end of a split year.
			if splitYearEndRE.MatchString(s[:v.Start]) {
				continue
			}
			if i := r.at(v); i > 0 && r.toks[i-1].capital() && !monthName(r.toks[i-1].text) && !determiners[r.toks[i-1].lower] && !prepositions[r.toks[i-1].lower] && !auxiliaries[r.toks[i-1].lower] &&
				!(i == 1 && (fillers[r.toks[0].lower] || strings.HasSuffix(r.toks[0].lower, "ly"))) {
				continue
			}
			c, ok = r.count(v, out)
		}
		if ok && !c.elsewhere {
			out = append(out, c)
		}
	}
	out = append(out, r.roleClaims()...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Value.Start < out[j].Value.Start })
	kept := out[:0]
	for i := range out {
		c := &out[i]
		if c.Value.Kind != KindDate {
			c.Period = r.period(c.Value, vals, events)
			if q := partOfYear(s); q != "" && c.Period != "" {
				c.Period += " " + q // "revenue in the first quarter of 2024"
			}
			if day := r.snapshot(c.Value, vals); day != "" {
				c.Period = day // "by Friday evening (July 19, 2024) it had burned 18,300 acres"
			}
		}
		c.Modality = r.modality(c.Value)
		c.Bound = r.bound(c.Value)
		c.Replaced = r.replaced(c.Value)
		if c.Attribute == "" {
			c.Attribute = strings.Join(append(append([]string(nil), c.Mods...), c.Head), " ")
		}
		if k := slices.IndexFunc(kept, func(k Claim) bool { return k.Key() == c.Key() && k.Compatible(*c) }); k >= 0 {
			// The figure given in place of one said to be wrong is the claim.
			if kept[k].Replaced && !c.Replaced {
				kept[k] = *c
			}
			continue
		}
		kept = append(kept, *c)
	}
	return operating(kept)
}

// operations are what a place begins when it opens: "began operations",
// "started service", "the date operations began".
var operations = set("operation", "operations", "service", "services", "operating", "date")

// operating makes the day a thing began operations or service its
// opening: "The station began operations on 28 August 2024" is the day
// another source says it opened.
func operating(cs []Claim) []Claim {
	for i := range cs {
		c := &cs[i]
		// "reopened last night, Thursday 25 September": a time of day
		// qualifies no event.
		if c.Unit == "date" && slices.ContainsFunc(c.Mods, func(m string) bool { return momentWords[m] }) {
			c.Mods = slices.DeleteFunc(slices.Clone(c.Mods), func(m string) bool { return momentWords[m] })
			c.Object = c.Object && len(c.Mods) > 0
			c.Attribute = strings.Join(append(slices.Clone(c.Mods), c.Head), " ")
		}
		// "The opening ceremony takes place on": the ceremony's day.
		if k := slices.Index(c.Mods, "take"); k >= 0 && k+1 < len(c.Mods) && c.Mods[k+1] == "place" {
			c.Mods = slices.Delete(slices.Clone(c.Mods), k, k+2)
			c.Attribute = strings.Join(append(slices.Clone(c.Mods), c.Head), " ")
		}
		if c.Unit != "date" || c.Head != "start" && c.Head != "commissioning" || len(c.Mods) == 0 ||
			slices.ContainsFunc(c.Mods, func(m string) bool { return !operations[m] }) || !slices.ContainsFunc(c.Mods, func(m string) bool { return m != "date" }) {
			continue
		}
		c.Head, c.Mods, c.Object = "opening", []string{}, false
		c.Attribute = "opening"
	}
	return cs
}

// reader reads one sentence's claims.
type reader struct {
	s       string
	toks    []token
	subject map[string]bool
	// named marks the tokens of a name that holds the subject's words
	// ("Veridane Games"): the entity, never a qualifier.
	named []bool
}

func (r *reader) markNames() {
	r.named = make([]bool, len(r.toks))
	for i := 0; i < len(r.toks); {
		if !r.toks[i].capital() {
			i++
			continue
		}
		j, has := i, false
		for j < len(r.toks) && r.toks[j].capital() {
			has = has || r.subject[r.toks[j].bare()]
			j++
		}
		for k := i; k < j && has; k++ {
			r.named[k] = true
		}
		i = j
	}
}

// at is the index of the value's first token.
func (r *reader) at(v Value) int { return tokenAt(r.toks, v.Start) }

// after is the index of the first token after the value.
func (r *reader) after(v Value) int { return tokenAt(r.toks, v.End) }

// amount reads a sum of money: the noun phrase before a copula or "of"
// ("Revenue was", "an upfront payment of"), the noun of the verb that
// governs it ("paid $5 million to settle" is a settlement payment), the
// noun after it ("a $9 million expansion", "$1.3 million of contracts"),
// or else what the sentence's earlier amount was about.
func (r *reader) amount(v Value, earlier []Claim) (Claim, bool) {
	c := Claim{Value: v, Text: v.Text, Unit: currency(v.Text), owned: true}
	if !r.attribute(&c, v, earlier) {
		return Claim{}, false
	}
	return c, true
}

// count reads a number with the noun it counts ("268 patients", "31
// clinical sites", "12% of revenue"), or one a noun phrase gives ("a
// population of 3,559"). A bare number with neither is no claim.
func (r *reader) count(v Value, earlier []Claim) (Claim, bool) {
	c := Claim{Value: v, Text: v.Text}
	lower := strings.ToLower(v.Text)
	if strings.Contains(lower, "%") || strings.Contains(lower, "percent") || strings.Contains(lower, "per cent") {
		c.Unit, c.owned = "%", true
		if !r.attribute(&c, v, earlier) {
			return Claim{}, false
		}
		return c, true
	}
	unit, mods, end := r.unitNoun(v)
	if clockUnits[unit] {
		return Claim{}, false // "open daily from 9 a.m.": a time of day
	}
	// "3,214 of us made it to the finish": people, named by what they did.
	if k := r.after(v); unit == "" && k+1 < len(r.toks) && r.toks[k].lower == "of" && groupPronouns[r.toks[k+1].lower] {
		unit, end = "people", r.toks[k+1].end
	}
	if unit == "" {
		// "The total number of ballot papers counted across the region
		// was 412,806": what the number is of is counted.
		if m := numberOfRE.FindStringSubmatch(r.s[:v.Start]); m != nil {
			ws := strings.Fields(strings.ToLower(m[1]))
			if n := len(ws); n > 1 && ws[n-1] == "papers" && ws[n-2] == "ballot" {
				ws = append(ws[:n-2], "ballots") // ballot papers are ballots
			}
			c.Unit = singular(ws[len(ws)-1])
			c.Head, c.Mods, c.owned = c.Unit, ws[:len(ws)-1], true
			c.Text = v.Text
			return c, true
		}
		// "a headcount of 1,240", "Headcount rose to 1,420": the noun
		// phrase is the attribute.
		j := r.at(v) - 1
		for j >= 0 && fillers[r.toks[j].lower] && r.toks[j].lower != "of" {
			j--
		}
		if j >= 0 && (r.toks[j].lower == "of" || copulas[r.toks[j].lower]) {
			if head, m, ok := r.phraseBefore(j); ok {
				// What the phrase names is what is counted: "Visitors
				// numbered 310,000" counts visitors, as "310,000
				// visitors" does.
				if staffNouns[head] {
					head = "employee" // "a headcount of 1,240" counts employees
				}
				c.Head, c.Unit, c.Mods, c.owned = head, head, m, true
				return c, true
			}
		}
		return Claim{}, false
	}
	c.Text = strings.TrimSpace(r.s[v.Start:end])
	// "12,600 units of its Sweeper S3 robot vacuum" counts vacuums.
	if containerNouns[unit] && len(mods) == 0 {
		if k := tokenAt(r.toks, end); k < len(r.toks) && r.toks[k].lower == "of" {
			if head, _ := r.nounRun(k + 1); head != "" && !r.subject[head] {
				unit = head
			}
		}
	}
	verb := r.verbBefore(r.at(v))
	if counters[verb] == "employees" && people[unit] || staffNouns[singular(unit)] {
		unit = "employees"
	}
	// "welcomed 42,000 people" are visitors, "carried 1.2 million
	// people" passengers.
	if (unit == "people" || unit == "persons") && personCounters[counters[verb]] {
		unit = counters[verb]
	}
	// "84,600 people have already visited the gallery" are visitors,
	// "6,812 people voted" and "the people who voted" votes.
	if unit == "people" || unit == "persons" {
		if n := r.doneBy(tokenAt(r.toks, end)); n != "" {
			unit = n
		}
	}
	c.Unit = singular(unit)
	c.Head = c.Unit
	owner := r.owner(r.at(v))
	// "Enrollment reached 412 patients": the phrase before a copula names
	// the count, it does not own it.
	if copulas[verb] {
		owner = []string{}
	}
	// "room for 210 passengers", "capacity of 500 seats".
	if i := r.at(v); i > 1 && (r.toks[i-1].lower == "for" || r.toks[i-1].lower == "of") {
		if t := r.toks[i-2]; !t.capital() && !verbLike(t) && !determiners[t.lower] && !prepositions[t.lower] && !t.number() {
			owner = r.keep(owner, t)
		}
	}
	c.Mods = append(append([]string(nil), owner...), mods...)
	c.Act = r.act(r.at(v), unit)
	if c.Act == "" {
		c.Act = r.passiveAct(tokenAt(r.toks, end))
	}
	c.owned = len(owner) > 0
	c.weak = len(mods) == 0 && r.definiteSubject(r.at(v))
	// Read as "trial enrollment", "employees", "trial clinical sites".
	name := counters[verb]
	if name == "" {
		name = strings.Join(append(mods, unit), " ")
	}
	c.Attribute = strings.Join(append(append([]string(nil), owner...), name), " ")
	return c, true
}

// dated reads a date as the value of the event a verb near it names
// ("opened in March 2024", "On June 3, 2024, Corvid filed a lawsuit"), or
// of the name it follows in parentheses ("Debian 1.3 Bo (June 5th,
// 1997)"): what opened, filed or was released qualifies it.
func (r *reader) dated(v Value) (Claim, bool) {
	i := r.at(v)
	c := Claim{Value: v, Text: v.Text, Unit: "date"}
	// "The 1930s pool": a decade, not a day.
	if decade(v) {
		return Claim{}, false
	}
	// "At the start of 2024", "by the end of March 2025": a time that
	// bounds something else, no day of an event.
	if i > 1 && r.toks[i-1].lower == "of" && spanParts[r.toks[i-2].lower] {
		return Claim{}, false
	}
	// "on Monday, March 10, 2025", "on Friday 21 March": the weekday is
	// the date's own.
	if i > 1 && r.toks[i-1].text == "," && weekdays[r.toks[i-2].lower] {
		i -= 2
	} else if i > 0 && weekdays[r.toks[i-1].lower] {
		i--
	}
	if i > 0 && r.toks[i-1].text == "(" && i > 1 && (r.toks[i-2].capital() || r.toks[i-2].number()) {
		j := i - 2
		for j > 0 && j > i-5 && (r.toks[j-1].capital() || r.toks[j-1].number()) {
			j--
		}
		var mods []string
		for ; j < i-1; j++ {
			mods = r.keep(mods, r.toks[j])
		}
		if len(mods) > 0 {
			c.Head, c.Mods = "date", mods
			c.Attribute = strings.Join(mods, " ") + " date"
			return c, true
		}
	}
	// "Brennock's December 17 hailstorm", "the 14 April launch": the
	// day of the noun it is written before.
	if head, ok := r.dayBefore(v); ok {
		c.Head, c.Mods, c.done = head, []string{}, true
		return c, true
	}
	// "it's open till February 14th", "the fund is open to
	// applications until": the day it closes; "offers remain open
	// until" are another thing's.
	if i > 1 && untilWords[r.toks[i-1].lower] && r.openUntil(i-1) {
		c.Head, c.Mods = "closure", []string{}
		return c, true
	}
	// "A fire on 8 March destroyed the hall": the fire's day, not the
	// destruction's.
	if head, ok := r.happeningAt(i, r.after(v)); ok {
		c.Head, c.Mods, c.done = head, []string{}, true
		return c, true
	}
	// "A periodic safety inspection of the dam was conducted on".
	if head, mods, ok := r.conductedAt(i); ok {
		c.Head, c.Mods, c.done = head, mods, true
		return c, true
	}
	verb, vi := r.eventVerb(i)
	objectEnd := i
	// "they didn't declare the final results until 16 May": it was
	// done then.
	if nv, nvi := r.notUntil(i); verb == "" && nv != "" {
		c.Head = eventNouns[nv]
		if c.Head == "" {
			c.Head = eventStem(nv)
		}
		c.Mods = r.objectOf(nvi, i)
		c.Object = len(c.Mods) > 0
		return c, true
	}
	if verb == "" {
		verb, vi = r.verbAfter(i, r.after(v))
		objectEnd = len(r.toks) // "on September 19 recalled its frozen peas"
	}
	if verb == "" && r.firstServed(max(0, i-10), i) {
		// "welcome the first patients to the new wing on 10 March".
		c.Head, c.Mods = "opening", []string{}
		return c, true
	}
	if verb == "" {
		if head, ok := r.phraseEvent(i); ok {
			c.Head, c.Mods = head, []string{}
			return c, true
		}
	}
	if verb == "" {
		// "first light came on", "the merger took effect on", "achieved
		// first light on": a light verb's event is the noun it says it of.
		if head, mods, ok := r.lightEvent(i); ok {
			// "got the job on", "took up the post on": an appointment.
			if posts[head] {
				head, mods = "appointment", []string{}
			}
			c.Head, c.Mods, c.done = head, mods, r.pastBefore(i)
			return c, true
		}
	}
	if verb == "" {
		// "Tamarak Ridge ships first concentrate — Sept. 2": a
		// headline's verb, in the present.
		verb, vi = r.headlineVerb(v)
	}
	if verb == "" {
		// "ending with the final show at Wembley Stadium on 30
		// November", "on 12/3/2024 for the final Lowland show": the event
		// a noun names.
		if head, mods, ok := r.nounEvent(i, r.after(v)); ok {
			c.Head, c.Mods = head, mods
			return c, true
		}
	}
	if verb == "" || !r.datesEvent(i, vi) && !r.headline(v) {
		return Claim{}, false
	}
	c.Head = eventHead(verb) // "was discovered on" is a discovery
	// "got the job on", "entered service on": done, whatever day its
	// source was written ("will be opened on" is not).
	if t := r.toks[vi]; (pastForm(t) || irregularPast[t.lower]) && (vi == 0 || !futureBe[r.toks[vi-1].lower]) {
		c.done = true
	}
	// "An earlier version of this story, published on 28 February",
	// "A KCVT story published on June 20": another document's date.
	if publishing[verb] && slices.ContainsFunc(r.actorOf(vi), func(w string) bool { return writings[w] || documentWords[w] }) {
		c.elsewhere = true
	}
	// "The Lord Lieutenant formally opened the wing on 28 April, two
	// months after the first patients moved in": a ceremony, not the
	// day it opened.
	if vi > 0 && ceremonial[r.toks[vi-1].lower] && (c.Head == "opening" || c.Head == "launch") {
		c.Head = "ceremony"
	}
	// "Brindle Lido holds first gala — June 28": the gala's occurrence,
	// as "the gala was held on".
	if holding[verb] {
		c.Head = "occurrence"
	}
	// "admitted its first patients on", "welcome the first passengers
	// on": the day a place first served people is its opening.
	if r.firstServed(vi, i) {
		c.Head, c.Mods = "opening", []string{}
		return c, true
	}
	c.Mods = r.objectOf(vi, objectEnd)
	c.Object = len(c.Mods) > 0
	// "the opening of the plant in October 2023".
	if c.Mods == nil && vi+1 < len(r.toks) && r.toks[vi+1].lower == "of" && strings.HasSuffix(verb, "ing") {
		if head, mods := r.nounRun(vi + 2); head != "" && !r.subject[head] {
			c.Mods = append(mods, head)
		}
	}
	if c.Mods == nil {
		c.Mods = r.actorOf(vi)
	}
	// "The deal closed on June 28" completed it; a plant that closed shut.
	if c.Head == "closure" && slices.ContainsFunc(c.Mods, func(w string) bool { return deals[w] }) {
		c.Head = "completion"
	}
	return c, true
}

// spanParts are the parts of a span of time: "the start of 2024".
var spanParts = set("start", "beginning", "end", "middle", "close", "turn", "course", "rest", "remainder", "half", "part")

// relativeDays put a weekday in the week of its source: "next Friday".
var relativeDays = set("next", "last", "this")

// decade reports a year written as its decade, "1930s".
func decade(v Value) bool {
	return v.Kind == KindDate && len(v.Text) == 5 && v.Text[4] == 's' && v.Year > 0
}

// phraseEvents are the words before a date that say the subject itself
// took place or started on it: "went ahead on", "got under way on",
// "ran from 25 July".
var phraseEvents = []struct {
	words []string
	head  string
}{
	{[]string{"went", "ahead", "on"}, "occurrence"},
	{[]string{"took", "place", "on"}, "occurrence"},
	{[]string{"got", "under", "way", "on"}, "start"},
	{[]string{"got", "underway", "on"}, "start"},
	{[]string{"kicked", "off", "on"}, "start"},
	{[]string{"ran", "from"}, "start"},
	{[]string{"runs", "from"}, "start"},
	{[]string{"run", "from"}, "start"},
	{[]string{"days", "from"}, "start"},
}

// phraseEvent is the event of the subject that the words right before
// the date at token i name (phraseEvents), when the clause is about
// the subject.
func (r *reader) phraseEvent(i int) (string, bool) {
	for _, p := range phraseEvents {
		j := i - len(p.words)
		if j < 0 {
			continue
		}
		match := true
		for k, w := range p.words {
			if r.toks[j+k].lower != w {
				match = false
				break
			}
		}
		if match && r.subjectBefore(j) {
			return p.head, true
		}
	}
	return "", false
}

// momentWords name a moment that a date after a comma then gives:
// "yesterday, 4 November 2024", "last night, Saturday 30 November".
var momentWords = set("today", "yesterday", "tonight", "night", "morning", "evening", "afternoon", "weekend", "overnight")

// goForms are the forms of go that make "live" a launch: "went live".
var goForms = set("go", "goes", "went", "gone", "going")

// deals are the transactions that close when they complete.
var deals = set("deal", "transaction", "acquisition", "sale", "purchase", "merger", "takeover", "buyout", "offering", "round")

// eventVerb finds the verb of the event a date at token i dates: the
// nearest before it in its clause, or, for a date that opens a clause
// ("On June 3, 2024, ..."), the first after it.
func (r *reader) eventVerb(i int) (string, int) {
	for j := i - 1; j >= 0 && j >= i-14; j-- {
		w := r.toks[j].lower
		// "today, 28 February", "at Wembley last night, Saturday 30
		// November": the date says when the time word is.
		if w == "," && j == i-1 && j > 0 && momentWords[r.toks[j-1].lower] {
			continue
		}
		// "opened its plant this week, in August 2024".
		if w == "," && j == i-2 && j > 0 && prepositions[r.toks[i-1].lower] && timeWords[r.toks[j-1].lower] {
			continue
		}
		if r.placeComma(j) {
			continue
		}
		if (clauseEnds[w] && w != "which" && w != "that" && w != "who") || w == "and" {
			break
		}
		// "went live on": live only after a form of go.
		if eventNouns[w] != "" && (w != "live" || j > 0 && goForms[r.toks[j-1].lower]) {
			return w, j
		}
	}
	// A verb no list knows dates an event by a day or a month, not a
	// year: "visited the park in 2023" is a period.
	if w, j := r.pastVerb(i); w != "" && i < len(r.toks) && !yearOnly(r.toks[i]) {
		return w, j
	}
	if i <= 2 {
		past := -1
		for j := i + 1; j < len(r.toks) && j <= i+12; j++ {
			// "2 May 2025 — Bright Start: our verdict": a name's word is
			// no verb.
			if w := r.toks[j].lower; eventNouns[w] != "" && !r.toks[j].capital() {
				return w, j
			} else if w == ";" {
				break
			}
			// "On March 8, Corvane Logistics disclosed that": a verb no
			// list knows, when none that a list knows follows.
			if past < 0 && i > 0 && r.toks[i-1].lower == "on" && pastForm(r.toks[j]) && !reporting[r.toks[j].lower] && (j+1 >= len(r.toks) || !r.toks[j+1].number()) {
				past = j
			}
		}
		if past >= 0 {
			return r.toks[past].lower, past
		}
	}
	return "", -1
}

// verbAfter is the verb right after a date that stands between a
// clause's subject and its verb ("A federal judge on Monday, March 10,
// 2025, approved", "Orlen Kitchenware on September 19 recalled"), and
// its index; "" when there is none. i is the date's first token (its
// weekday), end the first token after it.
func (r *reader) verbAfter(i, end int) (string, int) {
	if i < 2 || r.toks[i-1].lower != "on" || end >= len(r.toks) {
		return "", -1
	}
	if r.toks[end].text == "," {
		end++
	}
	if end >= len(r.toks) {
		return "", -1
	}
	t := r.toks[end]
	if eventNouns[t.lower] != "" || pastForm(t) && !reporting[t.lower] {
		return t.lower, end
	}
	return "", -1
}

// pastForm reports a lower-case past form of a verb ("disclosed",
// "recalled").
func pastForm(t token) bool {
	return !t.capital() && len(t.lower) > 4 && strings.HasSuffix(t.lower, "ed") && !strings.HasSuffix(t.lower, "eed") && !adjectival[t.lower] && !noise[t.lower]
}

// datesEvent reports whether the date at token i says when the event of
// the verb at vi happened: it follows the verb or a preposition ("opened
// in March 2024", "released July 1997", "today, 14 September 2025") or
// opens the clause; a year that qualifies a noun ("its fiscal 2024
// results") is a period, not an event's date.
func (r *reader) datesEvent(i, vi int) bool {
	if vi > i || i == 0 || i-1 == vi {
		return true
	}
	p := r.toks[i-1].lower
	if p == "the" && i > 1 && prepositions[r.toks[i-2].lower] {
		return true // "on the 3rd of March 2024"
	}
	// "opens its tour next Friday, 17 October".
	if relativeDays[p] && weekdays[r.toks[i].lower] {
		return true
	}
	return prepositions[p] || p == "," || p == "late" || p == "early" || p == "mid"
}

// doers name the people who did something by what they did: "6,812
// people voted" counts votes, "84,600 people visited" visitors.
var doers = nounsOf(map[string][]string{
	"visitors":   {"visited", "visit", "visits", "attended", "attend", "attends", "toured", "came"},
	"votes":      {"voted", "vote", "votes"},
	"passengers": {"travelled", "traveled", "flew", "flown"},
	"employees":  {"worked", "work", "works"},
	"finishers":  {"finished"},
	"deaths":     {"died"},
})

// personCounters are the counters whose noun names people: a count of
// people after one of their verbs is of that noun.
var personCounters = set("visitors", "passengers", "employees")

// groupPronouns stand for people in "3,218 of us".
var groupPronouns = set("us", "them", "you")

// doneBy is the noun of the people a count names by what they did, the
// verb at token k or after "who" or an auxiliary ("people who voted",
// "people have already visited"); "" when none says.
func (r *reader) doneBy(k int) string {
	for j := k; j < len(r.toks) && j < k+4; j++ {
		w := r.toks[j].lower
		if n := doers[w]; n != "" {
			return n
		}
		if w != "who" && !auxiliaries[w] && !fillers[w] && !strings.HasSuffix(w, "ly") {
			return ""
		}
	}
	return ""
}

// passiveAct is the participle a count's noun is given after it, at
// token k ("four firefighters were injured", "1,420 were assigned"):
// what was done to what it counts; "" when none, or when it only states
// the count ("were recorded").
func (r *reader) passiveAct(k int) string {
	// "four firefighters and one resident were treated", "1,420
	// firefighters and support staff are now assigned": past what is
	// counted with them.
	if k+2 < len(r.toks) && r.toks[k].lower == "and" {
		j := k + 1
		for j < len(r.toks) && j <= k+3 && !beForms[r.toks[j].lower] && !clauseEnds[r.toks[j].lower] && !verbLike(r.toks[j]) {
			j++
		}
		if j < len(r.toks) && beForms[r.toks[j].lower] {
			k = j
		}
	}
	if k+1 >= len(r.toks) || !beForms[r.toks[k].lower] {
		return ""
	}
	// "are now assigned".
	if k+2 < len(r.toks) && (strings.HasSuffix(r.toks[k+1].lower, "ly") || r.toks[k+1].lower == "now" || r.toks[k+1].lower == "also" || r.toks[k+1].lower == "then") {
		k++
	}
	t := r.toks[k+1]
	if stating[t.lower] && t.lower != "confirmed" {
		// "412,806 ballot papers were counted": all there were, not
		// the 1,137 that "were rejected".
		return "counted"
	}
	if !pastForm(t) || reporting[t.lower] || copulas[t.lower] || modalityWords[t.lower] != "" || counters[t.lower] != "" {
		return ""
	}
	return t.lower
}

// beForms are the forms of "be" a passive act follows.
var beForms = set("were", "was", "are", "is")

// containerNouns count whatever their "of" names.
var containerNouns = set("units", "unit", "pieces", "items", "copies", "pairs of", "lots", "batches")

// objectPronouns are the people a sentence's teller speaks to or of
// ("wardens told us"): never a qualifier.
var objectPronouns = set("me", "us", "him", "them", "you", "i", "myself", "ourselves")

// pronouns stand for something named elsewhere, never a qualifier.
var pronouns = set("there", "it", "this", "that", "they", "we", "he", "she", "i", "you", "these", "those")

// reporting verbs frame what a source says another said.
var reporting = set("said", "says", "say", "told", "tell", "tells", "announced", "announces", "stated", "states", "reported", "reports", "claims", "claimed",
	"confirmed", "confirms", "added", "explained", "noted", "wrote", "writes", "read", "heard", "learned", "learnt")

// objectOf is what a verb at token vi acts on ("opened its manufacturing
// plant in Leiden" -> manufacturing, plant), nil when nothing follows it
// but a preposition or the date.
func (r *reader) objectOf(vi, date int) []string {
	j := vi + 1
	for j < len(r.toks) && (r.toks[j].lower == "out" || r.toks[j].lower == "up" || noise[r.toks[j].lower]) {
		j++
	}
	// "recalled tens of thousands of its pressure cookers": what was
	// recalled, not how many.
	for j+2 < len(r.toks) && j+2 < date && multitudes[r.toks[j].lower] && r.toks[j+1].lower == "of" {
		j += 2
	}
	if j >= len(r.toks) || j >= date || prepositions[r.toks[j].lower] || clauseEnds[r.toks[j].lower] || r.toks[j].number() {
		return nil
	}
	var mods []string
	for ; j < len(r.toks) && j <= vi+7; j++ {
		t := r.toks[j]
		// "opens its tour next Friday": what it opens ends at its day.
		if j >= date || relativeDays[t.lower] && j+1 < len(r.toks) && weekdays[r.toks[j+1].lower] {
			break
		}
		if prepositions[t.lower] || clauseEnds[t.lower] || t.lower == "and" || (j > vi+1 && verbLike(t)) || t.number() && len(t.text) == 4 {
			break
		}
		mods = r.keep(mods, t)
	}
	// "ends today", "opened its doors": nothing it acts on names a thing.
	return mods
}

// pastBefore reports a verb in the past in the clause before token i
// ("finally got the job on", "came into force on"): what it says was
// done, whatever its source's date.
func (r *reader) pastBefore(i int) bool {
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		t := r.toks[j]
		if clauseEnds[t.lower] || t.lower == "and" || futureBe[t.lower] {
			return false
		}
		if irregularPast[t.lower] || pastForm(t) {
			return j == 0 || !futureBe[r.toks[j-1].lower]
		}
	}
	return false
}

// posts are what someone appointed gets: "got the job", "took up the
// post".
var posts = set("job", "post", "role", "position", "reins", "helm")

// multitudes say how many of what follows "of" a verb acts on.
var multitudes = set("tens", "hundreds", "thousands", "millions", "dozens", "scores", "lots", "batches", "all", "some", "most", "many")

// actorOf is what an event happened to when its verb takes no object: the
// noun phrase before it ("The helicopter base at Saanen opened"), the one
// a "which" refers to, or the clause's subject.
func (r *reader) actorOf(vi int) []string {
	j := vi - 1
	if r.toks[vi].lower == "live" && j >= 0 && goForms[r.toks[j].lower] {
		j-- // "the portal went live"
	}
	for j >= 0 && (auxiliaries[r.toks[j].lower] || modalityWords[r.toks[j].lower] != "" || r.toks[j].lower == "to") {
		j--
	}
	// "The strike that began on 5 February ends today": the subject
	// before its relative clause.
	for m := j; m > 0 && m > vi-12; m-- {
		if w := r.toks[m].lower; (w == "that" || w == "which") && verbLike(r.toks[m+1]) && !clauseEnds[r.toks[m-1].lower] && !r.toks[m-1].number() {
			if ws := r.antecedent(m - 1); len(ws) > 0 {
				return ws
			}
		}
		if w := r.toks[m].lower; w == "," || w == ";" || w == ":" || w == "and" {
			break
		}
	}
	if j >= 0 && (r.toks[j].lower == "which" || r.toks[j].lower == "that" || r.toks[j].lower == "who") {
		j--
		if j >= 0 && r.toks[j].text == "," {
			j--
		}
		return r.antecedent(j)
	}
	// "the lawsuit filed in June 2024", "The helicopter base at Saanen opened".
	if j >= 0 && !clauseEnds[r.toks[j].lower] && !prepositions[r.toks[j].lower] && !r.named[j] {
		return r.antecedent(j)
	}
	return r.owner(vi)
}

// antecedent is the noun phrase ending at token j, or, when that is a
// place's name inside a prepositional phrase ("the plant at the Leiden
// Bio Science Park"), the noun phrase it belongs to.
func (r *reader) antecedent(j int) []string {
	start := j
	for start >= 0 && !prepositions[r.toks[start].lower] && !clauseEnds[r.toks[start].lower] && !verbLike(r.toks[start]) && start > j-6 {
		start--
	}
	var mods []string
	named := true
	for k := start + 1; k <= j; k++ {
		if !determiners[r.toks[k].lower] && !r.toks[k].capital() {
			named = false
		}
		mods = r.keep(mods, r.toks[k])
	}
	if named && start >= 1 && prepositions[r.toks[start].lower] {
		return r.antecedent(start - 1)
	}
	return mods
}

// owner is the qualifier of a value or verb at token i: the nouns of its
// clause's subject ("The trial enrolled", "Our manufacturing plant ...
// opened"), none when a possessive says the subject owns it ("its 16
// stops") or the subject is the entity itself.
func (r *reader) owner(i int) []string {
	if i > 0 && possessives[r.toks[i-1].lower] {
		return []string{}
	}
	start := r.clauseStart(i)
	if start < i && r.toks[start].lower == "and" {
		start++
	}
	var mods []string
	for j := start; j < i && j < start+6; j++ {
		t := r.toks[j]
		if j > start && (prepositions[t.lower] || verbLike(t) || clauseEnds[t.lower]) || t.lower == "than" || t.number() && !r.version(t) {
			break
		}
		if j == start && prepositions[t.lower] {
			break
		}
		mods = r.keep(mods, t)
	}
	if mods == nil {
		mods = []string{}
	}
	return mods
}

// definiteSubject reports a clause, holding token i, whose subject is
// one noun, after "the" or opening the sentence ("The line has", "The
// trial enrolled", "Construction cost").
func (r *reader) definiteSubject(i int) bool {
	start := r.clauseStart(i)
	if start < i && r.toks[start].lower == "the" {
		start++
	}
	return start+1 < i && !r.named[start] && !auxiliaries[r.toks[start].lower] && !determiners[r.toks[start].lower] && !pronouns[r.toks[start].lower] &&
		(start == 0 || !r.toks[start].capital()) && (verbLike(r.toks[start+1]) || payments[r.toks[start+1].lower] != "")
}

// clauseStart is where the clause holding token i begins, past a
// reporting frame ("X said its trial ...") and leading prepositional
// phrases ("In 2024", "As of December 31, 2024,").
func (r *reader) clauseStart(i int) int {
	start := 0
	for j := i - 1; j >= 0; j-- {
		w := r.toks[j].lower
		if w == ";" || w == ":" {
			start = j + 1
			break
		}
		// "The QuickSeal recall, announced on September 9, cost": an
		// apposition's verb, no frame.
		if reporting[w] && j > 0 && r.toks[j-1].text == "," && j+1 < i && prepositions[r.toks[j+1].lower] {
			continue
		}
		if reporting[w] {
			start = j + 1
			// "said that", "tell us that".
			for k := start; k < i && k < start+3; k++ {
				if r.toks[k].lower == "that" {
					start = k + 1
					break
				}
			}
			break
		}
	}
	// Leading prepositional phrases end at a comma, or without one at a
	// name.
	for start < i && prepositions[r.toks[start].lower] {
		k := start + 1
		for k < i && k < start+14 && r.toks[k].text != "," {
			k++
		}
		if k >= i || r.toks[k].text != "," {
			k = start + 1
			for k < i && k < start+8 && !(k > start+1 && r.toks[k].capital() && !r.toks[k-1].capital() && !monthName(r.toks[k].text)) {
				k++
			}
		}
		if k < i && r.toks[k].text == "," {
			k++
		}
		if k >= i {
			break
		}
		start = k
	}
	return start
}

// keep adds token t to qualifiers unless it is a determiner, the
// subject's own word, a generic or noise word, a year or a function word.
func (r *reader) keep(mods []string, t token) []string {
	if k := tokenAt(r.toks, t.start); k < len(r.named) && r.named[k] {
		return mods
	}
	w := t.bare()
	if slices.Contains(mods, singular(w)) {
		return mods
	}
	if determiners[w] || r.subject[w] || generic[w] || noise[w] || prepositions[w] || auxiliaries[w] || clauseEnds[w] || w == "and" || w == "or" || pronouns[w] || objectPronouns[w] {
		return mods
	}
	// "Apparently 3,470 staff": an adverb says how sure, not of what.
	if len(w) > 5 && strings.HasSuffix(w, "ly") && !strings.HasSuffix(w, "ply") {
		return mods
	}
	if t.number() && !r.version(t) || scales[w] != 0 {
		return mods
	}
	// "Two years after it began": a number in words counts, it names nothing.
	if monthName(t.text) || wordNumbers[w] != 0 {
		return mods
	}
	return append(mods, singular(w))
}

// version reports a number that is part of a name ("Debian 0.91", "1.3
// Bo"): beside a capitalised word that is not a month.
func (r *reader) version(t token) bool {
	k := tokenAt(r.toks, t.start)
	near := func(j int) bool {
		return j >= 0 && j < len(r.toks) && r.toks[j].capital() && !monthName(r.toks[j].text) && !determiners[r.toks[j].lower]
	}
	return !yearRE.MatchString(t.text) && (near(k-1) || near(k+1))
}

// bound reports a value written as a bound: "more than 450", "over
// 20", "at least 3", "fewer than 10", "3900+".
func (r *reader) bound(v Value) bool {
	if v.End < len(r.s) && r.s[v.End] == '+' {
		return true
	}
	i := r.at(v)
	if i > 0 && (r.toks[i-1].lower == "over" || r.toks[i-1].lower == "under" || r.toks[i-1].lower == "exceeding") {
		return true
	}
	if i > 1 {
		two := r.toks[i-2].lower + " " + r.toks[i-1].lower
		return two == "more than" || two == "less than" || two == "fewer than" || two == "at least" || two == "at most" || two == "up to"
	}
	return false
}

// pastVerb is the verb in the passive or past tense nearest before the
// date at token i in its clause, of no known event ("The hoard was
// discovered on", "admitted its first patients on"), and its index.
func (r *reader) pastVerb(i int) (string, int) {
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		t := r.toks[j]
		if r.placeComma(j) {
			continue
		}
		if clauseEnds[t.lower] || t.lower == "and" {
			break
		}
		// "Declared at the leisure centre at 02:10 on 7 March 2025": a
		// participle may open the sentence.
		if t.capital() && j > 0 || len(t.lower) <= 4 || !strings.HasSuffix(t.lower, "ed") || strings.HasSuffix(t.lower, "eed") || noise[t.lower] || modalityWords[t.lower] != "" {
			continue
		}
		if j == 0 {
			if prepositions[r.toks[1].lower] && !reporting[t.lower] {
				return t.lower, j
			}
			break
		}
		prev := r.toks[j-1].lower
		next := ""
		if j+1 < len(r.toks) {
			next = r.toks[j+1].lower
		}
		// "inspected Harrow Reservoir Dam on", "recalled tens of
		// thousands of its kettles on": the verb and what it acts on.
		if auxiliaries[prev] || determiners[next] || possessives[next] || multitudes[next] || r.namedObject(j+1) && !reporting[t.lower] && !publishing[t.lower] {
			return t.lower, j
		}
		// "lifted off from Mahia on March 3", "ended on 28 February": a
		// verb with its particle, or with the date right after "on".
		// "She arrived 2/13/25": the day right after the verb.
		if particles[next] || next == "on" && j+2 == i && !reporting[t.lower] || j+1 == i && !stating[t.lower] {
			return t.lower, j
		}
	}
	return "", -1
}

// placeComma reports a comma at token j inside a place's name or
// after it ("refloated off Skelby Point, England, on 9 November"):
// between capitals, or between a capital and the preposition of a date
// that follows, it ends no clause.
func (r *reader) placeComma(j int) bool {
	if r.toks[j].text != "," || j == 0 || j+1 >= len(r.toks) || !r.toks[j-1].capital() {
		return false
	}
	// Past a place put "at", "in", "off" or "near" something.
	placed := false
	for k := j - 1; k >= 0 && k >= j-5; k-- {
		if w := r.toks[k].lower; w == "at" || w == "in" || w == "off" || w == "near" {
			placed = true
			break
		} else if !r.toks[k].capital() && !determiners[w] && w != "," {
			break
		}
	}
	next := r.toks[j+1]
	return placed && (next.capital() && !weekdays[next.lower] || next.lower == "on")
}

// namedObject reports a name at token k that a verb acts on, not a
// day's month or weekday ("posted June 20").
func (r *reader) namedObject(k int) bool {
	t := r.toks[k]
	return t.capital() && !monthName(t.lower) && !weekdays[t.lower] && !t.number()
}

// particles complete a verb of an event: "lifted off", "set up".
var particles = set("off", "up", "out", "down", "away", "over")

// firstServed reports a clause around the verb at vi and the date at i
// that names the first of the people a place serves ("its first
// patients").
func (r *reader) firstServed(vi, i int) bool {
	lo, hi := min(vi, i), max(vi, i)
	for j := max(0, lo-4); j < hi && j+1 < len(r.toks); j++ {
		if r.toks[j].lower == "first" && servedNouns[r.toks[j+1].lower] {
			return true
		}
	}
	return false
}

// errorWords say that a figure is wrong.
var errorWords = set("wrong", "incorrect", "inaccurate", "mistaken", "erroneous", "untrue", "misreported", "misstated", "overstated", "understated")

// replaced reports a value the sentence gives as wrong: after "not",
// "rather than" or "instead of" ("was £185,000, not £158,000"), or in a
// clause that calls it wrong ("Reports of a £15 million fee are wrong:").
func (r *reader) replaced(v Value) bool {
	i := r.at(v)
	if i > 0 && r.toks[i-1].lower == "not" || i > 1 && (r.toks[i-2].lower == "rather" && r.toks[i-1].lower == "than" || r.toks[i-2].lower == "instead" && r.toks[i-1].lower == "of") {
		return true
	}
	lo, hi := r.sentenceClause(i), len(r.toks)
	for j := i; j < len(r.toks); j++ {
		// "started turning on 2 December, and we still believe the site
		// was the wrong choice": another clause's error.
		if w := r.toks[j].lower; w == ";" || w == ":" || w == "," && j+1 < len(r.toks) && (r.toks[j+1].lower == "and" || r.toks[j+1].lower == "but") {
			hi = j
			break
		}
	}
	for j := lo; j < hi; j++ {
		if errorWords[r.toks[j].lower] || r.toks[j].lower == "not" && j+1 < hi && (r.toks[j+1].lower == "correct" || r.toks[j+1].lower == "true" || r.toks[j+1].lower == "accurate") {
			return true
		}
	}
	return false
}

// yearOnly reports a date token that is a bare year.
func yearOnly(t token) bool { return len(t.text) == 4 && t.number() }

// partOfYear is the quarter or half a sentence's figures are for ("Q1",
// "first half"), "" when it names none or several.
func partOfYear(s string) string {
	found := ""
	for _, m := range partOfYearRE.FindAllStringSubmatch(strings.ToLower(s), -1) {
		p := m[0]
		switch {
		case strings.HasPrefix(p, "q"), strings.HasPrefix(p, "h"):
			p = strings.ToUpper(p)
		case strings.Contains(p, "quarter"):
			p = "Q" + strconv.Itoa(1+slices.Index([]string{"first", "second", "third", "fourth"}, strings.Fields(p)[0]))
		default:
			p = "H" + strconv.Itoa(1+slices.Index([]string{"first", "second"}, strings.Fields(p)[0]))
		}
		if found != "" && found != p {
			return ""
		}
		found = p
	}
	return found
}

var partOfYearRE = regexp.MustCompile(`\b(?:q[1-4]|h[12]|(?:first|second|third|fourth) quarter|(?:first|second) half)\b`)

// subjectLight are verbs that say an event of their subject happened
// ("the merger took effect", "first light came"); objectLight verbs say
// it of their object ("achieved first light", "marked its opening").
var (
	subjectLight = set("came", "comes", "took", "takes", "happened", "happens", "occurred", "occurs", "was", "were")
	objectLight  = set("achieved", "achieves", "reached", "reaches", "saw", "sees", "marked", "marks", "celebrated", "celebrates", "recorded", "hit",
		"entered", "enters", "made", "makes", "held", "holds", "got", "gained", "earned", "won", "received", "obtained")
)

// lightEvent reads the event a light verb before the date at token i
// names: its head noun and qualifiers.
func (r *reader) lightEvent(i int) (string, []string, bool) {
	for j := i - 1; j > 0 && j >= i-8; j-- {
		w := r.toks[j].lower
		if clauseEnds[w] && w != "which" && w != "that" || w == "and" {
			break
		}
		var ws []string
		switch {
		case objectLight[w]:
			// "won the Corran Bay Marathon on": the subject's own day.
			if r.namedAt(j + 1) {
				return "occurrence", []string{}, true
			}
			head, mods := r.nounRun(j + 1)
			if head != "" && !r.subject[head] {
				return head, mods, true
			}
			if w != "held" {
				continue
			}
		case subjectLight[w] && (w != "was" && w != "were" || j+1 < i && (r.toks[j+1].lower == "on" || r.toks[j+1].lower == "in")) && j+1 < len(r.toks):
			// "took effect", "came", "was on": what the clause is about;
			// "the merger of A and B, which took effect": the merger.
			if k := j - 1; k > 0 && (r.toks[k].lower == "which" || r.toks[k].lower == "that") {
				for o := k - 1; o > 0 && o >= k-10; o-- {
					if r.toks[o].lower == "of" && !r.toks[o-1].capital() && !determiners[r.toks[o-1].lower] {
						return r.toks[o-1].bare(), []string{}, true
					}
				}
			}
			ws = r.actorOf(j)
		}
		if len(ws) > 0 {
			head := ws[len(ws)-1]
			if timeWords[head] {
				return "", nil, false
			}
			return head, ws[:len(ws)-1], true
		}
		// "The 2024 Corran Bay Marathon was held on": the subject itself.
		if subjectLight[w] || w == "held" || w == "staged" || w == "run" {
			if k := j - 1; k >= 0 && (auxiliaries[r.toks[k].lower] || subjectLight[w]) && r.subjectBefore(j) {
				return "occurrence", []string{}, true
			}
			// "The first gala was held on 21 June 2025": what was held, as
			// "held its first gala on".
			if k := j - 1; k >= 0 && auxiliaries[r.toks[k].lower] && (w == "held" || w == "staged") {
				if ws := r.actorOf(j); len(ws) > 0 && !timeWords[ws[len(ws)-1]] {
					return ws[len(ws)-1], ws[:len(ws)-1], true
				}
			}
		}
	}
	return "", nil, false
}

// namedAt reports a name holding the subject's words at token k, past
// an article.
func (r *reader) namedAt(k int) bool {
	for k < len(r.toks) && determiners[r.toks[k].lower] {
		k++
	}
	return k < len(r.toks) && r.named[k]
}

// subjectBefore reports a clause, before token j, whose subject is the
// entity itself ("The 2024 Corran Bay Marathon was held").
func (r *reader) subjectBefore(j int) bool {
	for k := r.clauseStart(j); k < j; k++ {
		if r.named[k] {
			return true
		}
	}
	return false
}

// headline reports a date that ends a headline after a dash: "Tamarak
// Ridge ships first concentrate — Sept. 2".
func (r *reader) headline(v Value) bool {
	before := strings.TrimRight(r.s[:v.Start], " *")
	rest := strings.Trim(r.s[v.End:], " *.")
	return rest == "" && (strings.HasSuffix(before, "—") || strings.HasSuffix(before, "–") || strings.HasSuffix(before, " -"))
}

// headlineVerb is the verb of a headline that ends with its date: the
// first word after a name that a list of events knows, or a present
// form ("ships") of a verb none does, and its index.
func (r *reader) headlineVerb(v Value) (string, int) {
	if !r.headline(v) {
		return "", -1
	}
	end := r.at(v)
	for j := 1; j < end; j++ {
		t := r.toks[j]
		if t.capital() || !r.toks[j-1].capital() && !r.toks[j-1].number() {
			continue
		}
		if eventNouns[t.lower] != "" || len(t.lower) > 3 && strings.HasSuffix(t.lower, "s") && !strings.HasSuffix(t.lower, "ss") && !determiners[t.lower] {
			return t.lower, j
		}
		return "", -1
	}
	return "", -1
}

// holding verbs say that what they act on took place.
var holding = set("holds", "hosts", "stages", "hosted", "staged")

// eventNounWords are nouns of things that happen on a day: a date after
// one ("the final show at Wembley on 30 November") is its day.
var eventNounWords = set("show", "concert", "performance", "match", "game", "race", "final", "ceremony", "election", "vote", "poll", "ballot",
	"meeting", "hearing", "trial", "launch", "release", "flight", "voyage", "sailing", "departure", "arrival", "opening", "closing", "premiere",
	"festival", "event", "fixture", "auction", "sale", "visit", "tour", "parade", "service", "screening", "broadcast", "debut", "count", "recount",
	"strike", "walkout", "outage", "eruption", "earthquake", "fire", "flood", "storm", "crash", "collision", "accident", "derailment", "grounding",
	"birth", "funeral", "wedding", "inauguration", "referendum", "inspection", "audit", "shipment", "delivery", "handover", "signing",
	"order", "evacuation", "ruling", "verdict", "judgment", "decision", "announcement", "recall", "reopening", "dedication", "appointment", "discovery", "gala", "lockdown")

// ownDocument are the words before a document's noun that make it a
// document a source speaks of: "our release", "the earlier statement".
var ownDocument = set("our", "its", "their", "my", "his", "her", "earlier", "previous", "last", "original", "first")

// dayWords name the day of an event: "opening day", "race night".
var dayWords = set("day", "night", "date", "weekend")

// dayBefore reads the event a whole day written before its noun names
// ("the 7 December 2024 hailstorm", "Brennock's December 17 hailstorm",
// "the March 3 announcement"): the day comes after an article, a
// possessive or nothing, so "on 7 December storm damage" is no storm's.
func (r *reader) dayBefore(v Value) (string, bool) {
	i, after := r.at(v), r.after(v)
	if len(v.Day) != len("2006-01-02") || after >= len(r.toks) {
		return "", false
	}
	if i > 0 && !determiners[r.toks[i-1].lower] && !r.toks[i-1].possessive() {
		return "", false
	}
	t := r.toks[after]
	w := singular(t.lower)
	if w == "deadline" && !t.capital() {
		return "closure", true // "before the 31 January deadline"
	}
	if t.capital() || !eventNounWords[w] && happeningHeads[w] == "" {
		return "", false
	}
	return eventHead(w), true
}

// openUntil reports an "until" at token u that ends the time the
// subject, or "it", is open: "it's open till", "the fund is open to
// applications until".
func (r *reader) openUntil(u int) bool {
	o := slices.IndexFunc(r.toks[max(0, u-4):u], func(t token) bool { return t.lower == "open" })
	if o < 0 {
		return false
	}
	o += max(0, u-4)
	for k := o - 1; k >= 0 && k >= o-3; k-- {
		if w := r.toks[k].bare(); w == "it" || w == "it's" || w == "it’s" || r.subject[w] || r.named[k] {
			return true
		}
	}
	return false
}

// untilWords end the time something is open: "open until".
var untilWords = set("until", "till", "til", "through", "thru")

// nounEvent reads the event a noun names for a date that no verb dates:
// the noun phrase before the date's preposition, past the places it
// happened at ("the final show at Wembley Stadium in London on"), or
// the one a "for" after the date names ("on 12/3/2024 for the final
// Lowland show"); its head must be a noun of a thing that happens.
func (r *reader) nounEvent(i, after int) (string, []string, bool) {
	if i > 1 && (r.toks[i-1].lower == "on" || r.toks[i-1].lower == "of" || r.toks[i-1].text == ",") {
		j := i - 2
		// Past the places: "at Wembley Stadium in London".
		for j > 0 && r.toks[j].capital() {
			k := j
			for k > 0 && (r.toks[k].capital() || determiners[r.toks[k].lower]) {
				k--
			}
			if k >= 0 && (r.toks[k].lower == "at" || r.toks[k].lower == "in") {
				j = k - 1
				continue
			}
			break
		}
		// "on the day of the first release, 13/04/2023".
		if r.toks[i-1].text == "," {
			j = i - 2
		}
		// "on opening day, 28/6/2024", "on race night": the event the
		// day is of.
		if j >= 1 && dayWords[r.toks[j].lower] && eventNounWords[singular(r.toks[j-1].lower)] {
			j--
		}
		// "in our release of April 28, 2025": a document's own day.
		if j >= 1 && r.toks[i-1].lower == "of" && (documentWords[r.toks[j].lower] || writings[r.toks[j].lower]) && ownDocument[r.toks[j-1].lower] {
			return "", nil, false
		}
		if j >= 0 && eventNounWords[singular(r.toks[j].lower)] && !r.toks[j].capital() {
			var mods []string
			for k := j - 1; k >= 0 && k >= j-4 && !determiners[r.toks[k].lower] && !prepositions[r.toks[k].lower] && !clauseEnds[r.toks[k].lower] && !verbLike(r.toks[k]); k-- {
				mods = r.keep(mods, r.toks[k])
			}
			slices.Reverse(mods)
			if mods == nil {
				mods = []string{}
			}
			return eventHead(singular(r.toks[j].lower)), mods, true
		}
	}
	if after+1 < len(r.toks) && r.toks[after].lower == "for" && i > 0 && r.toks[i-1].lower == "on" {
		k := after + 1
		for k < len(r.toks) && determiners[r.toks[k].lower] {
			k++
		}
		var ws []token
		for ; k < len(r.toks) && len(ws) < 5 && !prepositions[r.toks[k].lower] && !clauseEnds[r.toks[k].lower] && r.toks[k].lower != "and" && !verbLike(r.toks[k]); k++ {
			ws = append(ws, r.toks[k])
		}
		if len(ws) > 0 && eventNounWords[singular(ws[len(ws)-1].lower)] && !ws[len(ws)-1].capital() {
			var mods []string
			for _, t := range ws[:len(ws)-1] {
				mods = r.keep(mods, t)
			}
			if mods == nil {
				mods = []string{}
			}
			return eventHead(singular(ws[len(ws)-1].lower)), mods, true
		}
	}
	return "", nil, false
}

// clockUnits are a time of day's, never a count's.
var clockUnits = set("a.m", "p.m", "a.m.", "p.m.", "am", "pm", "o'clock", "hrs")

// snapshotRE ends the words that make a day the moment an event's
// figure had been reached by: "by Friday evening (", "by noon on". ("By
// 31 March 2025 the appeal had supported 186 schools" is its count to
// date; "As of December 31, 2024" a year's figure.)
var snapshotRE = regexp.MustCompile(`(?i)\bby\s+(?:[a-z]+\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|morning|afternoon|evening|night|noon|midday|midnight|dawn|dusk|nightfall)\b[^.;:]{0,16}$`)

// snapshot is the day a figure had been reached by, in the course of
// the event ("by Friday evening (July 19, 2024) it had burned 18,300
// acres"): a count taken on the way, not the final one; "" when the
// sentence gives none.
func (r *reader) snapshot(v Value, vals []Value) string {
	if v.Kind != KindNumber && v.Kind != KindMoney {
		return ""
	}
	for _, y := range vals {
		if y.Kind != KindDate || len(y.Day) != 10 || y.End > v.Start {
			continue
		}
		// "As of June 11, 2025, the CDC had reported 12 illnesses": a
		// count on the way, of that day; "As of December 31, 2024" is
		// the year's.
		asOf := asOfRE.MatchString(r.s[max(0, y.Start-12):y.Start]) && !strings.HasSuffix(y.Day, "-12-31")
		if !asOf && !snapshotRE.MatchString(r.s[max(0, y.Start-40):y.Start]) {
			continue
		}
		if between := r.s[y.End:v.Start]; !strings.ContainsAny(between, ".;") && (len(between) < 60 || asOf && len(between) < 90) {
			return y.Day
		}
	}
	return ""
}

// asOfRE ends "as of" before a day.
var asOfRE = regexp.MustCompile(`(?i)\bas (?:of|at)\s+$`)

// ceremonial words make an opening its ceremony.
var ceremonial = set("formally", "officially", "ceremonially")

// publicationRE starts a note of when a document came out.
var publicationRE = regexp.MustCompile(`(?i)^[\W_]*(?:first |last )?(?:released|published|issued|updated|posted|revised|printed|compiled)(?:\s+on)?\s+`)

// splitYearEndRE ends the text before a split year's second part:
// "2024–" of "2024–25".
var splitYearEndRE = regexp.MustCompile(`\b(?:19|20)\d\d[–/-]$`)

// signOffRE starts a document's sign-off: "Approved by the trustees on".
var signOffRE = regexp.MustCompile(`(?i)^[\W_]*(?:approved|adopted|signed|authori[sz]ed|endorsed)\s+by\s+[^.,;:0-9]{2,60}?\s+on\s+`)

// publishedRE is "Published" and the like, anywhere.
var publishedRE = regexp.MustCompile(`\b(?:[Pp]ublished|PUBLISHED|[Pp]osted|[Uu]pdated|[Ii]ssued|[Rr]eleased|[Pp]rinted)(?:\s+on)?\s+`)

// publicationNote reports a sentence that only says when its document
// came out: "Released 16 April 2025.", "*Last updated 3 May 2024*".
func publicationNote(s string) bool {
	m := publicationRE.FindString(s)
	if m == "" {
		// "Approved by the trustees on 9 December 2025.": a report's
		// sign-off, its own date.
		m = signOffRE.FindString(s)
	}
	if m == "" {
		// "HARLOWE COURIER — OPINION Published 14 June 2025": after a
		// masthead in capitals.
		loc := publishedRE.FindStringIndex(s)
		if loc == nil || strings.ToUpper(s[:loc[0]]) != s[:loc[0]] {
			return false
		}
		m = s[:loc[1]]
	}
	rest := strings.TrimRight(s[len(m):], " .*_)")
	vals := Values(rest)
	return len(vals) == 1 && vals[0].Kind == KindDate && vals[0].Start == 0 && vals[0].End == len(rest)
}

// publishing verbs date a document's coming out.
var publishing = set("published", "posted", "printed", "issued", "released", "aired", "broadcast")

// writings are documents a source may speak of: their dates are theirs.
var writings = set("story", "article", "column", "version", "piece", "post", "blog", "op-ed", "editorial", "feature", "item", "bulletin", "newsletter", "statement", "interview", "broadcast", "episode")

// numberOfRE ends the words before a count that say what it is the
// number of: "The total number of ballot papers counted across the
// region was ".
var numberOfRE = regexp.MustCompile(`(?i)\bnumber of ((?:[a-z-]+ ){0,2}?[a-z-]+s)\b[^.;:0-9]{0,60}?\b(?:was|were|is|are|stood at|reached|totalled|totaled|came to)\s+(?:about |around |some |nearly |almost |just over |just under )?$`)

// notUntil is the verb a negation puts off until the date at token i
// ("didn't declare the final results until 16 May", "did not open
// until"), and its index; "" when the date follows no such "until".
func (r *reader) notUntil(i int) (string, int) {
	if i == 0 || r.toks[i-1].lower != "until" {
		return "", 0
	}
	for j := i - 2; j >= 0 && j >= i-10; j-- {
		w := r.toks[j].lower
		if clauseEnds[w] || w == "and" {
			break
		}
		if (w == "not" || w == "never" || strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n’t")) && j+1 < i-1 {
			v := r.toks[j+1]
			if v.capital() || determiners[v.lower] || v.number() {
				return "", 0
			}
			return v.lower, j + 1
		}
	}
	return "", 0
}
