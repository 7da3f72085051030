package research

// The words a claim is read with: a sentence's tokens, the small closed
// classes of English that end or qualify a noun phrase, and the verbs
// whose nouns name an attribute ("opened" -> opening, "paid" -> payment).

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is a word, a number or a punctuation mark of a sentence.
type token struct {
	text, lower string
	start, end  int
}

// A time of day ("11:40") is one token: its colon ends no clause.
var tokenRE = regexp.MustCompile(`\d{1,2}:\d\d\b|[\p{L}\p{N}](?:[\p{L}\p{N}'’.&-]*[\p{L}\p{N}])?|[,;:()]`)

func tokenize(s string) []token {
	var out []token
	for _, m := range tokenRE.FindAllStringIndex(s, -1) {
		t := s[m[0]:m[1]]
		out = append(out, token{text: t, lower: strings.ToLower(t), start: m[0], end: m[1]})
	}
	return out
}

// tokenAt is the index of the first token starting at or after byte pos.
func tokenAt(toks []token, pos int) int {
	for i, t := range toks {
		if t.start >= pos {
			return i
		}
	}
	return len(toks)
}

func (t token) capital() bool {
	r, _ := utf8.DecodeRuneInString(t.text)
	return unicode.IsUpper(r)
}

func (t token) number() bool {
	r, _ := utf8.DecodeRuneInString(t.text)
	return unicode.IsDigit(r)
}

// bare is a token without its possessive ending.
func (t token) bare() string {
	return strings.TrimSuffix(strings.TrimSuffix(t.lower, "'s"), "’s")
}

func (t token) possessive() bool { return t.bare() != t.lower }

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

var (
	// clauseEnds end a noun phrase and the clause a value is read in.
	clauseEnds = set(",", ";", ":", "(", ")", "but", "while", "whereas", "which", "who", "that", "although", "because", "when", "where")
	// segmentEnds split a clause into the parts each value's period is
	// read in ("$61.5 million in 2024, compared with $48.9 million in 2023").
	segmentEnds  = set(",", ";", "(", ")", "and", "but", "while", "whereas", "compared", "against", "versus", "vs", "from", "than", "up", "down")
	determiners  = set("a", "an", "the", "this", "that", "these", "those", "its", "their", "our", "his", "her", "my", "your", "each", "every", "some", "any", "all", "both", "no")
	possessives  = set("its", "their", "our", "his", "her", "my", "your")
	prepositions = set("of", "in", "on", "at", "for", "by", "with", "from", "to", "into", "over", "under", "between", "during", "after", "before",
		"since", "until", "across", "about", "around", "through", "per", "as", "against", "above", "below", "within", "without", "among", "near", "beside",
		"once", "if", "then", "so", "because", "unless", "whether")
	auxiliaries = set("is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "having", "do", "does", "did", "will", "would", "shall",
		"should", "can", "could", "may", "might", "must", "not", "also", "now", "still", "then", "just", "only", "already", "so", "there", "it", "they",
		"we", "he", "she", "said", "says", "say", "told", "announced", "stated", "reported", "according", "today", "yesterday", "year", "years")
	// copulas put a noun phrase and its value together ("Revenue was $48.2
	// million"); a value after one reads the noun phrase before it.
	copulas = set("was", "were", "is", "are", "be", "been", "totalled", "totaled", "totals", "total", "reached", "reaches", "hit", "stood", "stands",
		"came", "amounted", "amounts", "rose", "fell", "grew", "dropped", "increased", "decreased", "declined", "climbed", "restated", "revised", "corrected",
		"remained", "remains", "became", "equalled", "equaled", "numbered", "number", "numbers")
	// fillers may stand between a verb and its value ("rose to about $3 million").
	fillers = set("to", "at", "about", "roughly", "around", "approximately", "nearly", "almost", "some", "over", "under", "more", "than", "up", "only",
		"just", "the", "a", "an", "by", "of", "an", "estimated", "expected", "planned", "projected", "forecast", "set", "likely", "reportedly", "now",
		"still", "also", "already", "a", "further", "another", "additional", "exactly", "precisely", "least", "most", "worth")
	// generic nouns name the subject itself, not a part of it.
	generic = set("company", "firm", "business", "group", "organisation", "organization", "corporation", "service", "project", "entity", "it",
		"we", "they", "subject", "team", "enterprise", "thing", "scheme", "programme", "program", "initiative")
	// noise modifiers say how sure or how whole a value is, not what it is of.
	noise = set("final", "total", "overall", "actual", "outturn", "reported", "whole", "entire", "new", "current", "latest", "about", "some",
		"roughly", "approximately", "around", "nearly", "almost", "first", "second", "third", "full", "more", "additional", "further", "other",
		"another", "same", "own", "original", "originally", "previously", "last", "next", "local", "so", "far", "record", "early", "late",
		"officially", "finally", "formally", "audited", "unaudited", "adjusted", "recently", "publicly", "quietly", "successfully", "eventually", "doors",
		"big", "grand", "great", "huge", "official", "public", "long-awaited")
	// agreementWords mark obligations already agreed: "will pay ... under
	// the settlement" is a term reported, not a plan.
	agreementWords = set("settlement", "agreement", "contract", "deal", "licence", "license", "terms", "accord", "rights", "licenses", "licensed", "licensing")
)

// Modality is how a source holds a claim: as done, planned, expected or
// estimated. Claims of different modalities never conflict.
type Modality string

// Modalities.
const (
	Reported  Modality = "reported"
	Planned   Modality = "planned"
	Expected  Modality = "expected"
	Estimated Modality = "estimated"
)

var modalityWords = map[string]Modality{
	"planned": Planned, "plan": Planned, "plans": Planned, "planning": Planned, "scheduled": Planned, "target": Planned, "targets": Planned,
	"targeted": Planned, "targeting": Planned, "intends": Planned, "intended": Planned, "intend": Planned, "aims": Planned, "aim": Planned,
	"will": Planned, "shall": Planned, "budgeted": Planned, "proposed": Planned, "due": Planned, "goal": Planned, "originally": Planned,
	"aimed": Planned, "designed": Planned, "sought": Planned, "seeks": Planned, "hoped": Planned, "hopes": Planned, "wants": Planned, "wanted": Planned,
	"expects": Expected, "expected": Expected, "expect": Expected, "expecting": Expected, "forecast": Expected, "forecasts": Expected,
	"forecasted": Expected, "projected": Expected, "projects": Expected, "projection": Expected, "anticipated": Expected, "anticipates": Expected,
	"predicted": Expected, "predicts": Expected, "likely": Expected, "may": Expected, "might": Expected, "could": Expected, "would": Expected,
	"can":       Expected,
	"estimated": Estimated, "estimates": Estimated, "estimate": Estimated,
}

// events are the verbs (in the forms sources write) whose noun names a
// dated attribute: "opened in March 2024" is an opening.
var eventNouns = nounsOf(map[string][]string{
	"opening":         {"opened", "opens", "open", "opening", "inaugurated", "inaugurates", "dedicated", "reopened"},
	"founding":        {"founded", "established", "incorporated", "formed", "founding"},
	"launch":          {"launched", "launches", "launch", "introduced", "unveiled", "debuted", "live"},
	"release":         {"released", "published", "premiered", "shipped"},
	"completion":      {"completed", "completes", "complete", "finished", "finish", "finishes"},
	"start":           {"started", "starts", "start", "began", "begins", "begin", "beginning", "commenced", "commences"},
	"closure":         {"closed", "closes", "close", "shut", "discontinued", "terminated"},
	"end":             {"ended", "ends", "concluded", "concludes"},
	"signing":         {"signed", "signs", "sign"},
	"appointment":     {"appointed", "named", "hired", "elected", "promoted"},
	"filing":          {"filed", "files", "sued"},
	"settlement":      {"settled", "settles", "settle"},
	"acquisition":     {"acquired", "acquires", "acquire", "bought", "purchased"},
	"merger":          {"merged", "merges"},
	"approval":        {"approved", "approves", "authorised", "authorized", "cleared"},
	"commissioning":   {"commissioned", "commissioning", "commissions"},
	"decommissioning": {"decommissioned", "decommissioning"},
	"construction":    {"built", "constructed", "erected", "build"},
	"birth":           {"born"},
	"death":           {"died", "dies"},
	"departure":       {"resigned", "retired", "left", "stepped"},
	"announcement":    {"announced", "announces"},
	"move":            {"moved", "relocated"},
})

// payments are the verbs whose noun names what an amount is.
var payments = nounsOf(map[string][]string{
	"payment":    {"paid", "pay", "pays", "paying", "received", "receive", "receives"},
	"cost":       {"cost", "costs", "costing", "spent", "spend", "spends"},
	"funding":    {"raised", "raise", "raises", "secured", "borrowed"},
	"investment": {"invested", "invest", "invests"},
	"revenue":    {"earned", "earns", "generated", "generates", "booked", "brought", "grossed", "grosses", "grossing"},
	"loss":       {"lost", "loses"},
	"sales":      {"sold", "sells"},
	"fine":       {"fined"},
	"award":      {"awarded", "won", "granted"},
	"donation":   {"gave", "donated", "give", "gives", "donate"},
	"price":      {"priced", "valued"},
})

// counters are the verbs whose noun names what a count is, when it says
// more than the counted noun: "enrolled 268 patients" is an enrollment.
var counters = nounsOf(map[string][]string{
	"enrollment":  {"enrolled", "enrolls", "enroll", "enrol", "enrols", "recruited", "randomised", "randomized"},
	"employees":   {"employed", "employs", "employ", "employing"},
	"hires":       {"hired", "hire", "hires", "recruit"},
	"missions":    {"flew"},
	"shipments":   {"shipped", "delivered"},
	"sales":       {"sold"},
	"visitors":    {"welcomed", "attracted"},
	"passengers":  {"carried"},
	"connections": {"connects", "connected"},
})

func nounsOf(m map[string][]string) map[string]string {
	out := map[string]string{}
	for noun, forms := range m {
		for _, f := range forms {
			out[f] = noun
		}
	}
	return out
}

// statWords make a figure another measure of the same noun: an average,
// a peak or a full-time equivalent of beds or staff is not their count.
var statWords = set("average", "mean", "median", "peak", "maximum", "minimum", "equivalent", "wte", "fte")

// otherMeasure reports whether one of a and b names a statistic the
// other does not ("average beds" and "beds").
func otherMeasure(a, b []string) bool {
	return slices.ContainsFunc(symmetricDifference(a, b), func(w string) bool { return statWords[w] }) || runningAgainst(a, b) || runningAgainst(b, a)
}

// runningAgainst reports a cost of every year (a) against what another
// thing cost (b names a thing a does not): the running costs a budget
// sets are not the price of a helicopter, though they are the cost a
// report gives without the word.
func runningAgainst(a, b []string) bool {
	// "running costs", not "the cost of running the election": the
	// word right before the head.
	if len(a) == 0 || !recurring[a[len(a)-1]] || slices.Contains(b, a[len(a)-1]) {
		return false
	}
	return slices.ContainsFunc(b, func(w string) bool { return !slices.Contains(a, w) && !recurring[w] })
}

// recurring make a cost one of every year, not what a thing cost.
var recurring = set("running", "operating", "recurrent", "recurring")

// staffNouns name a count of employees whatever the verb.
var staffNouns = set("headcount", "workforce", "employee", "staff", "personnel", "staffer")

// people are count nouns that an employing verb makes employees.
var people = set("people", "persons", "staff", "workers", "employees", "personnel", "staffers")

// verbLike reports a token that ends a noun phrase as a verb would.
func verbLike(t token) bool {
	w := t.lower
	if auxiliaries[w] || copulas[w] || eventNouns[w] != "" || payments[w] != "" || counters[w] != "" || modalityWords[w] != "" {
		return true
	}
	return !t.capital() && len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") || irregularPast[w]
}

// irregularPast are past tenses without "-ed" that follow a count's
// noun ("421,806 votes went into the boxes").
var irregularPast = set("went", "came", "took", "gave", "made", "got", "ran", "fell", "rose", "grew", "left", "stood", "sat", "met", "won", "lost", "paid", "spent", "sold", "bought", "brought", "kept", "held", "saw", "began", "broke", "drew", "flew", "fought", "found", "told", "thought", "wrote", "became", "struck", "swam")

// singular cuts a plural's ending so that "sites" meets "site".
func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && len(w) > 3:
		return w[:len(w)-1]
	}
	return w
}

// eventHeads are the nouns of eventNouns: a label may name its event by
// one ("Opening: 21/09/2024").
var eventHeads = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range eventNouns {
		m[n] = true
	}
	return m
}()

// eventStem is the stem an event of no known verb is named by, one for
// the verb and its noun: "discovered" and "discovery" are "discover".
func eventStem(w string) string {
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ments", "ment", "ed", "ion", "es", "s", "y", "e"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			break
		}
	}
	// "admitted" and "admit".
	if n := len(w); n > 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}

// servedNouns are the people a place serves: its first of them mark its
// opening.
var servedNouns = set("patients", "passengers", "visitors", "customers", "students", "pupils", "guests", "residents", "riders", "travellers",
	"travelers", "fans", "spectators", "shoppers", "diners", "readers", "users", "members")
