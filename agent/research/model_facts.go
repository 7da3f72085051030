package research

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-dev/quarry/agent/evidence"
	"github.com/quarry-dev/quarry/llm"
	rs "github.com/quarry-dev/quarry/research"
)

// What fact extraction costs: one call per sub-question, with the
// passages it found, at most maxFactCalls calls a research (later
// sub-questions are read offline only), each passage cut to
// maxModelPassageChars of the sentences no fact was taken from yet.
const (
	maxFactCalls         = 10
	maxModelPassageChars = 2000
	maxValueChars        = 200
	// maxModelConfidence is the offline reader's highest: the model's
	// claims do not outrank the offline ones by saying they are sure.
	maxModelConfidence = 0.95
)

const factsSystem = `You extract facts from numbered passages of documents for one research sub-question.
Rules:
- Take only claims that answer the sub-question, each about one of the attributes listed, from the passage it names.
- text is the claim as one sentence of 10 to 500 characters, in the passage's words as far as possible, naming who or what it is about.
- value is the claim's key value (an amount, a count, a date, a name), copied exactly as the passage writes it, and text states it.
- Copy every number exactly as the passage writes it; never compute, round, convert or add a number.
- confidence is 0 to 1: how plainly the passage states the claim.
- A passage that answers nothing gives nothing. An empty list is a good answer.`

// modelClaims is the model's reply to an extraction request.
type modelClaims struct {
	Claims []modelClaim `json:"claims"`
}

type modelClaim struct {
	Passage    int     `json:"passage"`
	Text       string  `json:"text"`
	Value      string  `json:"value"`
	Attribute  string  `json:"attribute"`
	Confidence float64 `json:"confidence"`
}

func factsSchema(attrs []string) *llm.Schema {
	enum, _ := json.Marshal(attrs)
	return &llm.Schema{Name: "research_facts", Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "claims": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "passage": {"type": "integer", "description": "the number of the passage the claim is read from"},
        "text": {"type": "string", "description": "the claim, 10 to 500 characters"},
        "value": {"type": "string", "description": "the claim's key value, exactly as the passage writes it"},
        "attribute": {"type": "string", "enum": ` + string(enum) + `},
        "confidence": {"type": "number", "description": "0 to 1"}
      },
      "required": ["passage", "text", "value", "attribute", "confidence"],
      "additionalProperties": false
    }}
  },
  "required": ["claims"],
  "additionalProperties": false
}`)}
}

// factTally counts what extraction did, for the stage message and the
// limitations.
type factTally struct {
	calls   int // calls that answered with claims
	offline int // sub-questions whose call failed or was not made
	kept    int
	dropped []string // why each dropped claim was dropped
	failed  []string // why each failed call failed
	// taken are the sentences (document and sentence, as reading.seen)
	// the model's facts came from; same are the facts taken, so that a
	// claim found in two overlapping passages is one fact.
	taken, same map[string]bool
}

// pendingFact is a claim that passed the checks, waiting for its source's
// id.
type pendingFact struct {
	fact rs.Fact
	key  string // as reading.seen
}

// droppedClaims counts the model's claims dropped so far by the checks.
func (a *assist) droppedClaims() int {
	if a == nil {
		return 0
	}
	return len(a.facts.dropped)
}

// readFacts asks the model for the claims the passages hits make about
// the sub-question's targets, and keeps those that pass the checks
// (checkClaim), by the index of their passage in hits. It returns nil
// when the model is not asked (none, off, or past maxFactCalls) or its
// call fails; the offline reader then reads every passage alone.
func (a *assist) readFacts(ctx context.Context, q question, sq *rs.SubQuestion, hits []Passage, targets []Target, seen map[string]bool) [][]pendingFact {
	if a.model == nil {
		return nil
	}
	if a.off() || a.facts.calls+len(a.facts.failed) >= maxFactCalls {
		a.facts.offline++
		return nil
	}
	attrs, kinds := attributesOf(targets)
	var b strings.Builder
	fmt.Fprintf(&b, "Sub-question: %s\nSubject: %s\nAttributes: %s\n\n", sq.Text, orDefault(q.Subject, "(as the question says)"), strings.Join(attrs, "; "))
	type given struct {
		hit       int
		sentences []string
	}
	var sent []given
	for i, h := range hits {
		ss := unread(h, seen)
		if len(ss) == 0 {
			continue
		}
		sent = append(sent, given{i, ss})
		fmt.Fprintf(&b, "[%d] %s\n%s\n\n", len(sent), clip(orDefault(h.Title, docURL(h.URL)), rs.MaxTitleChars), strings.Join(ss, " "))
	}
	if len(sent) == 0 {
		return nil
	}
	var out modelClaims
	if err := a.askJSON(ctx, "research_facts", factsSystem, strings.TrimSpace(b.String()), factsSchema(attrs), 2000, &out); err != nil {
		a.facts.offline++
		a.facts.failed = append(a.facts.failed, a.why(err))
		return nil
	}
	a.facts.calls++
	pending := make([][]pendingFact, len(hits))
	for _, c := range out.Claims {
		if c.Passage < 1 || c.Passage > len(sent) {
			a.facts.dropped = append(a.facts.dropped, fmt.Sprintf("a claim is read from passage %d, which was not given", c.Passage))
			continue
		}
		g := sent[c.Passage-1]
		f, sentence, err := a.checkClaim(c, g.sentences, attrs, kinds)
		if err != nil {
			a.facts.dropped = append(a.facts.dropped, a.why(err))
			continue
		}
		h := hits[g.hit]
		f.Section, f.SubQuestionID, f.Subject, f.Passage = sq.Aspect, sq.ID, q.Subject, sentence
		f.Attribute += a.r.periodOf(sq, q, sentence, valueIn(sentence, f.Value))
		pending[g.hit] = append(pending[g.hit], pendingFact{fact: f, key: docURL(h.URL) + "\x00" + sentence})
	}
	return pending
}

// checkClaim keeps a claim that states its value, a value one of the
// passage's sentences writes, about an attribute asked, in 10 to 500
// characters, every number of it in the passage. It returns the fact
// (without its ids and source) and the sentence it rests on.
func (a *assist) checkClaim(c modelClaim, sentences []string, attrs []string, kinds map[string]Kind) (rs.Fact, string, error) {
	text := strings.Join(strings.Fields(c.Text), " ")
	value := strings.Join(strings.Fields(c.Value), " ")
	short := clipRunes(text, 80)
	if n := utf8.RuneCountInString(text); n < rs.MinFactChars || n > rs.MaxFactChars {
		return rs.Fact{}, "", rejectf("claim %q is %d characters, not %d to %d", short, n, rs.MinFactChars, rs.MaxFactChars)
	}
	attr := ""
	for _, x := range attrs {
		if strings.EqualFold(x, strings.TrimSpace(c.Attribute)) {
			attr = x
		}
	}
	if attr == "" {
		return rs.Fact{}, "", rejectf("claim %q is about %q, which was not asked", short, c.Attribute)
	}
	if c.Confidence < 0 || c.Confidence > 1 {
		return rs.Fact{}, "", rejectf("claim %q has confidence %g, not 0 to 1", short, c.Confidence)
	}
	if value == "" || utf8.RuneCountInString(value) > maxValueChars {
		return rs.Fact{}, "", rejectf("claim %q gives no value of at most %d characters", short, maxValueChars)
	}
	var ev evidence.Set
	for _, s := range sentences {
		ev.AddText(s)
	}
	if chk := ev.Check(text); !chk.OK() {
		return rs.Fact{}, "", rejectf("claim %q states %s, which its passage does not", short, strings.Join(chk.Unverified, ", "))
	}
	sentence := ""
	best := -1
	for _, s := range sentences {
		if wordAt(s, value) < 0 {
			continue
		}
		if n := shared(s, text); n > best {
			sentence, best = s, n
		}
	}
	if sentence == "" {
		return rs.Fact{}, "", rejectf("claim %q gives the value %q, which its passage does not state", short, value)
	}
	v := valueIn(sentence, value)
	if !states(text, value) && !states(text, v.Text) {
		return rs.Fact{}, "", rejectf("claim %q does not state its value %q", short, value)
	}
	if want := kinds[attr]; !kindFits(want, v.Kind) {
		return rs.Fact{}, "", rejectf("claim %q gives %q for %s, which is not %s", short, value, attr, kindName(want))
	}
	return rs.Fact{Text: text, Value: v.Text, Attribute: attr, Confidence: min(c.Confidence, maxModelConfidence),
		ExtractionTimestamp: a.r.now().UTC()}, sentence, nil
}

// takeFacts gives the passage's checked claims their ids and source, in
// order, leaving out a claim from a sentence an offline fact was taken
// from and a claim already taken from an overlapping passage; it marks
// their sentences read, so that the offline reader passes over them.
func (a *assist) takeFacts(pending []pendingFact, sr rs.SearchResult, entity string, seen map[string]bool) []rs.Fact {
	if a.facts.taken == nil {
		a.facts.taken, a.facts.same = map[string]bool{}, map[string]bool{}
	}
	var out []rs.Fact
	for _, p := range pending {
		if seen[p.key] && !a.facts.taken[p.key] {
			continue
		}
		same := p.key + "\x00" + p.fact.Attribute + "\x00" + p.fact.Value
		if a.facts.same[same] {
			continue
		}
		seen[p.key], a.facts.taken[p.key], a.facts.same[same] = true, true, true
		f := p.fact
		f.ID, f.SourceURL, f.SourceID, f.SourceTitle, f.Entity = a.r.id(), sr.URL, sr.ID, sr.Title, entity
		out = append(out, f)
		a.facts.kept++
	}
	return out
}

// factsDone tells what extraction did and notes what was rejected.
func (a *assist) factsDone(stage rs.Status) {
	if a.model == nil {
		return
	}
	t := &a.facts
	msg := fmt.Sprintf("model %s: facts were extracted by the model for %d sub-questions (%d kept, %d dropped)", a.model.Name(), t.calls, t.kept, len(t.dropped))
	if t.calls == 0 {
		msg = fmt.Sprintf("model %s: facts were read offline", a.model.Name())
	}
	if t.offline > 0 {
		if t.calls > 0 {
			msg += fmt.Sprintf("; %d sub-questions were read offline only", t.offline)
		}
		switch {
		case len(t.failed) > 0:
			msg += ": " + t.failed[0]
		case a.off():
			msg += ": the model is not asked again after it failed"
		default:
			msg += fmt.Sprintf(": a research asks the model to read at most %d times", maxFactCalls)
		}
	}
	a.r.report(stage, "%s", msg)
	if len(t.dropped) > 0 {
		a.notes = append(a.notes, fmt.Sprintf("%d claims the model extracted were dropped, failing the checks against their passages; for example: %s.",
			len(t.dropped), strings.TrimSuffix(t.dropped[0], ".")))
	}
	rejected := 0
	for _, why := range t.failed {
		if !strings.HasPrefix(why, "the model did not answer") {
			rejected++
		}
	}
	if rejected > 0 {
		a.notes = append(a.notes, fmt.Sprintf("The model's facts for %d sub-questions were rejected and their passages read offline: %s.", rejected, strings.TrimSuffix(t.failed[0], ".")))
	}
}

// attributesOf lists the targets' attributes and kinds; with no target
// (the question of a broad briefing), every aspect's.
func attributesOf(targets []Target) ([]string, map[string]Kind) {
	if len(targets) == 0 {
		for _, asp := range aspects {
			targets = append(targets, asp.Targets...)
		}
	}
	var attrs []string
	kinds := map[string]Kind{}
	for _, t := range targets {
		if _, dup := kinds[t.Attribute]; !dup && t.Attribute != "" {
			attrs = append(attrs, t.Attribute)
			kinds[t.Attribute] = t.Kind
		}
	}
	return attrs, kinds
}

// unread returns the passage's sentences no fact was taken from yet and
// that state something (not a heading or a line of metadata), up to
// maxModelPassageChars.
func unread(h Passage, seen map[string]bool) []string {
	doc := docURL(h.URL)
	var out []string
	n := 0
	for _, s := range Sentences(h.Text) {
		if seen[doc+"\x00"+s] || headerLine(s) {
			continue
		}
		if n+len(s) > maxModelPassageChars {
			break
		}
		out = append(out, s)
		n += len(s) + 1
	}
	return out
}

// wordAt is the byte offset of value in s where it stands as a whole
// (not inside a longer number or word), or -1.
func wordAt(s, value string) int {
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], value)
		if i < 0 {
			return -1
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(value):])
		if !glued(before) && !glued(after) {
			return i
		}
		from = i + 1
	}
	return -1
}

func glued(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// valueIn is the typed value the sentence writes where value stands:
// the date, amount or count that holds it or that it holds alone
// ("46.9" is "$46.9 million"), else value as a term.
func valueIn(sentence, value string) Value {
	at := wordAt(sentence, value)
	if at < 0 {
		return Value{Kind: KindTerm, Text: value}
	}
	end := at + len(value)
	var inside []Value
	for _, v := range Values(sentence) {
		if v.Start <= at && end <= v.End {
			return v
		}
		if at <= v.Start && v.End <= end {
			inside = append(inside, v)
		}
	}
	if len(inside) == 1 {
		return inside[0]
	}
	return Value{Kind: KindTerm, Text: value, Start: at, End: end}
}

// states reports whether text states value: its numbers when it has
// some, else its words.
func states(text, value string) bool {
	var ev evidence.Set
	ev.AddText(text)
	if chk := ev.Check(value); chk.Numbers > 0 {
		return chk.OK()
	}
	return value != "" && strings.Contains(strings.ToLower(text), strings.ToLower(value))
}

// kindFits: an amount or count answers an amount or count, a date a
// date; names and terms are not told apart by their form.
func kindFits(want, got Kind) bool {
	switch want {
	case KindMoney, KindNumber:
		return got == KindMoney || got == KindNumber
	case KindDate:
		return got == KindDate
	}
	return true
}

func kindName(k Kind) string {
	switch k {
	case KindMoney, KindNumber:
		return "an amount or a count"
	case KindDate:
		return "a date"
	}
	return string(k)
}

// shared counts the words of b that a holds.
func shared(a, b string) int {
	have := map[string]bool{}
	for _, w := range words(a) {
		have[w] = true
	}
	n := 0
	for _, w := range words(b) {
		if have[w] {
			n++
		}
	}
	return n
}
