package research

import (
	"context"
	"sort"
	"strings"
	"unicode"

	rs "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/retrieve"
)

// question is a request's question as the planner reads it.
type question struct {
	Text    string
	Subject string
	// SubjectWords are the subject's words, lower case, connectors out.
	SubjectWords []string
	// KindWords name what the subject is, as the question writes it
	// right after the name ("the Eastline tram"): they qualify nothing.
	KindWords []string
	// NameWords are the lower-case words a question writes after the
	// subject's name as one noun with it ("food-waste compost
	// programme" of "the City of Oakhurst food-waste compost
	// programme:"): they qualify none of its claims.
	NameWords []string
	// Owner is the name a question writes before its subject's with a
	// possessive ("Corvena" of "Corvena's Saltmarsh Point Desalination
	// Plant"): where, or whose, the subject is.
	Owner  string
	Target Target
	// Dated is set when the question names a year: its facts are then
	// compared year by year, as aspects' facts always are.
	Dated bool
	// ents are the entities a briefing's documents describe, once
	// resolved (resolveEntities); nil when they share one name.
	ents *entities
}

func parseQuestion(text string) question {
	q := question{Text: text, Subject: SubjectOf(text)}
	for _, w := range words(q.Subject) {
		if !connectors[w] {
			q.SubjectWords = append(q.SubjectWords, w)
		}
	}
	q.Target = TargetOf(text, q.Subject)
	// "Ostrava Wind Partners' Kessel farm": a briefing is about the
	// owner; "Corvena's Saltmarsh Point Desalination Plant", a name of
	// its own after the possessive, about what it names.
	if q.Target.Broad {
		if owner := possessiveOwner(text, q.Subject); owner != "" {
			if rest := strings.TrimSpace(q.Subject[len(owner):]); len(strings.Fields(rest)) >= 2 && nameEnds(text, rest) {
				q.Owner, owner = owner, rest
			}
			q.Subject, q.SubjectWords = owner, nil
			for _, w := range words(owner) {
				if !connectors[w] {
					q.SubjectWords = append(q.SubjectWords, w)
				}
			}
		}
	}
	q.KindWords = kindAfter(text, q.Subject)
	q.NameWords = nounAfter(text, q.Subject)
	q.Dated = yearRE.MatchString(text)
	return q
}

// nameEnds reports a name a question writes as a whole, not as the
// qualifier of a noun after it: "Saltmarsh Point Desalination Plant:",
// not "East Asia tour" or "North Quay container terminal".
func nameEnds(question, name string) bool {
	i := strings.Index(question, name)
	if i < 0 {
		return false
	}
	next := strings.Fields(question[i+len(name):] + " .")[0]
	r := []rune(next)
	return !unicode.IsLower(r[0])
}

// possessiveOwner is the part of a name written before a possessive
// inside it ("Ostrava Wind Partners" of "Ostrava Wind Partners' Kessel"),
// "" when there is none.
func possessiveOwner(question, subject string) string {
	f := strings.Fields(subject)
	if len(f) < 2 {
		return ""
	}
	i := strings.Index(question, f[0])
	if i < 0 {
		return ""
	}
	for _, sep := range []string{"' ", "’ ", "'s ", "’s "} {
		if j := strings.Index(question[i:], sep); j > 0 {
			owner := strings.TrimSpace(question[i : i+j])
			if len(owner) < len(subject) && strings.HasPrefix(subject, owner) {
				return owner
			}
		}
	}
	return ""
}

// wordsAfter is the words a question writes after the subject's name,
// nil when the name is not followed by a space.
func wordsAfter(question, subject string) []string {
	i := strings.Index(question, subject)
	if subject == "" || i < 0 || !strings.HasPrefix(question[i+len(subject):], " ") {
		return nil
	}
	return strings.Fields(question[i+len(subject):])
}

// kindAfter is the lower-case noun a question writes right after the
// subject's name ("the Eastline tram's cost" -> tram); none after a
// possessive name ("Grauhorn's missions" asks about missions).
func kindAfter(question, subject string) []string {
	f := wordsAfter(question, subject)
	if len(f) == 0 {
		return nil
	}
	w := strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(f[0], ",.;:?!"), "'s"), "’s")
	if w == "" || strings.ToLower(w) != w || len(retrieve.Terms(w)) == 0 || verbLike(token{text: w, lower: w}) {
		return nil
	}
	return []string{w}
}

// nounAfter is the run of lower-case nouns a question writes right
// after the subject's name up to a colon, a comma, "and" or its end
// ("Oakhurst food-waste compost programme:"), at most three and none
// that names a measure or an event ("the Acme plant expansion cost" is
// a question about a cost); nil when no such run ends there.
func nounAfter(question, subject string) []string {
	var out []string
	for _, f := range wordsAfter(question, subject) {
		w := strings.TrimRight(f, ",:;?!.")
		if (w == "and" || w == "or") && len(out) > 0 {
			return out
		}
		if w == "" || strings.ToLower(w) != w || determiners[w] || prepositions[w] || connectors[w] || verbLike(token{text: w, lower: w}) ||
			moneyNoun(singular(w)) || eventNounWords[singular(w)] || eventNouns[w] != "" || timeWords[w] || len(out) == 3 {
			return nil
		}
		out = append(out, w)
		if w != f {
			if strings.HasPrefix(f[len(w):], ".") {
				return nil
			}
			return out
		}
	}
	return out
}

// claimSubject is what a question's claims are read about: the subject's
// words, what it is and the words of its name's noun.
func (q question) claimSubject() []string {
	return append(append(append([]string(nil), q.SubjectWords...), q.KindWords...), q.NameWords...)
}

// directAspect is the section of the question's own sub-question.
const directAspect = "Key findings"

// aspect is a part of a briefing: the section it fills, the question it
// asks about the subject, the words that find it, and the attributes a
// model is asked for (offline, every claim of its passages is read:
// Claims).
type aspect struct {
	Section  string
	Question string // with SUBJECT or SUBJECT'S for the subject
	Search   string
	Targets  []Target
}

func t(attr string, kind Kind, keywords ...string) Target {
	return Target{Attribute: attr, Kind: kind, Keywords: keywords, Strict: true}
}

// aspects are what briefings on an organisation, a person or a place
// cover, in the order a reader expects them.
var aspects = []aspect{
	{"Financials", "What do the sources report about SUBJECT'S revenue, earnings and other financial results?", "revenue sales income profit loss earnings margin cash results fiscal",
		[]Target{t("revenue", KindMoney, "revenue", "revenues", "sales"), t("net income", KindMoney, "net income", "net loss", "profit", "earnings"), t("operating margin", KindNumber, "margin"), t("cash", KindMoney, "cash")}},
	{"Operations", "What do the sources say about SUBJECT'S employees, sites and operations?", "employees headcount staff workforce plant facility site operations",
		[]Target{t("employees", KindNumber, "employees", "headcount", "staff", "workforce", "employed", "people"), t("facilities", KindNumber, "facilities", "plants", "sites", "warehouses")}},
	{"Leadership", "Who leads SUBJECT, and what changed in its leadership?", "chief executive officer ceo cfo president chairman board director appointed resigned",
		[]Target{t("chief executive", KindPerson, "chief executive", "ceo"), t("chief financial officer", KindPerson, "chief financial", "cfo"), t("chair", KindPerson, "chairman", "chair")}},
	{"Legal", "What lawsuits, settlements or regulatory actions involve SUBJECT?", "lawsuit litigation settlement court legal claim regulator fine penalty investigation",
		[]Target{t("settlement", KindMoney, "settlement", "settle", "settled"), t("fine", KindMoney, "fine", "penalty", "penalties"), t("damages", KindMoney, "damages", "claims")}},
	{"Products", "What products or services did SUBJECT launch, change or discontinue?", "product launch launched released service platform model line",
		[]Target{t("launch", KindDate, "launch", "launched", "released", "introduced"), t("units", KindNumber, "units", "orders")}},
	{"Risks", "What risks and uncertainties do the sources name for SUBJECT?", "risk risks uncertainty exposure depend concentration shortage",
		[]Target{t("customer concentration", KindNumber, "customer", "customers", "concentration"), t("risk", KindMoney, "exposure", "risk")}},
	{"Timeline", "What are the key dates and events in SUBJECT'S history?", "founded established opened history acquired acquisition merger announced",
		[]Target{t("founded", KindDate, "founded", "established", "incorporated"), t("acquisition", KindDate, "acquired", "acquisition", "merger")}},
}

// plan asks the question itself first, then the aspects the corpus has
// most to say about, as many as the depth allows; aspects the corpus is
// silent on are asked only to reach the depth's minimum.
func (r *Researcher) plan(ctx context.Context, req *rs.Request, q question) (*rs.Plan, error) {
	lo, hi := req.Depth.SubQuestions()
	p := &rs.Plan{ID: r.id(), RequestID: req.ID, CreatedAt: r.now().UTC()}
	direct := strings.TrimSpace(req.Query)
	if len([]rune(direct)) > rs.MaxSubQuestionChars {
		direct = string([]rune(direct)[:rs.MaxSubQuestionChars-3]) + "..."
	}
	p.SubQuestions = append(p.SubQuestions, rs.SubQuestion{ID: r.id(), PlanID: p.ID, Text: direct, Priority: 1, Status: rs.SubPending, Aspect: directAspect, SearchResults: []rs.SearchResult{}})

	subject := q.Subject
	if subject == "" {
		subject = "the subject"
	}
	subject = clip(subject, 60)
	type scored struct {
		a     aspect
		score float64
	}
	var ranked []scored
	asked := strings.ToLower(req.Query)
	for i, a := range aspects {
		hits, err := r.Corpus.Search(ctx, q.Subject+" "+a.Search, 5)
		if err != nil {
			return nil, err
		}
		// How much of the aspect's vocabulary the best passages hold.
		score := 0.0
		terms := retrieve.Terms(a.Search)
		for _, h := range hits {
			lower := strings.ToLower(h.Text)
			for _, w := range terms {
				if wordIndex(lower, w) >= 0 {
					score++
				}
			}
		}
		// An aspect the question names comes first.
		if strings.Contains(asked, aspectStem(a.Section)) {
			score += 100
		}
		ranked = append(ranked, scored{a, score - float64(i)*0.01})
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	for _, s := range ranked {
		n := len(p.SubQuestions)
		if n >= hi || (s.score <= 0 && n >= lo) {
			break
		}
		text := strings.NewReplacer("SUBJECT'S", possessive(subject), "SUBJECT", subject).Replace(s.a.Question)
		p.SubQuestions = append(p.SubQuestions, rs.SubQuestion{ID: r.id(), PlanID: p.ID, Text: text, Priority: n + 1,
			Status: rs.SubPending, Aspect: s.a.Section, SearchResults: []rs.SearchResult{}})
	}
	p.EstimatedTimeSeconds = len(p.SubQuestions)
	if err := p.Validate(req.Depth); err != nil {
		return nil, err
	}
	return p, nil
}

// aspectOf returns the aspect a section title names.
func aspectOf(section string) (aspect, bool) {
	for _, a := range aspects {
		if a.Section == section {
			return a, true
		}
	}
	return aspect{}, false
}

// aspectStem is the start of an aspect's name that a question naming it
// holds ("financ" for finances, financial).
func aspectStem(section string) string {
	s := strings.ToLower(section)
	return s[:min(len(s)-1, 6)]
}

// possessive writes "Acme's", "Kestrel Dynamics'".
func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}
