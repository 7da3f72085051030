package research

// The parts of a claim around its value: the attribute an amount or a
// percentage is of, the noun a count counts, the period and the modality.

import (
	"slices"
	"strconv"
	"strings"
)

// attribute sets c's head and qualifiers for an amount or a percentage,
// trying in turn: the noun phrase before a copula or "of"; the noun of
// the verb before it, qualified by the purpose or agreement it names; the
// noun after it; the attribute of the sentence's previous value of the
// same unit; and false when none names one.
func (r *reader) attribute(c *Claim, v Value, earlier []Claim) bool {
	i, after := r.at(v), r.after(v)
	j := i - 1
	// "cost a total of $1.2 billion": the total is the value itself.
	if j > 1 && r.toks[j].lower == "of" && (r.toks[j-1].lower == "total" || r.toks[j-1].lower == "sum") {
		j -= 2
		for j >= 0 && determiners[r.toks[j].lower] {
			j--
		}
	}
	// Past fillers and a change on the way ("rose 12% to $50 million").
	for j >= 0 && (fillers[r.toks[j].lower] && r.toks[j].lower != "of" || r.toks[j].number() && j > 0 && copulas[r.toks[j-1].lower]) {
		j--
	}
	if j >= 0 && r.toks[j].lower == "for" && j == i-1 {
		// "sold Danny Okafor for £15 million", "its acquisition of
		// Quillwork Ltd., a maker of tools, for $212.4 million": the price
		// of an exchange, past an apposition.
		end := j
		if j > 0 && r.toks[j-1].text == "," {
			// Past the apposition: back to the comma that opens it.
			for k := j - 2; k >= 0 && k >= j-16; k-- {
				if r.toks[k].text == "," {
					end = k
					break
				}
			}
		}
		for k := end - 1; k >= 0 && k >= end-8 && !clauseEnds[r.toks[k].lower]; k-- {
			if exchanges[r.toks[k].lower] {
				c.Head, c.Mods = "price", []string{}
				return true
			}
		}
	}
	if j >= 0 && (copulas[r.toks[j].lower] || r.toks[j].lower == "of" || r.toks[j].lower == "for" && j == i-1 && c.Unit != "%") {
		if head, mods, ok := r.phraseBefore(j); ok {
			c.Head, c.Mods = head, mods
			return true
		}
		// "what the by-election cost: we are told it came to £48,500":
		// the pronoun is what the sentence said was paid before it.
		if j > 0 && pronouns[r.toks[j-1].lower] && copulas[r.toks[j].lower] {
			for k := j - 2; k >= 0; k-- {
				if n := payments[r.toks[k].lower]; n != "" && !r.toks[k].capital() {
					c.Head, c.Mods = n, []string{}
					return true
				}
			}
		}
	}
	// "a pay deal worth €64 million", "a contract worth €28.5 million":
	// what is worth it.
	if i > 1 && r.toks[i-1].lower == "worth" && !r.toks[i-2].capital() && !verbLike(r.toks[i-2]) && !clauseEnds[r.toks[i-2].lower] &&
		!prepositions[r.toks[i-2].lower] && !determiners[r.toks[i-2].lower] && !auxiliaries[r.toks[i-2].lower] && !(after+1 < len(r.toks) && r.toks[after].lower == "in" && !r.toks[after+1].number()) {
		if head, mods, ok := r.phraseBefore(i - 1); ok {
			c.Head, c.Mods = head, mods
			return true
		}
	}
	// "worth €150,000 in prize money": the money it is.
	if i > 0 && r.toks[i-1].lower == "worth" && after+1 < len(r.toks) && r.toks[after].lower == "in" {
		if head, mods := r.nounRun(after + 1); head != "" {
			c.Head, c.Mods = head, mods
			return true
		}
	}
	// "The contract, worth $46.2 million,": what is worth it.
	if i > 2 && r.toks[i-1].lower == "worth" && r.toks[i-2].text == "," {
		if head, mods, ok := r.phraseBefore(i - 2); ok {
			c.Head, c.Mods = head, mods
			return true
		}
	}
	// "put the contract value at £83.5 million", "valued the deal at".
	if i > 1 && r.toks[i-1].lower == "at" {
		for k := i - 2; k >= 0 && k >= i-8 && !clauseEnds[r.toks[k].lower]; k-- {
			if appraisals[r.toks[k].lower] {
				if head, mods, ok := r.phraseBefore(i - 1); ok {
					c.Head, c.Mods = head, mods
					// "put the clean-up at £14.1 million": what it cost.
					if !moneyNoun(head) {
						c.Head, c.Mods = "cost", append(mods, head)
					}
					return true
				}
				break
			}
		}
	}
	// "at £268m to build": what it costs to do.
	if i > 0 && r.toks[i-1].lower == "at" && after+1 < len(r.toks) && r.toks[after].lower == "to" && !r.toks[after+1].capital() && !determiners[r.toks[after+1].lower] {
		c.Head, c.Mods = "cost", []string{}
		return true
	}
	// "from the $48.2 million previously reported", "up from $41.5
	// million": the figure compared with is of the same attribute.
	if j >= 0 && comparisons[r.toks[j].lower] {
		for k := len(earlier) - 1; k >= 0; k-- {
			if e := earlier[k]; e.Unit == c.Unit && e.Value.Kind == v.Kind {
				c.Head, c.Mods, c.Attribute = e.Head, e.Mods, e.Attribute
				return true
			}
		}
	}
	// "will put $130 million into the plant": an investment.
	if j >= 0 && investing[r.toks[j].lower] && after < len(r.toks) && r.toks[after].lower == "into" {
		c.Head, c.Mods = "investment", r.owner(j)
		c.weak = r.definiteSubject(j)
		return true
	}
	k := j
	// "will pay Corvid Aerial $3.2 million": past the payee's name.
	for k > 0 && r.toks[k].capital() && payments[r.toks[k].lower] == "" {
		k--
	}
	// "cost the county $2.7 million", "cost the Columbus trucking
	// company $16.4 million": past the one who paid or was paid.
	if o := r.indirectObject(j); o >= 0 {
		k = o
	}
	// "had paid out 621 million dollars", "paid back $2 million".
	if k > 0 && (r.toks[k].lower == "out" || r.toks[k].lower == "back") && payments[r.toks[k-1].lower] != "" {
		k--
	}
	if k >= 0 && payments[r.toks[k].lower] != "" {
		c.Head = payments[r.toks[k].lower]
		// "received $2.4 million in sponsorship": the noun says more.
		if after+1 < len(r.toks) && r.toks[after].lower == "in" && !r.toks[after+1].number() && !r.toks[after+1].capital() {
			if head, mods := r.nounRun(after + 1); head != "" && !timeWords[head] {
				c.Head, c.Mods = head, mods
				return true
			}
		}
		// "has won a €25.8 million contract": the noun after the amount
		// names it better than the verb.
		if k == j && after < len(r.toks) && !r.toks[after].capital() {
			if head, mods := r.nounRun(after); head != "" && headClasses[head] != "" && head != c.Head {
				c.Head, c.Mods = head, mods
				return true
			}
		}
		purpose := r.purpose(after, k)
		// "put the construction cost at": the noun's own phrase.
		if k > 0 && payments[r.toks[k].lower] == singular(r.toks[k].lower) &&
			(determiners[r.toks[k-1].lower] || !r.toks[k-1].capital() && !verbLike(r.toks[k-1]) && !prepositions[r.toks[k-1].lower] && !clauseEnds[r.toks[k-1].lower]) {
			if head, mods, ok := r.phraseBefore(k + 1); ok && head == r.toks[k].lower {
				c.Mods = append(mods, purpose...)
				return true
			}
		}
		// "paid €35m upfront".
		if after < len(r.toks) && paymentKinds[r.toks[after].lower] {
			purpose = append(purpose, strings.ReplaceAll(r.toks[after].lower, "-", ""))
		}
		owner := r.owner(k)
		// "in a merger that cost £41.2 million": what "that" stands for.
		if k > 1 && (r.toks[k-1].lower == "that" || r.toks[k-1].lower == "which") {
			a := k - 2
			if r.toks[a].text == "," {
				a--
			}
			if a >= 0 {
				owner = r.antecedent(a)
			}
		}
		c.Mods = append(owner, purpose...)
		c.weak = len(purpose) == 0 && r.definiteSubject(k)
		return true
	}
	// "Some $470 million was spent on the bridge": the verb after it.
	if after+1 < len(r.toks) && auxiliaries[r.toks[after].lower] {
		k := after + 1
		if r.toks[k].lower == "been" && k+1 < len(r.toks) {
			k++
		}
		if n := payments[r.toks[k].lower]; n != "" {
			c.Head, c.Mods = n, []string{}
			if k+2 < len(r.toks) && (r.toks[k+1].lower == "on" || r.toks[k+1].lower == "for") {
				if head, mods := r.nounRun(k + 2); head != "" && !timeWords[head] {
					c.Mods = append(mods, head)
				}
			}
			return true
		}
	}
	// "The £110 million Lantern Quay scheme": the noun after the name.
	if k := after; k < len(r.toks) && r.toks[k].capital() {
		for k < len(r.toks) && k < after+4 && r.toks[k].capital() {
			k++
		}
		if k < len(r.toks) && !r.toks[k].capital() && !prepositions[r.toks[k].lower] && !clauseEnds[r.toks[k].lower] && !verbLike(r.toks[k]) &&
			!r.toks[k].number() && r.toks[k].lower != "and" && !auxiliaries[r.toks[k].lower] {
			if head, mods := r.nounRun(after); head != "" {
				c.Head, c.Mods = head, mods
				if !moneyNoun(head) {
					c.Head, c.Mods = "cost", append(mods, head)
				}
				return true
			}
		}
	}
	// "the new £64.2 million Linden Wing is": what the named thing
	// cost, when an article opens the phrase.
	if k := after; k < len(r.toks) && r.toks[k].capital() && r.articleBefore(i) {
		var mods []string
		for ; k < len(r.toks) && k < after+5 && r.toks[k].capital(); k++ {
			mods = r.keep(mods, r.toks[k])
		}
		if k == len(r.toks) || verbLike(r.toks[k]) || auxiliaries[r.toks[k].lower] || copulas[r.toks[k].lower] || clauseEnds[r.toks[k].lower] || r.toks[k].lower == "and" {
			if mods == nil {
				mods = []string{}
			}
			c.Head, c.Mods = "cost", mods
			return true
		}
	}
	if after < len(r.toks) {
		t := r.toks[after]
		switch {
		case t.lower == "of" || t.lower == "in" || (t.lower == "came" && after+1 < len(r.toks) && r.toks[after+1].lower == "from"):
			k := after + 1
			if t.lower == "came" {
				k++
			}
			if head, mods := r.nounRun(k); head != "" {
				c.Head, c.Mods = head, mods
				return true
			}
		case !prepositions[t.lower] && !clauseEnds[t.lower] && !verbLike(t) && !t.capital() && !t.number() && t.lower != "and":
			if head, mods := r.nounRun(after); head != "" {
				c.Head, c.Mods = head, mods
				// "the £38.5m ship" is what the ship cost; "a $5 million
				// settlement" is a settlement.
				if !moneyNoun(head) {
					c.Head, c.Mods = "cost", append(mods, head)
				}
				return true
			}
		}
	}
	for k := len(earlier) - 1; k >= 0; k-- {
		if e := earlier[k]; e.Unit == c.Unit && e.Value.Kind == v.Kind {
			c.Head, c.Mods, c.Attribute = e.Head, e.Mods, e.Attribute
			return true
		}
	}
	return false
}

// articleBefore reports an article before the figure at token i, past
// one adjective: "the new £64.2 million", "a £5m".
func (r *reader) articleBefore(i int) bool {
	j := i - 1
	if j >= 1 && !r.toks[j].capital() && !determiners[r.toks[j].lower] && !verbLike(r.toks[j]) && !prepositions[r.toks[j].lower] && !clauseEnds[r.toks[j].lower] {
		j--
	}
	return j >= 0 && (r.toks[j].lower == "the" || r.toks[j].lower == "a" || r.toks[j].lower == "an" || r.toks[j].lower == "its" || r.toks[j].lower == "their")
}

// indirectObject is the index of the payment verb whose indirect object
// is the noun phrase ending at token j, right before an amount ("cost
// the company $18.5 million", "paid its founders $2 million"); -1 when
// there is none.
func (r *reader) indirectObject(j int) int {
	for m := j; m > 0 && m > j-6; m-- {
		t := r.toks[m]
		if determiners[t.lower] {
			if payments[r.toks[m-1].lower] != "" {
				return m - 1
			}
			return -1
		}
		if clauseEnds[t.lower] || prepositions[t.lower] || t.number() || verbLike(t) || t.lower == "and" {
			return -1
		}
	}
	return -1
}

// phraseBefore reads the noun phrase that ends before token j (a copula or
// "of"): its last noun is the head, the nouns before it and after an "of"
// inside it qualify it ("The final construction cost of the Eastline" ->
// construction cost). A possessive ends it ("Grauhorn's budget").
func (r *reader) phraseBefore(j int) (string, []string, bool) {
	k := j - 1
	for k >= 0 && (auxiliaries[r.toks[k].lower] || fillers[r.toks[k].lower] && !determiners[r.toks[k].lower] && r.toks[k].lower != "of") {
		k--
	}
	// "the award to the Thornmere dig (University of Eastfield) was":
	// past the parenthesis.
	if k > 0 && r.toks[k].text == ")" {
		for k > 0 && r.toks[k].text != "(" {
			k--
		}
		k--
	}
	k = r.pastAside(k)
	end := k
	start := end
	jumped := false
	for start >= 0 && (end-start < 8 || jumped && end-start < 14) {
		t := r.toks[start]
		// "of the Eastline" inside the phrase: go on past it.
		// Not past a name or a verb: "Sporting Mar for a fee", "funded by a grant".
		if determiners[t.lower] && start > 1 && (r.toks[start-1].lower == "of" || r.toks[start-1].lower == "to") && !determiners[r.toks[start-2].lower] &&
			(r.toks[start-1].lower == "of" || !r.toks[start-2].capital() && !strictVerb(r.toks[start-2]) && !verbLike(r.toks[start-2])) {
			start -= 2
			continue
		}
		// "The final cost of staging the 2025 festival": what the "of"
		// does.
		if determiners[t.lower] && start > 2 && strings.HasSuffix(r.toks[start-1].lower, "ing") && r.toks[start-2].lower == "of" {
			start -= 3
			jumped = true
			continue
		}
		// "the cost of the water main break and the advisory": both
		// things the "of" names.
		if determiners[t.lower] && start > 1 && r.toks[start-1].lower == "and" && r.ofBefore(start-2) {
			start -= 2
			jumped = true
			continue
		}
		// "the total attendance at the 14 concerts of the tour": a
		// number inside the phrase's own preposition.
		if t.number() && !yearOnly(t) && start != end && start > 1 && determiners[r.toks[start-1].lower] && prepositions[r.toks[start-2].lower] {
			start -= 3
			jumped = true
			continue
		}
		// "one-off merger costs of £12 million and annual savings":
		// another phrase.
		if t.lower == "and" && start > 0 && (r.toks[start-1].number() || scales[r.toks[start-1].lower] != 0) || t.number() && !yearOnly(t) && start != end && !r.version(t) {
			break
		}
		// "with 412,600 skier visits and revenue of": the count before
		// "and" is a phrase of its own.
		if t.lower == "and" && slices.ContainsFunc(r.toks[max(0, start-4):start], func(p token) bool { return p.number() && !yearOnly(p) }) {
			break
		}
		if clauseEnds[t.lower] || strictVerb(t) && start != end || determiners[t.lower] || t.possessive() && start != end {
			break
		}
		start--
	}
	start++
	if start > end {
		return "", nil, false
	}
	// The head is the last word before a preposition; an "of" phrase
	// after it qualifies it.
	headAt := end
	for p := start; p <= end; p++ {
		if prepositions[r.toks[p].lower] {
			headAt = p - 1
			break
		}
	}
	if headAt < start {
		return "", nil, false
	}
	var mods []string
	for p := start; p < headAt; p++ {
		mods = r.keep(mods, r.toks[p])
	}
	if headAt+1 <= end && r.toks[headAt+1].lower == "of" {
		for p := headAt + 2; p <= end; p++ {
			mods = r.keep(mods, r.toks[p])
		}
	}
	head := r.toks[headAt]
	if r.subject[head.bare()] || head.number() || determiners[head.lower] || noise[head.lower] || strictVerb(head) {
		return "", nil, false
	}
	if mods == nil {
		mods = []string{}
	}
	return singular(head.bare()), mods, true
}

// pastAside is where the noun phrase ending at token k ends without
// what is said aside of it: a relative clause ("the advisory that
// followed") or an apposition ("The total cost of the clean-up,
// including salvage and shoreline cleaning,").
func (r *reader) pastAside(k int) int {
	for m := k; m > 0 && m >= k-3; m-- {
		if w := r.toks[m].lower; (w == "that" || w == "which") && m < k && verbLike(r.toks[m+1]) && !copulas[r.toks[m+1].lower] {
			if r.toks[m-1].text == "," {
				m--
			}
			return m - 1
		}
	}
	if k < 1 || r.toks[k].text != "," {
		return k
	}
	for m := k - 1; m > 1 && m >= k-24; m-- {
		w := r.toks[m].lower
		if w == ";" || w == ":" || copulas[w] {
			return k
		}
		if r.toks[m-1].text == "," && (w == "including" || w == "excluding" || w == "plus") {
			return m - 2
		}
		// "The price of the AW169, fully fitted for night operations,".
		if r.toks[m-1].text == "," && m-2 >= 0 && !r.toks[m-2].number() && (pastForm(r.toks[m]) || strings.HasSuffix(w, "ly") && m+1 < k && pastForm(r.toks[m+1])) {
			return m - 2
		}
	}
	return k
}

// ofBefore reports an "of" among the few words of one noun phrase
// ending at token k ("cost of the Carroll Avenue water main break").
func (r *reader) ofBefore(k int) bool {
	for m := k; m >= 0 && m > k-7; m-- {
		t := r.toks[m]
		if t.lower == "of" {
			return true
		}
		if clauseEnds[t.lower] || verbLike(t) || t.lower == "and" || prepositions[t.lower] {
			return false
		}
	}
	return false
}

// strictVerb reports a token that can only be a verb: an auxiliary, a
// copula or a past form ("cost" may be a noun, "accounted" may not).
func strictVerb(t token) bool {
	if adjectival[t.lower] {
		return false
	}
	return auxiliaries[t.lower] || copulas[t.lower] || reporting[t.lower] || !t.capital() && len(t.lower) > 4 && strings.HasSuffix(t.lower, "ed") && !strings.HasSuffix(t.lower, "eed")
}

// adjectival are past forms that qualify a noun ("the final audited
// cost"), never its verb.
var adjectival = set("audited", "unaudited", "combined", "adjusted", "consolidated")

// nounRun reads the noun phrase starting at token k ("drone service
// contracts"): its last word is the head.
func (r *reader) nounRun(k int) (string, []string) {
	for k < len(r.toks) && determiners[r.toks[k].lower] {
		k++
	}
	var ws []token
	for ; k < len(r.toks) && len(ws) < 4; k++ {
		t := r.toks[k]
		if prepositions[t.lower] || clauseEnds[t.lower] || t.lower == "and" || verbLike(t) || t.number() {
			break
		}
		ws = append(ws, t)
	}
	for len(ws) > 0 && (ws[len(ws)-1].capital() || r.subject[ws[len(ws)-1].bare()]) {
		ws = ws[:len(ws)-1]
	}
	if len(ws) == 0 || noise[ws[len(ws)-1].lower] || timeWords[ws[len(ws)-1].lower] {
		return "", nil
	}
	mods := []string{}
	for _, t := range ws[:len(ws)-1] {
		mods = r.keep(mods, t)
	}
	return singular(ws[len(ws)-1].bare()), mods
}

// purpose is what a payment is for: "to settle" (settlement), "under the
// settlement", "for track work".
func (r *reader) purpose(after, verb int) []string {
	var mods []string
	if after+1 < len(r.toks) && r.toks[after].lower == "to" {
		if n := eventNouns[r.toks[after+1].lower]; n != "" {
			mods = append(mods, n)
		}
	}
	for k := r.sentenceClause(verb); k < verb; k++ {
		if agreementWords[r.toks[k].lower] {
			mods = append(mods, r.toks[k].lower)
		}
	}
	if mods == nil {
		mods = []string{}
	}
	return mods
}

// unitNoun reads the noun a number counts, in the value's own text
// ("1,240 people") or right after it ("31 clinical sites", "9 million
// passengers a year"): its last word, the words before it qualifying it,
// and where it ends. A measure ("11.4 km") is a unit alone.
func (r *reader) unitNoun(v Value) (string, []string, int) {
	if f := strings.Fields(strings.ToLower(v.Text)); len(f) > 1 {
		if last := f[len(f)-1]; people[last] || len(last) <= 2 || last == "years" || last == "feet" || strings.HasSuffix(last, "metres") || strings.HasSuffix(last, "meters") || last == "miles" ||
			valueNouns[last] {
			return last, nil, v.End
		}
	}
	k := r.after(v)
	if k < len(r.toks) && r.toks[k].start > v.End+1 {
		return "", nil, 0 // "1500+ packages" aside, a gap is punctuation
	}
	var ws []token
	for ; k < len(r.toks) && len(ws) < 4; k++ {
		t := r.toks[k]
		// "4,210 apparently occupied burrows": past an adverb.
		if len(ws) == 0 && strings.HasSuffix(t.lower, "ly") && len(t.lower) > 4 && !t.capital() {
			continue
		}
		if prepositions[t.lower] || clauseEnds[t.lower] || determiners[t.lower] || t.lower == "and" || t.lower == "or" || auxiliaries[t.lower] || copulas[t.lower] || t.number() {
			break
		}
		if len(ws) > 0 && (verbLike(t) || noise[t.lower] || t.lower == "this" || t.lower == "each") {
			break // "3.4 million passengers last year"
		}
		ws = append(ws, t)
		if measures[t.lower] {
			break
		}
	}
	for len(ws) > 0 && (ws[len(ws)-1].capital() || strings.HasSuffix(ws[len(ws)-1].lower, "ing") || verbLike(ws[len(ws)-1])) {
		ws = ws[:len(ws)-1]
	}
	// "3,500 Northmoor staff walk out", a headline's present verb: the
	// noun of people ends the unit.
	for k, t := range ws {
		if k < len(ws)-1 && (people[t.lower] || staffNouns[t.lower] || staffNouns[singular(t.lower)]) {
			ws = ws[:k+1]
			break
		}
	}
	if len(ws) == 0 {
		return "", nil, 0
	}
	end := ws[len(ws)-1].end
	unit := ws[len(ws)-1].lower
	// "412,806 ballot papers" are ballots.
	if len(ws) > 1 && (unit == "papers" || unit == "paper") && ws[len(ws)-2].lower == "ballot" {
		unit, ws = "ballots", ws[:len(ws)-1]
	}
	// "9 million passengers a year", "40 tonnes of fruit an hour": a rate.
	for k := r.after(Value{End: end}); k+1 < len(r.toks) && k <= r.after(Value{End: end})+3 && !clauseEnds[r.toks[k].lower]; k++ {
		if w := r.toks[k].lower; w == "a" || w == "an" || w == "per" || w == "each" {
			if p := r.toks[k+1].lower; p == "year" || p == "month" || p == "week" || p == "day" || p == "hour" {
				unit += "/" + p
				break
			}
		}
	}
	var mods []string
	for _, t := range ws[:len(ws)-1] {
		mods = r.keep(mods, t)
	}
	return unit, mods, end
}

// valueNouns are the nouns Values takes into a number's text ("310
// members"): what it counts.
var valueNouns = set("inhabitants", "residents", "households", "families", "members", "students")

// paymentKinds are the words after an amount that say which payment it
// is ("paid €35m upfront").
var paymentKinds = set("upfront", "up-front", "annually", "monthly", "outright", "upfront,")

// moneyNoun reports a noun that names a sum of money itself (a grant, a
// settlement, revenue), not a thing bought.
func moneyNoun(w string) bool {
	if c, ok := headClasses[w]; ok {
		return !countClasses[c] // "£8 a vote" is what a vote cost
	}
	for _, n := range payments {
		if n == w {
			return true
		}
	}
	return moneyNouns[w]
}

var moneyNouns = set("purse", "pot", "prize", "budget", "settlement", "loss", "profit", "income", "deal", "bonus", "salary", "loan", "debt", "tax", "fine", "round", "payout",
	"deficit", "surplus", "expense", "fund", "endowment", "valuation", "value", "royalty", "milestone", "dividend", "penalty", "subsidy", "overrun")

// appraisals are the verbs that put a figure "at" an amount.
var appraisals = set("put", "puts", "putting", "estimated", "estimates", "valued", "values", "priced", "pegged", "pegs", "set", "sets")

// investing are the verbs that put money into something.
var investing = set("put", "puts", "putting", "pour", "pours", "poured", "pump", "pumps", "pumped", "sink", "sinks", "sank", "sunk", "plough", "ploughed", "plow", "plowed")

// exchanges are the verbs whose "for" names a price.
var exchanges = set("sold", "sells", "sell", "bought", "buys", "buy", "acquired", "acquires", "acquire", "purchased", "purchases", "signed", "signs",
	"acquisition", "purchase", "sale", "takeover", "buyout")

// comparisons introduce a figure compared with the one before it.
var comparisons = set("from", "with", "versus", "vs", "against", "than", "and")

// timeWords name when, not what.
var timeWords = set("fiscal", "year", "years", "quarter", "month", "months", "week", "weeks", "day", "days", "fy", "period", "time")

var measures = set("km", "kilometres", "kilometers", "miles", "mi", "m", "metres", "meters", "kg", "tonnes", "tons", "hectares", "acres", "mw", "gw", "kw", "mwh", "gwh", "litres", "liters", "hectolitres", "minutes", "hours", "days", "weeks", "months", "years")

// act is the verb that says what was done to what the count at token
// i counts: for people, the past form right before it ("interviewed 41
// people"); for places, the one before the preposition it follows
// ("distributed in 14 states", "sickened 32 people in 9 states"); ""
// when none does, or the verb only states the count ("reported 143
// people") or names it (counters). Other counts keep no act: "picked
// 16,800 tonnes" is "harvested 18,600 tonnes" said otherwise.
func (r *reader) act(i int, unit string) string {
	past := func(t token) bool {
		return !t.capital() && len(t.lower) > 4 && strings.HasSuffix(t.lower, "ed") && !strings.HasSuffix(t.lower, "eed") && !copulas[t.lower] &&
			modalityWords[t.lower] == "" && counters[t.lower] == "" && (!noise[t.lower] || t.lower == "reported")
	}
	j := i - 1
	for j >= 0 && fillers[r.toks[j].lower] && !places[r.toks[j].lower] {
		j--
	}
	if j < 0 {
		return ""
	}
	if places[r.toks[j].lower] {
		for k := j - 1; k >= 0 && k >= j-6 && !clauseEnds[r.toks[k].lower]; k-- {
			if past(r.toks[k]) {
				return r.toks[k].lower
			}
		}
		return ""
	}
	if t := r.toks[j]; people[unit] && past(t) && !stating[t.lower] && !reporting[t.lower] {
		return t.lower
	}
	return ""
}

// places are the prepositions a count of places follows.
var places = set("in", "across")

// stating verbs state a count, they do not say what was done.
var stating = set("recorded", "counted", "registered", "logged", "listed", "confirmed", "totalled", "totaled", "numbered", "disclosed", "identified", "tallied", "posted")

// verbBefore is the verb right before the value at token i, past fillers
// ("employed 1,240", "enrolled about 300").
func (r *reader) verbBefore(i int) string {
	j := i - 1
	for j >= 0 && (fillers[r.toks[j].lower] || possessives[r.toks[j].lower]) {
		j--
	}
	if j < 0 {
		return ""
	}
	return r.toks[j].lower
}

// period is the year value v is for: the nearest year written in its
// segment of the sentence (not a dated claim's own date), else the
// nearest in the sentence; "" when there is none.
func (r *reader) period(v Value, vals []Value, events []Value) string {
	best, bestD := "", 1<<30
	inSegment := false
	for _, y := range vals {
		if y.Kind != KindDate || y.Start == v.Start || y.Year == 0 || containsValue(events, y) {
			continue
		}
		// "(Brussels, c. 1540)": a year in a parenthesis dates what it
		// describes, not a figure outside it.
		if r.inParens(y) != r.inParens(v) {
			continue
		}
		// "the 1930s pool": a decade dates the thing, not the figure.
		if decade(y) {
			continue
		}
		same := !r.boundaryBetween(v, y)
		// "£38.5 million against a budget of £31 million set in 2019":
		// the year of the figure compared with is not this one's.
		if !same && r.comparedAcross(v, y) {
			continue
		}
		// "42,000 people ..., up from 38,500 in 2024": the year of
		// the figure beside it; "registers back to 1538": a limit.
		if !same && r.otherFigureBefore(v, y, vals) || r.limitYear(y) {
			continue
		}
		d := y.Start - v.Start
		if d < 0 {
			d = -d
		} else if !same {
			d += 1000 // a year in a later part of the sentence is that part's first
		}
		if same && !inSegment || same == inSegment && d < bestD {
			best, bestD, inSegment = strconv.Itoa(y.Year), d, same
			// "for 2024/25": a split year is its last, as in a label.
			if m := splitYearRE.FindStringSubmatch(r.s[y.Start:]); len(y.Text) == 4 && m != nil && strings.HasPrefix(r.s[y.Start:], m[0]) && splitYear(m) != "" {
				best = splitYear(m)
			}
		}
	}
	return best
}

// otherFigureBefore reports another amount or count between v and a
// later year y, in y's own part of the sentence: y is that figure's.
func (r *reader) otherFigureBefore(v, y Value, vals []Value) bool {
	for _, x := range vals {
		if x.Start == v.Start || x.Kind == KindDate {
			continue
		}
		if v.Start < x.Start && x.Start < y.Start && !r.boundaryBetween(x, y) {
			return true
		}
	}
	return false
}

// limitYear reports a year that ends a range rather than dates a figure:
// "back to 1538", "until 2030", "since 1998".
func (r *reader) limitYear(y Value) bool {
	i := r.at(y)
	if i > 0 && len(y.Text) == 4 && (r.toks[i-1].lower == "to" || r.toks[i-1].lower == "until" || r.toks[i-1].lower == "since") {
		return true
	}
	// "raised £4.18 million since the appeal launched on International
	// Women's Day 2023": the year of what it counts from.
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		w := r.toks[j].lower
		if w == "since" {
			return true
		}
		if w == "," || w == ";" || w == "and" || w == "but" {
			return false
		}
	}
	return false
}

func containsValue(vs []Value, v Value) bool {
	for _, x := range vs {
		if x.Start == v.Start {
			return true
		}
	}
	return false
}

// inParens reports a value inside parentheses.
func (r *reader) inParens(v Value) bool {
	depth := 0
	for _, t := range r.toks {
		if t.start >= v.Start {
			break
		}
		switch t.text {
		case "(":
			depth++
		case ")":
			depth--
		}
	}
	return depth > 0
}

// comparedAcross reports a comparison word between two values
// ("against", "compared", "versus", "than"), after the first of them
// another figure's part begins.
func (r *reader) comparedAcross(a, b Value) bool {
	lo, hi := a.End, b.Start
	if b.Start < a.Start {
		lo, hi = b.End, a.Start
	}
	for k, t := range r.toks {
		if t.start >= lo && t.end <= hi && (t.lower == "against" || t.lower == "compared" || t.lower == "versus" || t.lower == "vs" || t.lower == "than" || t.lower == "previous") {
			return true
		}
		// "412,806 voters, up on the previous election in 2021".
		if t.start >= lo && t.end <= hi && (t.lower == "up" || t.lower == "down") && k+1 < len(r.toks) && (r.toks[k+1].lower == "on" || r.toks[k+1].lower == "from") {
			return true
		}
	}
	return false
}

// boundaryBetween reports a segment boundary between two values.
func (r *reader) boundaryBetween(a, b Value) bool {
	lo, hi := a.End, b.Start
	if b.Start < a.Start {
		lo, hi = b.End, a.Start
	}
	for _, t := range r.toks {
		if t.start >= lo && t.end <= hi && segmentEnds[t.lower] {
			// A comma inside "December 31, 2024" is the date's own.
			return true
		}
	}
	return false
}

// modality is how the source holds the value: the nearest word of plan,
// expectation or estimate before it in its clause, or right after it
// ("is planned for", "is expected to"); reported otherwise. "Will" under
// an agreement ("will pay ... under the settlement") is a term agreed.
func (r *reader) modality(v Value) Modality {
	i := r.at(v)
	agreed := false
	// "will pay ... under the settlement", "will pay $35m upfront for the
	// rights": the agreement may come before the figure or after it.
	for j := r.sentenceClause(i); j < len(r.toks) && r.toks[j].lower != ";"; j++ {
		if agreementWords[r.toks[j].lower] {
			agreed = true
		}
	}
	// "will provide a A$12.6 million support package": the size of
	// what is committed, stated as an agreement's is; "from the
	// State's $12.6m support package" is what a verb before it acts
	// through, not what it says may be.
	named := false
	if j := r.after(v); j < len(r.toks) && v.Kind == KindMoney {
		for k := j; k < len(r.toks) && k <= j+2 && !prepositions[r.toks[k].lower] && !clauseEnds[r.toks[k].lower]; k++ {
			if commitments[singular(r.toks[k].lower)] {
				agreed, named = true, true
			}
		}
	}
	// "The protocol called for 400 patients".
	if i > 1 && r.toks[i-1].lower == "for" && (r.toks[i-2].lower == "called" || r.toks[i-2].lower == "calls" || r.toks[i-2].lower == "call") {
		return Planned
	}
	conditional := false
	for j := i - 1; j >= 0 && j >= i-12; j-- {
		w := r.toks[j].lower
		// "we can give a firm figure: fourteen trams have been written
		// off": a colon ends the clause the modal frames.
		if w == ";" || w == ":" || w == "," && j < i-1 && (j == 0 || !r.toks[j-1].number()) || w == "but" || w == "and" {
			break
		}
		if named && (w == "from" || w == "under" || w == "through") {
			break
		}
		// "Members will have seen that the ship entered service on 21
		// May": a clause of its own, unless what frames it is a plan
		// ("expected that") or it says "would" ("had estimated that the
		// line would cost").
		if w == "that" && j > 0 && !conditional {
			if m := modalityWords[r.toks[j-1].lower]; m != "" && r.toks[j-1].lower != "will" && r.toks[j-1].lower != "would" {
				return m
			}
			break
		}
		if w == "be" && j > 0 && r.toks[j-1].lower == "to" {
			// "is expected to be", else "to be completed in 2026".
			if j > 1 && modalityWords[r.toks[j-2].lower] != "" {
				return modalityWords[r.toks[j-2].lower]
			}
			return Planned
		}
		if m := modalityWords[w]; m != "" && !r.toks[j].capital() {
			if (w == "will" || w == "shall") && agreed {
				continue
			}
			// "had estimated that the line would cost": the word that
			// frames "would" says how.
			if w == "would" {
				conditional = true
				continue
			}
			return m
		}
	}
	if conditional {
		return Expected
	}
	// "a deficit of £18 million forecast for 2024/25", "the £18 million
	// forecast", "400 patients planned": a participle right after the
	// figure, or after its counted noun.
	if j := r.after(v); j < len(r.toks) {
		if m, ok := labelModality[r.toks[j].lower]; ok {
			return m
		}
		if j+1 < len(r.toks) && !r.toks[j].capital() && !r.toks[j].number() && !prepositions[r.toks[j].lower] && r.toks[j].lower != "," {
			if m, ok := labelModality[r.toks[j+1].lower]; ok && r.toks[j+1].lower != "plan" && r.toks[j+1].lower != "target" {
				return m
			}
		}
	}
	// "... $4.2 million is expected", "October 2025 is planned".
	if j := r.after(v); j+1 < len(r.toks) && auxiliaries[r.toks[j].lower] {
		if m := modalityWords[r.toks[j+1].lower]; m != "" && m != Planned || r.toks[j+1].lower == "planned" {
			return m
		}
	}
	if strings.HasPrefix(strings.TrimSpace(r.s[max(0, v.Start-6):v.Start]), "up to") {
		return Expected
	}
	return Reported
}

// commitments are the nouns of money a body commits: what "will
// provide" names is their size, not a forecast.
var commitments = set("package", "grant", "fund", "funding", "allocation", "award", "loan", "subsidy", "contribution", "pledge", "donation")

// sentenceClause is where the clause of token i begins: after the last
// semicolon or colon before it.
func (r *reader) sentenceClause(i int) int {
	for j := i - 1; j >= 0; j-- {
		if w := r.toks[j].lower; w == ";" || w == ":" {
			return j + 1
		}
	}
	return 0
}

// currency names an amount's currency: "USD" for "$", else the code
// written.
func currency(text string) string {
	if c := currencyOfWords(text); c != "" {
		return c // "4.2 million dollars"
	}
	t := strings.ToUpper(text)
	// "NZ$41.7 million", "A$1.2 million": a dollar named by its country.
	if i := strings.IndexByte(t, '$'); i > 0 {
		if c, ok := dollarPrefixes[t[:i]]; ok {
			return c
		}
	}
	switch {
	case strings.HasPrefix(t, "$"):
		return "USD"
	case strings.HasPrefix(t, "€"):
		return "EUR"
	case strings.HasPrefix(t, "£"):
		return "GBP"
	case strings.HasPrefix(t, "¥"):
		return "JPY"
	}
	if f := strings.Fields(t); len(f) > 0 && len(f[0]) == 3 {
		return f[0]
	}
	return strings.TrimRight(t[:min(3, len(t))], " 0123456789")
}

// dollarPrefixes name the dollar a prefix before "$" gives.
var dollarPrefixes = map[string]string{"NZ": "NZD", "A": "AUD", "AU": "AUD", "C": "CAD", "CA": "CAD", "US": "USD", "HK": "HKD", "S": "SGD"}

// countClasses are the classes of headClasses that count people or
// things, not sums of money.
var countClasses = set("visitor", "employee", "member", "resident", "passenger", "seat", "vote", "student", "death", "home")
