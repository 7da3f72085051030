package research

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode"

	rs "github.com/quarry-dev/quarry/research"
)

// position is one document's claim about an attribute: its best fact.
type position struct {
	doc  string
	fact *rs.Fact
	// also are the document's other facts that say the same.
	also   []*rs.Fact
	value  Value
	source *rs.SearchResult
	label  string
	// rank is the passage's place in the search results, best first.
	rank int
	// lone marks a claim only one source makes that was taken to be
	// about a better-attested entity of the same name (absorbLoneClaims).
	lone bool
	// corrects marks a document that gives its value in place of one it
	// says is wrong (Claim.Corrects).
	corrects bool
}

// facts are the position's fact and those that say the same.
func (p *position) facts() []*rs.Fact { return append([]*rs.Fact{p.fact}, p.also...) }

// cluster is the positions about one entity.
type cluster struct {
	label string
	pos   []*position
	// claims marks a briefing's claims, read on any topic: its
	// sentences are written apart, not copies of one edited.
	claims bool
	// preferred is the side believed, after resolution; when the
	// sources could not be told apart (disputed) it is the side of the
	// best-ranked passage, for the short answer only: the report and the
	// discrepancy give every side.
	preferred []*position
	disputed  bool
	// aside are lone claims that lost: they may be wrong, or about an
	// entity of the same name no other source describes, so the short
	// answer keeps them with that caveat.
	aside []*position
}

// correctionWords mark a source that corrects an earlier figure.
var correctionWords = []string{"restated", "restatement", "corrected", "correction", "revised", "amended", "erroneously", "in error", "should have read", "misstated",
	"corrects", "correcting", "erratum", "clarified", "clarification", "updated figure", "wrongly", "misreported"}

// verify compares facts about the same attribute: it splits them by the
// entity their sources describe, records a Discrepancy for each entity
// whose sources disagree (resolved), an Ambiguity for each name whose
// entities have different answers, and marks corroborated and preferred
// facts verified.
//
// Facts read as claims (claims, by fact ID) are compared with like claims
// (Claim.Like: one head, unit, period and modality, agreeing modifiers);
// other facts with those of the same attribute.
func verify(res *rs.Result, claims map[string]Claim, ents *entities, now time.Time, newID func() string) {
	sources := map[string]*rs.SearchResult{}
	rank := map[string]int{}
	for i := range res.Sources {
		sources[res.Sources[i].ID] = &res.Sources[i]
		rank[res.Sources[i].ID] = i
	}
	localDollars(claims)
	docWords := docVectors(res.Sources)
	groups := map[string][]*position{}
	var order []string
	like := &likeClaims{names: map[string]string{}, told: tellApart(res.Facts, claims, res.Sources)}
	for i := range res.Facts {
		f := &res.Facts[i]
		if f.Value == "" {
			continue
		}
		doc := docURL(f.SourceURL)
		key := f.Attribute
		if c, ok := claims[f.ID]; ok {
			key = like.group(c, f.Attribute)
		}
		ps := groups[key]
		v := valueOf(f)
		replaced := false
		for _, p := range ps {
			if p.doc != doc {
				continue
			}
			// One position per document: its most confident claim, with
			// the document's other claims of the same value.
			replaced = true
			p.corrects = p.corrects || claims[f.ID].Corrects
			switch {
			case Same(v, p.value) && f.Confidence > p.fact.Confidence:
				p.also = append(p.also, p.fact)
				p.fact, p.value = f, v
			case Same(v, p.value):
				p.also = append(p.also, f)
			case f.Confidence > p.fact.Confidence:
				p.fact, p.value, p.also = f, v, nil
			}
		}
		if replaced {
			continue
		}
		if ps == nil {
			order = append(order, key)
		}
		label := ""
		if f.Entity != f.Subject {
			label = strings.ToLower(f.Entity)
		}
		groups[key] = append(ps, &position{doc: doc, fact: f, value: v, source: sources[f.SourceID], label: label, rank: rank[f.SourceID], corrects: claims[f.ID].Corrects})
	}
	direct := ""
	if res.Plan != nil && len(res.Plan.SubQuestions) > 0 {
		direct = res.Plan.SubQuestions[0].ID
	}
	var ans answer
	for _, key := range order {
		ps := groups[key]
		name := like.name(key)
		var clusters []*cluster
		_, isClaim := claims[ps[0].fact.ID]
		if isClaim {
			// A briefing's entities were told apart by context
			// (resolveEntities): each is one cluster.
			clusters = byResolvedEntity(ps)
		} else {
			clusters = absorbLoneClaims(byEntity(ps, docWords), res.Sources, docWords)
		}
		for _, c := range clusters {
			c.claims = isClaim
			before := len(res.Discrepancies)
			topic := name
			if isClaim && len(clusters) > 1 {
				// Named by what its own sources call it, not a namesake's.
				topic = c.pos[0].fact.Attribute
			}
			resolve(res, c, topic, now, newID)
			// A namesake that says it is another thing or elsewhere has
			// its values told in its note, not weighed as the briefing's
			// discrepancies. (One told apart by its name alone may be the
			// subject's own body, "Lantern Quay Developments Ltd".)
			if isClaim && ents.toldApart(c.pos[0].fact.Entity) {
				dropDiscrepancies(res, before)
			}
			// A briefing's short answer is what its sources disagreed on.
			if ps[0].fact.SubQuestionID == direct && (!isClaim || len(res.Discrepancies) > before) {
				ans.add(c)
			}
		}
		// Entities of one name whose answers are values of different
		// things are numbers attached to that name, not an ambiguity.
		if isClaim && namedApart(clusters, ents) || !isClaim && (namesDiffer(clusters) || sameAttribute(clusters)) {
			recordAmbiguity(res, clusters, name)
		}
	}
	res.Answer = ans.String()
}

// likeClaims groups claims that are about one thing (Claim.Like), each
// group known by the name of its first claim.
type likeClaims struct {
	reps    []Claim
	members [][]Claim
	keys    []string
	names   map[string]string
	told    *toldApart
}

// group returns the key of the group claim c joins, named name when it
// starts one. A group's representative is its most qualified claim, so
// that "plant opening" and "manufacturing plant opening" meet.
func (l *likeClaims) group(c Claim, name string) string {
	for i, rep := range l.reps {
		if (rep.Like(c) || l.told.alike(rep, c)) && !yearsApart(l.members[i], c) {
			if len(c.Mods) > len(rep.Mods) {
				l.reps[i] = c
			}
			l.members[i] = append(l.members[i], c)
			return l.keys[i]
		}
	}
	key := fmt.Sprintf("claim %d", len(l.keys))
	l.reps = append(l.reps, c)
	l.members = append(l.members, []Claim{c})
	l.keys = append(l.keys, key)
	l.names[key] = name
	return key
}

// name is how a group key reads: a claim group's first name, or the
// attribute itself.
func (l *likeClaims) name(key string) string {
	if n, ok := l.names[key]; ok {
		return n
	}
	return key
}

// valueOf re-reads a fact's value from its passage.
func valueOf(f *rs.Fact) Value {
	i := strings.Index(f.Passage, f.Value)
	if i < 0 {
		return Value{Kind: KindTerm, Text: f.Value}
	}
	for _, v := range Values(f.Passage) {
		if v.Start == i && v.Text == f.Value {
			return v
		}
	}
	for _, v := range Values(f.Value) {
		if v.Text == f.Value {
			v.Approx = v.Approx || hedgedAt(f.Passage, Value{Kind: v.Kind, Text: v.Text, Start: i})
			return v
		}
	}
	// A claim's value with its unit: "268 patients", "some 300
	// volunteers".
	if vs := Values(f.Value); len(vs) > 0 && vs[0].Start == 0 && vs[0].Kind != KindDate {
		v := vs[0]
		v.Text = f.Value
		v.Approx = v.Approx || hedgedAt(f.Passage, Value{Kind: v.Kind, Text: v.Text, Start: i})
		return v
	}
	return Value{Kind: KindTerm, Text: f.Value, Start: i, End: i + len(f.Value)}
}

// side is one value within an entity and the positions asserting it.
type side struct {
	value Value
	pos   []*position
	// support counts asserting sources, and half of each other source
	// whose text merely mentions the value.
	support float64
}

// resolve compares the values one entity's sources give; when they
// disagree it records a discrepancy and picks a side by, in turn, a
// stated correction, consensus, credibility and recency, or says it
// cannot.
func resolve(res *rs.Result, c *cluster, attribute string, now time.Time, newID func() string) {
	editedClaims(c)
	var sides []*side
	for _, p := range c.pos {
		placed := false
		for _, s := range sides {
			if Same(p.value, s.value) {
				s.pos = append(s.pos, p)
				if s.value.Approx && !p.value.Approx {
					// "around 1,500 pupils" and "1,486 pupils": the side
					// says the exact figure.
					s.value = p.value
					s.pos = append([]*position{p}, s.pos[:len(s.pos)-1]...)
				}
				placed = true
				break
			}
		}
		if !placed {
			sides = append(sides, &side{value: p.value, pos: []*position{p}})
		}
	}
	for _, s := range sides {
		s.support = float64(distinctClaims(s.pos)) + 0.5*float64(mentions(res.Sources, s))
	}
	sort.SliceStable(sides, func(i, j int) bool { return sides[i].support > sides[j].support })
	if len(sides) == 1 {
		c.preferred = sides[0].pos
		if len(sides[0].pos) > 1 {
			for _, p := range sides[0].pos {
				for _, f := range p.facts() {
					f.Verified = true
				}
			}
		}
		return
	}
	d := rs.Discrepancy{ID: newID(), CreatedAt: now, Topic: strings.TrimSpace(entityName(c) + " " + attribute)}
	win, strategy, confidence, why := choose(sides)
	if win != nil {
		// The preferred side first.
		for i, s := range sides {
			if s == win {
				sides[0], sides[i] = sides[i], sides[0]
				break
			}
		}
		d.Preferred = win.value.Text
		c.preferred = win.pos
		for _, s := range sides[1:] {
			if s.lonely() {
				c.aside = append(c.aside, s.pos...)
			}
		}
		for _, p := range win.pos {
			for _, f := range p.facts() {
				f.Verified = true
			}
		}
	} else {
		c.disputed = true
		best := sides[0]
		for _, s := range sides {
			if s.rank() < best.rank() {
				best = s
			}
		}
		c.preferred = best.pos
		for _, s := range sides {
			if s != best && s.lonely() {
				c.aside = append(c.aside, s.pos...)
			}
		}
	}
	for _, s := range sides {
		var ids []string
		for _, p := range s.pos {
			for _, f := range p.facts() {
				ids = append(ids, f.ID)
				f.DiscrepancyID = d.ID
			}
		}
		d.Sides = append(d.Sides, rs.Side{Value: s.value.Text, FactIDs: ids})
		d.FactIDs = append(d.FactIDs, ids...)
	}
	d.Strategy, d.ResolutionConfidence, d.Resolution = strategy, confidence, why
	res.Discrepancies = append(res.Discrepancies, d)
}

// lonely reports a side made only of lone claims.
func (s *side) lonely() bool {
	for _, p := range s.pos {
		if !p.lone {
			return false
		}
	}
	return true
}

// rank is the best search rank among the side's passages.
func (s *side) rank() int {
	r := 1 << 30
	for _, p := range s.pos {
		r = min(r, p.rank)
	}
	return r
}

// distinctClaims counts positions whose sentences differ: a sentence
// copied word for word into several documents is one source's claim,
// not corroboration.
func distinctClaims(ps []*position) int {
	seen := map[string]bool{}
	for _, p := range ps {
		seen[strings.Join(words(p.fact.Passage), " ")] = true
	}
	return len(seen)
}

// informal is the credibility of a blog, a forum, a letter or a
// listing: never believed over a more formal source for being newer.
const informal = 0.4

// choose picks the side to believe; nil means uncertainty.
func choose(sides []*side) (*side, string, float64, string) {
	// A stated correction: the source that corrects wins, if it is the
	// only side that does and no older than the rest.
	var corrected []*side
	for _, s := range sides {
		if sideCorrects(s) {
			corrected = append(corrected, s)
		}
	}
	if len(corrected) == 1 {
		w := corrected[0]
		if !olderThanAny(w, sides) {
			return w, rs.StrategyRecency, 0.9, fmt.Sprintf("Prefer %s: %s corrects the earlier figure (%s).", w.value.Text, describe(w), others(w, sides))
		}
	}
	top, second := sides[0], sides[1]
	if top.support >= 2 && top.support > second.support {
		total := 0.0
		for _, s := range sides {
			total += s.support
		}
		conf := math.Round(100*top.support/total) / 100
		return top, rs.StrategyConsensus, conf, fmt.Sprintf("Prefer %s: %s agree on it, against %s.", top.value.Text, countSources(top), others(top, sides))
	}
	byCred := append([]*side(nil), sides...)
	sort.SliceStable(byCred, func(i, j int) bool { return credibility(byCred[i]) > credibility(byCred[j]) })
	if diff := credibility(byCred[0]) - credibility(byCred[1]); diff >= 0.15 {
		w := byCred[0]
		return w, rs.StrategyCredibility, math.Round(100*min(0.95, 0.5+diff)) / 100,
			fmt.Sprintf("Prefer %s: %s is the more credible source (%.2f), against %s.", w.value.Text, describe(w), credibility(w), others(w, sides))
	}
	byDate := append([]*side(nil), sides...)
	sort.SliceStable(byDate, func(i, j int) bool { return newest(byDate[i]).After(newest(byDate[j])) })
	// The newer of two sources is believed only when it is no less
	// credible: a reader's letter is not a correction of the project's
	// closeout report, however much later it is.
	if w := byCred[0]; credibility(byDate[0]) <= informal && credibility(w) > informal {
		return w, rs.StrategyCredibility, 0.55,
			fmt.Sprintf("Prefer %s: %s is the more credible source (%.2f), against %s.", w.value.Text, describe(w), credibility(w), others(w, sides))
	}
	if n0, n1 := newest(byDate[0]), newest(byDate[1]); !n0.IsZero() && !n1.IsZero() && n0.After(n1) {
		w := byDate[0]
		return w, rs.StrategyRecency, 0.7, fmt.Sprintf("Prefer %s: %s is the most recent source, against %s.", w.value.Text, describe(w), others(w, sides))
	}
	if top.support > second.support {
		total := 0.0
		for _, s := range sides {
			total += s.support
		}
		return top, rs.StrategyConsensus, math.Round(100*top.support/total) / 100,
			fmt.Sprintf("Prefer %s: more sources mention it than %s.", top.value.Text, others(top, sides))
	}
	var vals []string
	for _, s := range sides {
		vals = append(vals, fmt.Sprintf("%s (%s)", s.value.Text, describe(s)))
	}
	return nil, rs.StrategyUncertainty, 0.5, "Unresolved: equally supported sources give " + strings.Join(vals, " and ") + "; both are reported."
}

func sideCorrects(s *side) bool {
	for _, p := range s.pos {
		if p.corrects {
			return true
		}
		lower := strings.ToLower(p.fact.Passage)
		for _, w := range correctionWords {
			if strings.Contains(lower, w) {
				return true
			}
		}
	}
	return false
}

func olderThanAny(w *side, sides []*side) bool {
	nw := newest(w)
	if nw.IsZero() {
		return false
	}
	for _, s := range sides {
		if s != w && newest(s).After(nw) {
			return true
		}
	}
	return false
}

func newest(s *side) time.Time {
	var t time.Time
	for _, p := range s.pos {
		if p.source != nil && p.source.Published.After(t) {
			t = p.source.Published
		}
	}
	return t
}

func credibility(s *side) float64 {
	c := 0.0
	for _, p := range s.pos {
		if p.source != nil {
			c = max(c, p.source.CredibilityScore)
		}
	}
	return c
}

// describe names a side's sources: "the 10-K/A (2025-03-20)".
func describe(s *side) string {
	var names []string
	seen := map[string]bool{}
	for _, p := range s.pos {
		if p.source == nil || seen[p.source.Title] {
			continue
		}
		seen[p.source.Title] = true
		n := p.source.Title
		if !p.source.Published.IsZero() {
			n += " (" + p.source.Published.Format("2006-01-02") + ")"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

func countSources(s *side) string {
	if len(s.pos) == 1 {
		return describe(s) + " and another source's mention"
	}
	return fmt.Sprintf("%d sources (%s)", len(s.pos), describe(s))
}

func others(w *side, sides []*side) string {
	var out []string
	for _, s := range sides {
		if s != w {
			out = append(out, s.value.Text+" in "+describe(s))
		}
	}
	return strings.Join(out, "; ")
}

// mentions counts the sources, other than those asserting s, whose text
// holds its value's words in order.
func mentions(sources []rs.SearchResult, s *side) int {
	asserting := map[string]bool{}
	for _, p := range s.pos {
		asserting[p.doc] = true
	}
	needle := " " + strings.Join(words(s.value.Text), " ") + " "
	if strings.TrimSpace(needle) == "" {
		return 0
	}
	counted := map[string]bool{}
	for _, src := range sources {
		doc := docURL(src.URL)
		if asserting[doc] || counted[doc] {
			continue
		}
		if strings.Contains(" "+strings.Join(words(src.Content), " ")+" ", needle) {
			counted[doc] = true
		}
	}
	return len(counted)
}

// byResolvedEntity splits positions by the entity resolution gave
// their facts.
func byResolvedEntity(ps []*position) []*cluster {
	var out []*cluster
	of := map[string]*cluster{}
	for _, p := range ps {
		c := of[p.fact.Entity]
		if c == nil {
			c = &cluster{label: p.label}
			of[p.fact.Entity] = c
			out = append(out, c)
		}
		c.pos = append(c.pos, p)
	}
	return out
}

// namedApart reports whether claims' entities may be an ambiguity: each
// is named (not told apart by a number alone, as "Debian (68040)"), and
// entities resolved by context (ents) are named entities of one kind.
func namedApart(clusters []*cluster, ents *entities) bool {
	for _, c := range clusters {
		if c.label != "" && !namedLabel(c.label, c.pos[0].fact.Subject) {
			return false
		}
	}
	if ents == nil {
		return true
	}
	for _, c := range clusters[1:] {
		if !ents.sameKind(entityName(clusters[0]), entityName(c)) {
			return false
		}
	}
	return true
}

// namesDiffer reports whether entities are told apart by their names:
// values attached to one name ("Debian 1.3": July 1997, 1993) are not
// entities sharing it.
func namesDiffer(clusters []*cluster) bool {
	names := map[string]bool{}
	for _, c := range clusters {
		names[strings.ToLower(entityName(c))] = true
	}
	return len(names) > 1
}

// sameAttribute reports whether the entities' answers may be values of
// one attribute: amounts and counts their sentences state as claims of
// one head and unit, dates whose claims (where a sentence makes one)
// agree on what they date, names and terms. Values attached to one name
// for different things ("Debian 1.3": released July 1997, started 1993,
// "Atari Medusa 68040") are not entities sharing it.
func sameAttribute(clusters []*cluster) bool {
	var first *Claim
	for _, c := range clusters {
		if len(c.preferred) == 0 {
			continue
		}
		p := c.preferred[0]
		switch p.value.Kind {
		case KindTerm, KindPerson, KindPlace:
			continue
		}
		claim, ok := claimIn(p.fact.Passage, p.value, words(p.fact.Subject))
		switch {
		case !ok && p.value.Kind == KindDate:
			continue // a life's dates, a heading's year: read by the target
		case !ok:
			return false // a number of no attribute ("Atari Medusa 68040")
		}
		if first == nil {
			first = &claim
			continue
		}
		if claim.Unit != first.Unit || claim.Head != first.Head && claim.Head != "date" && first.Head != "date" {
			return false
		}
	}
	return true
}

// claimIn is the claim a sentence makes of value v.
func claimIn(sentence string, v Value, subject []string) (Claim, bool) {
	for _, c := range Claims(sentence, subject) {
		if c.Value.Start == v.Start || c.Text == v.Text || strings.HasPrefix(c.Text, v.Text) {
			return c, true
		}
	}
	return Claim{}, false
}

// recordAmbiguity notes a name whose entities give different answers.
func recordAmbiguity(res *rs.Result, clusters []*cluster, attribute string) {
	if len(clusters) < 2 {
		return
	}
	a := rs.Ambiguity{Attribute: attribute}
	var values []Value
	for _, c := range clusters {
		if len(c.preferred) == 0 {
			continue
		}
		p := c.preferred[0]
		a.Name = p.fact.Subject
		var ids []string
		for _, q := range c.preferred {
			ids = append(ids, q.fact.ID)
		}
		a.Entities = append(a.Entities, rs.EntityAnswers{Entity: entityName(c), Value: p.value.Text, FactIDs: ids})
		values = append(values, p.value)
	}
	distinct := false
	for i := range values {
		for j := i + 1; j < len(values); j++ {
			if !Same(values[i], values[j]) {
				distinct = true
			}
		}
	}
	if distinct {
		res.Ambiguities = append(res.Ambiguities, a)
	}
}

// namedLabel reports whether a label names an entity: besides the
// subject's words it has a word that is not a number.
func namedLabel(label, subject string) bool {
	subj := map[string]bool{}
	for _, w := range words(subject) {
		subj[w] = true
	}
	for _, w := range words(label) {
		if !subj[w] && !unicode.IsDigit(rune(w[0])) {
			return true
		}
	}
	return false
}

// entityName is how a cluster's sources write the entity.
func entityName(c *cluster) string {
	if len(c.pos) == 0 {
		return ""
	}
	f := c.pos[0].fact
	if c.label == "" {
		return f.Subject
	}
	return f.Entity
}

// dropDiscrepancies takes back the discrepancies recorded after the
// first n, and their facts' links to them.
func dropDiscrepancies(res *rs.Result, n int) {
	if len(res.Discrepancies) <= n {
		return
	}
	dropped := map[string]bool{}
	for _, d := range res.Discrepancies[n:] {
		dropped[d.ID] = true
	}
	for i := range res.Facts {
		if f := &res.Facts[i]; dropped[f.DiscrepancyID] {
			f.DiscrepancyID = ""
		}
	}
	res.Discrepancies = res.Discrepancies[:n]
}

// localDollars reads a bare "$" or "dollars" as the one dollar of
// another country that the claims name, when none names the US dollar:
// in a corpus that writes "A$12.6 million", "a $16.2 million package"
// is in Australian dollars too, and the two are one amount's.
func localDollars(claims map[string]Claim) {
	local := ""
	for _, c := range claims {
		t := strings.ToUpper(c.Text)
		switch {
		case c.Unit == "USD" && (strings.Contains(t, "US") || strings.Contains(t, "U.S")):
			return
		case c.Unit != "USD" && (strings.Contains(t, "$") || strings.Contains(t, "DOLLAR")):
			if local != "" && local != c.Unit {
				return
			}
			local = c.Unit
		}
	}
	if local == "" {
		return
	}
	for id, c := range claims {
		if c.Unit == "USD" {
			c.Unit = local
			claims[id] = c
		}
	}
}
