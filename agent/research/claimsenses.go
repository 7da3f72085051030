package research

// One attribute, many words: journalists write a workforce as "staff",
// "employees", "a payroll of 604 workers" or "headcount"; a crowd as
// "attendance", "attendees", "visitors" or "62,000 people came". A claim
// is compared by the head its attribute's words name (canonical), from a
// small lexicon of synonyms and derivations, so that the same fact in
// other words meets itself and different facts still stay apart by
// their modifiers, units and periods.

import (
	"slices"
	"strings"
)

// headSynonyms name one attribute by the head it is compared as.
var headSynonyms = nounsOf(map[string][]string{
	"employee":   {"employee", "staff", "staffer", "worker", "personnel", "workforce", "headcount", "payroll", "employment"},
	"attendance": {"attendance", "attendee", "visitor", "crowd", "spectator", "audience", "footfall", "turnout", "visit", "festivalgoer"},
	"passenger":  {"passenger", "traveller", "traveler", "rider", "ridership"},
	"donation":   {"donation", "gift", "pledge", "bequest"},
	"royalty":    {"royalty"},
	"grant":      {"grant", "subsidy"},
	"member":     {"member", "membership"},
	"opening":    {"opening", "launch", "inauguration", "unveiling", "debut"},
	"closure":    {"closure", "closing", "shutdown"},
	"renovation": {"renovation", "refit", "refurbishment", "overhaul", "restoration", "modernisation", "modernization"},
	"revenue":    {"revenue", "turnover"},
	"population": {"population", "resident", "inhabitant"},
	"student":    {"student", "pupil", "learner"},
})

// spellings are the British and American forms of one word, compared as
// one ("licence" and "license", "enrolment" and "enrollment").
var spellings = map[string]string{"licence": "license", "enrolment": "enrollment", "programme": "program", "centre": "center",
	"metre": "meter", "kilometre": "kilometer", "organisation": "organization", "labour": "labor", "defence": "defense",
	"theatre": "theater", "modernisation": "modernization", "tonne": "ton"}

// collectives count what their modifier names: "the first-year class"
// counts first-years, "the student body" students.
var collectives = set("class", "cohort", "intake", "body", "fleet", "group", "contingent", "batch")

// moneyGeneric heads say only that an amount was paid or booked; a
// modifier that names which kind of money ("royalty expense", "grant
// payment") is the attribute.
var moneyGeneric = set("expense", "payment", "amount", "sum", "figure", "bill", "cheque", "check", "money", "income", "receipt", "outlay")

// moneyKinds are the modifiers that name a kind of money.
var moneyKinds = set("royalty", "grant", "fee", "tax", "dividend", "donation", "gift", "pledge", "subsidy", "fine", "rent", "levy", "salary", "wage", "bonus")

// peopleVerbs make a count of people the count of what they did: "62,000
// people came" is attendance, "3.7 million people flew" passengers.
var peopleVerbs = nounsOf(map[string][]string{
	"attendance": {"came", "attended", "visited", "went", "turned"},
	"passenger":  {"flew", "travelled", "traveled", "boarded"},
	"employee":   {"worked", "work", "works"},
})

// canonical returns the head a claim's attribute is compared as, and its
// modifiers without the words that only repeat it.
func canonical(head string, mods []string) (string, []string) {
	head, mods = spelled(head), slices.Clone(mods)
	for i, m := range mods {
		mods[i] = spelled(m)
	}
	if collectives[head] && len(mods) > 0 {
		head, mods = mods[len(mods)-1], mods[:len(mods)-1]
	}
	if moneyGeneric[head] {
		for i := len(mods) - 1; i >= 0; i-- {
			if moneyKinds[mods[i]] {
				head, mods = mods[i], slices.Delete(slices.Clone(mods), i, i+1)
				break
			}
		}
	}
	if h := headSynonyms[head]; h != "" {
		head = h
	}
	// "a payroll of 604 workers": payroll is the attribute, not a part;
	// "the refit cost" is the renovation cost.
	kept := mods[:0:0]
	for _, m := range mods {
		if h := headSynonyms[m]; h == "" {
			kept = append(kept, m)
		} else if h != head {
			kept = append(kept, h)
		}
	}
	if mods != nil && kept == nil {
		kept = []string{}
	}
	return head, kept
}

// spelled is a word in the one spelling it is compared in.
func spelled(w string) string {
	if s, ok := spellings[w]; ok {
		return s
	}
	return w
}

// pastEvent reports a verb's past form that may date an event ("poured",
// "unveiled"): not an auxiliary, copula, reporting verb or one whose noun
// names an amount or a count.
func pastEvent(t token) bool {
	w := t.lower
	return verbLike(t) && strings.HasSuffix(w, "ed") && !segmentEnds[w] && !auxiliaries[w] && !copulas[w] && !reporting[w] && payments[w] == "" && counters[w] == "" && modalityWords[w] == ""
}

// lemma is the noun an event verb's past form is compared as: "poured"
// -> pour, "carried" -> carry.
func lemma(verb string) string {
	switch {
	case strings.HasSuffix(verb, "ied"):
		return strings.TrimSuffix(verb, "ied") + "y"
	case strings.HasSuffix(verb, "ed"):
		return strings.TrimSuffix(verb, "ed")
	}
	return verb
}

// idiomObjects are what a verb's idiom takes as its object ("opened its
// doors", "opened its gates"): the subject itself did it.
var idiomObjects = set("doors", "door", "gates", "gate")
