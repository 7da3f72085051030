package research

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	rs "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/retrieve"
)

// reading is what one request's execution remembers across searches.
type reading struct {
	k      int
	seen   map[string]bool   // sentences already read, per document
	labels map[string]string // document URL -> entity label
	ai     *assist
	// claims are the facts read as claims on any topic, by fact ID:
	// verification compares them as claims (Claim.Like).
	claims map[string]Claim
	// sections are the plan's aspects, in order.
	sections []string
	// published holds the dates of the documents found so far: an
	// undated document's day without its year is read in their time.
	published map[string]time.Time
}

// corpusTime is the middle date of the dated documents found so far,
// zero when none is dated: a day an undated blog writes without its
// year ("declared on Mar 17") is taken to be of its corpus's time, as
// the dated documents about the same events are.
func (rd *reading) corpusTime() time.Time {
	var ts []time.Time
	for _, t := range rd.published {
		if !t.IsZero() {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		return time.Time{}
	}
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	return ts[len(ts)/2]
}

// execute searches every sub-question and extracts the facts of the
// passages found; a sentence gives a fact to the first sub-question that
// reads it. Then it follows up what the sources disagree on (followUps).
// With a model, its facts come first (assist.readFacts). A sub-question
// with no target (an aspect of a briefing, a broad question) reads every
// claim its passages make (Claims); it returns those claims by fact ID.
func (r *Researcher) execute(ctx context.Context, res *rs.Result, q question, ai *assist) (map[string]Claim, error) {
	rd := &reading{k: r.PassagesPerQuestion, seen: map[string]bool{}, labels: map[string]string{}, ai: ai, claims: map[string]Claim{},
		published: map[string]time.Time{}}
	if rd.k <= 0 {
		rd.k = rs.MaxResults
	}
	for _, sq := range res.Plan.SubQuestions {
		rd.sections = append(rd.sections, sq.Aspect)
	}
	for i := range res.Plan.SubQuestions {
		sq := &res.Plan.SubQuestions[i]
		query := sq.Text
		var targets []Target
		if !q.Target.Broad {
			targets = []Target{q.Target}
		}
		hint := targets
		if a, ok := aspectOf(sq.Aspect); ok {
			query = q.Subject + " " + a.Search
			targets, hint = nil, a.Targets
		}
		query = ai.query(sq, q, query)
		if err := r.search(ctx, res, q, sq, query, targets, hint, rd); err != nil {
			return nil, err
		}
	}
	return rd.claims, r.followUps(ctx, res, q, rd)
}

// search runs one sub-question: its passages become search results and
// their sentences facts.
//
// Offline, targets say what each sentence is read for (none: every
// claim); hint says which attributes the model is asked for.
func (r *Researcher) search(ctx context.Context, res *rs.Result, q question, sq *rs.SubQuestion, query string, targets, hint []Target, rd *reading) error {
	if err := ctx.Err(); err != nil {
		return quarry.Errorf(quarry.ECodeUnavailable, "research stopped: %w", err)
	}
	sq.Status = rs.SubSearching
	hits, err := r.Corpus.Search(ctx, query, rd.k)
	if err != nil {
		sq.Status = rs.SubFailed
		return err
	}
	dropped := rd.ai.droppedClaims()
	pending := rd.ai.readFacts(ctx, q, sq, hits, hint, rd.seen)
	// The model's facts first; with no target, the offline claims only
	// when the model did not read the passages: it was not asked or
	// failed, or none of its claims passed the checks.
	offline := pending == nil || rd.ai.droppedClaims() > dropped
	// A model that read the passages and found nothing leaves the offline
	// reader the claims its aspect names.
	var only *aspect
	if !offline {
		if a, ok := aspectOf(sq.Aspect); ok {
			only = &a
		}
	}
	var srs []rs.SearchResult
	var kept []Passage
	modelRead := false
	for i, h := range hits {
		if strings.TrimSpace(h.Text) == "" {
			continue
		}
		doc := docURL(h.URL)
		rd.published[doc] = h.Published
		if _, ok := rd.labels[doc]; !ok {
			rd.labels[doc] = entityLabel(h.Text, q.SubjectWords)
		}
		sr := rs.SearchResult{ID: r.id(), SubQuestionID: sq.ID, URL: h.URL, Title: clip(orDefault(h.Title, doc), rs.MaxTitleChars),
			Content: clip(h.Text, rs.MaxContentChars), Domain: orDefault(h.Domain, domainOf(h.URL)), AccessTimestamp: r.now().UTC(),
			CredibilityScore: h.Credibility, Published: h.Published, ExtractedFacts: []string{}}
		if i < len(pending) {
			for _, f := range rd.ai.takeFacts(pending[i], sr, orDefault(rd.labels[doc], q.Subject), rd.seen) {
				sr.ExtractedFacts = append(sr.ExtractedFacts, f.ID)
				res.Facts = append(res.Facts, f)
				modelRead = true
			}
		}
		srs = append(srs, sr)
		kept = append(kept, h)
	}
	for i, h := range kept {
		sr := srs[i]
		read := r.extract(h, sr, sq, targets, q, rd.labels[docURL(h.URL)], rd.seen)
		if len(targets) == 0 && !modelRead && (offline || only != nil) {
			read = r.extractClaims(h, sr, sq, q, only, rd)
		}
		for _, f := range read {
			sr.ExtractedFacts = append(sr.ExtractedFacts, f.ID)
			res.Facts = append(res.Facts, f)
		}
		sq.SearchResults = append(sq.SearchResults, sr)
		res.Sources = append(res.Sources, sr)
	}
	sq.Status = rs.SubCompleted
	return nil
}

// followUps asks, for each attribute the sources of a sub-question give
// different values for (about one entity), a follow-up sub-question one
// level deeper that looks for corrections and confirmations, while the
// depth and the ten priorities allow. Follow-ups of follow-ups are asked
// the same way, to the depth's limit; a parent is never asked again, so
// the tree has no cycles.
func (r *Researcher) followUps(ctx context.Context, res *rs.Result, q question, rd *reading) error {
	limit := min(res.Request.Depth.FollowUps(), rs.MaxDepth)
	asked := map[string]bool{}
	for level := 0; level < limit; level++ {
		n := len(res.Plan.SubQuestions)
		for i := 0; i < n; i++ {
			parent := res.Plan.SubQuestions[i]
			if parent.Depth != level {
				continue
			}
			for _, attr := range disputed(res.Facts, parent.ID) {
				if len(res.Plan.SubQuestions) >= rs.MaxPriority {
					return nil
				}
				key := parent.Aspect + "\x00" + attr
				if asked[key] {
					continue
				}
				asked[key] = true
				base, _, _ := strings.Cut(attr, " (")
				text := clip(fmt.Sprintf("Which sources confirm or correct %s %s?", possessive(orDefault(q.Subject, "the subject")), attr), rs.MaxSubQuestionChars)
				res.Plan.SubQuestions = append(res.Plan.SubQuestions, rs.SubQuestion{ID: r.id(), PlanID: res.Plan.ID, Text: text,
					Priority: len(res.Plan.SubQuestions) + 1, ParentID: parent.ID, Depth: parent.Depth + 1, Status: rs.SubPending,
					Aspect: parent.Aspect, SearchResults: []rs.SearchResult{}})
				sq := &res.Plan.SubQuestions[len(res.Plan.SubQuestions)-1]
				targets, hint := targetsFor(parent.Aspect, base, q)
				query := q.Subject + " " + base + " " + strings.Join(correctionWords, " ")
				if err := r.search(ctx, res, q, sq, query, targets, hint, rd); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// disputed returns the attributes whose facts, from sub-question sq,
// give values that are not the same for one entity.
func disputed(facts []rs.Fact, sq string) []string {
	type key struct{ entity, attr string }
	vals := map[key][]Value{}
	var order []key
	var out []string
	done := map[string]bool{}
	for i := range facts {
		f := &facts[i]
		if f.SubQuestionID != sq || f.Value == "" {
			continue
		}
		k := key{f.Entity, f.Attribute}
		if vals[k] == nil {
			order = append(order, k)
		}
		vals[k] = append(vals[k], valueOf(f))
	}
	for _, k := range order {
		vs := vals[k]
		for _, v := range vs[1:] {
			if !Same(v, vs[0]) && !done[k.attr] {
				done[k.attr] = true
				out = append(out, k.attr)
			}
		}
	}
	return out
}

// targetsFor is the target of a follow-up on attr under section, and
// the model's hint: offline none (every claim) under an aspect or a broad
// question, the question's own target under its sub-question; for the
// model the aspect's attribute of that name, or all of them.
func targetsFor(section, attr string, q question) ([]Target, []Target) {
	if a, ok := aspectOf(section); ok {
		for _, t := range a.Targets {
			if t.Attribute == attr {
				return nil, []Target{t}
			}
		}
		return nil, a.Targets
	}
	if q.Target.Broad {
		return nil, nil
	}
	return []Target{q.Target}, []Target{q.Target}
}

// extract reads the passage sentence by sentence and keeps, for each
// sentence, the best claim it makes about one of the targets.
// A sentence already read for an earlier sub-question is skipped.
func (r *Researcher) extract(h Passage, sr rs.SearchResult, sq *rs.SubQuestion, targets []Target, q question, label string, seen map[string]bool) []rs.Fact {
	var facts []rs.Fact
	for _, s := range Sentences(h.Text) {
		key := docURL(h.URL) + "\x00" + s
		if seen[key] || headerLine(s) {
			continue
		}
		var best claim
		var bestT Target
		found := false
		for _, t := range targets {
			if c, ok := t.find(s, q.SubjectWords); ok && (!found || c.Score > best.Score) {
				best, bestT, found = c, t, true
			}
		}
		if !found {
			continue
		}
		seen[key] = true
		text := clipAround(s, best.Value, rs.MaxFactChars)
		if len([]rune(text)) < rs.MinFactChars {
			continue
		}
		entity := q.Subject
		if label != "" {
			entity = label
		}
		facts = append(facts, rs.Fact{ID: r.id(), Text: text, SourceURL: h.URL, SourceID: sr.ID, SourceTitle: sr.Title,
			Confidence: min(0.95, 0.4+0.1*best.Score), Section: sq.Aspect, ExtractionTimestamp: r.now().UTC(), SubQuestionID: sq.ID,
			Subject: q.Subject, Entity: entity, Attribute: bestT.Attribute + r.periodOf(sq, q, s, best.Value), Value: best.Value.Text, Passage: s})
	}
	return facts
}

// extractClaims reads every claim of the passage's sentences (Claims),
// one fact each, named by its attribute, its modality when the source
// does not report it as done, and its period: "upfront licence payment",
// "planned trial enrollment", "revenue (2024)". A sentence read for an
// earlier sub-question is skipped.
//
// With only set, a sentence gives claims only when it holds a word of
// that aspect's vocabulary.
func (r *Researcher) extractClaims(h Passage, sr rs.SearchResult, sq *rs.SubQuestion, q question, only *aspect, rd *reading) []rs.Fact {
	var facts []rs.Fact
	entity := orDefault(rd.labels[docURL(h.URL)], q.Subject)
	previous := ""
	years := distinctYears(h.Text)
	sentences := Sentences(h.Text)
	published := h.Published
	if published.IsZero() {
		published = rd.corpusTime()
	}
	var last time.Time
	for i, s := range sentences {
		sentences[i] = withYearsAfter(s, published, &last)
	}
	corrected := correctedUnits(sentences, q.claimSubject())
	for si, s := range sentences {
		key := docURL(h.URL) + "\x00" + s
		context := previous
		if y := lastYear(s); y != "" {
			previous = y
		}
		if si > 0 {
			s = listingDate(sentences[si-1], s)
		}
		if rd.seen[key] || headerLine(s) || only != nil && !aboutAspect(s, *only) {
			continue
		}
		cs := Claims(s, q.claimSubject())
		cs = slices.DeleteFunc(cs, func(c Claim) bool { return c.Replaced || replacedSentence(sentences, si, c) })
		if len(cs) == 0 {
			continue
		}
		for i := range cs {
			cs[i].Corrects = corrected[cs[i].Unit] || corrected[anyUnit] && cs[i].Unit != "date"
			// "Lifts open today: 4 of 14": the figure of its source's day.
			if cs[i].Unit != "date" && !h.Published.IsZero() && todayLabelRE.MatchString(s) {
				cs[i].Period = h.Published.Format("2006-01-02")
			}
		}
		// "Debian 3.1 was released June 6th, 2005. There were around
		// 15,000 binary packages": the year the sentences before name.
		// Without it, in a history, what such a sentence counts cannot
		// be told.
		anaphoric := anaphoraRE.MatchString(s)
		for i := range cs {
			// "4,120 pairs nested this year, and the island has been
			// rat-free since March 2023": the nearer "this year" is the
			// count's, not the year of another part.
			if rel := relativeYear(s, h.Published); rel != "" && cs[i].Period != "" && cs[i].Period != rel && cs[i].Unit != "date" {
				if nearer(s, cs[i].Value, relativeYearRE.FindStringIndex(s)[0], strings.Index(s, cs[i].Period)) {
					cs[i].Period = rel
				}
			}
			if cs[i].Period != "" || cs[i].Unit == "date" {
				continue
			}
			if anaphoric {
				cs[i].Period = context
			}
			if cs[i].Period == "" {
				cs[i].Period = relativeYear(s, h.Published)
			}
			// An undated document is of its corpus's time: its "6,218
			// votes were cast" is not the only year's the class is
			// claimed for, 2022's, when the others write of 2025.
			if !published.IsZero() {
				cs[i].year, cs[i].guessed = published.Year(), h.Published.IsZero()
			}
			cs[i].Adrift = cs[i].Period == "" && years >= manyYears && (anaphoric || !cs[i].owned)
		}
		// A figure for a year after its source's is a plan or forecast:
		// "250 rural schools by 2026" in a launch of 2023.
		for i := range cs {
			if y, err := strconv.Atoi(cs[i].Period); err == nil && !h.Published.IsZero() && y > h.Published.Year() && cs[i].Modality == Reported {
				cs[i].Modality = Expected
			}
			// "Applications open in March 2025" in a note of January 2025:
			// a day after its source's is a plan, not an event reported.
			if cs[i].Unit == "date" && cs[i].Modality == Reported && !cs[i].done && afterPublished(cs[i].Value, h.Published) {
				cs[i].Modality = Expected
			}
		}
		rd.seen[key] = true
		subj := 0.0
		if len(q.SubjectWords) > 0 && wordIndex(strings.ToLower(s), q.SubjectWords[0]) >= 0 {
			subj = 0.1
		}
		for _, c := range cs {
			text := clipAround(s, c.Value, rs.MaxFactChars)
			if len([]rune(text)) < rs.MinFactChars {
				continue
			}
			f := rs.Fact{ID: r.id(), Text: text, SourceURL: h.URL, SourceID: sr.ID, SourceTitle: sr.Title, Confidence: 0.7 + subj,
				Section: sectionFor(s, sq, rd.sections), ExtractionTimestamp: r.now().UTC(), SubQuestionID: sq.ID, Subject: q.Subject, Entity: entity,
				Attribute: claimName(c), Value: c.Text, Passage: s}
			rd.claims[f.ID] = c
			facts = append(facts, f)
		}
	}
	return facts
}

// todayLabelRE is a label that says its figure is of the day its
// source was written ("Lifts open today:", "Runs open now:"): two
// reports of different days give two figures, not a disagreement.
var todayLabelRE = regexp.MustCompile(`(?i)^[*_\s]*[^:.]{0,60}\b(?:today|tonight|now|currently|at present|this morning)\b[^:.]{0,20}:`)

// sectionFor is the section of a claim the question's own sub-question
// reads: the first aspect of the plan whose vocabulary the sentence
// holds, else the sub-question's.
func sectionFor(s string, sq *rs.SubQuestion, sections []string) string {
	if sq.Aspect != directAspect {
		return sq.Aspect
	}
	for _, sec := range sections {
		if a, ok := aspectOf(sec); ok && aboutAspect(s, a) {
			return sec
		}
	}
	return sq.Aspect
}

// aboutAspect reports whether sentence s holds a word (or its stem) of
// the aspect's vocabulary.
func aboutAspect(s string, a aspect) bool {
	lower := strings.ToLower(s)
	for _, w := range retrieve.Terms(a.Search) {
		if wordIndex(lower, stem(w)) >= 0 {
			return true
		}
	}
	return false
}

// afterPublished reports a date later than its source's own, at the
// precision it is written with.
func afterPublished(v Value, published time.Time) bool {
	if published.IsZero() || v.Year == 0 {
		return false
	}
	switch len(v.Day) {
	case 10:
		// "10/11/2025" in a sheet of 1 November: October 11, not a plan.
		return v.Day > published.Format("2006-01-02") && (v.Alt == "" || v.Alt > published.Format("2006-01-02"))
	case 7:
		return v.Day > published.Format("2006-01")
	}
	return v.Year > published.Year()
}

// relativeYear is the year "last year" or "this year" names in a
// sentence of a source published on published; "" when it names none or
// the source has no date.
func relativeYear(s string, published time.Time) string {
	m := relativeYearRE.FindStringSubmatch(s)
	if m == nil || published.IsZero() {
		return ""
	}
	y := published.Year()
	if strings.ToLower(m[1]) != "this" {
		y--
	}
	return strconv.Itoa(y)
}

// nearer reports whether byte offset a is nearer value v than offset b.
func nearer(s string, v Value, a, b int) bool {
	d := func(x int) int {
		if x < 0 {
			return 1 << 30
		}
		if x > v.Start {
			return x - v.Start
		}
		return v.Start - x
	}
	return d(a) < d(b)
}

var relativeYearRE = regexp.MustCompile(`(?i)\b(last|this|previous|past) year\b`)

// anaphoraRE starts a sentence that goes on about what the one before
// it named.
var anaphoraRE = regexp.MustCompile(`^(?:There (?:were|was|are|is)\b|At (?:the|that) time\b)|\b(?:[Tt]his|[Tt]hat|[Tt]he|[Ee]ach) (?:release|version|edition)\b`)

// manyYears is how many different years make a passage a history, in
// which a claim of no period and no qualifier is adrift (Claim.Adrift).
const manyYears = 4

func distinctYears(text string) int {
	seen := map[string]bool{}
	for _, y := range yearRE.FindAllString(text, -1) {
		seen[y] = true
	}
	return len(seen)
}

// lastYear is the last year a sentence writes, "" when none.
func lastYear(s string) string {
	ys := yearRE.FindAllString(s, -1)
	if len(ys) == 0 {
		return ""
	}
	return ys[len(ys)-1]
}

// claimName is how a fact names a claim's attribute: its words, the
// modality unless reported, the period.
func claimName(c Claim) string {
	name := c.Attribute
	if c.Modality != Reported && c.Modality != "" {
		name = string(c.Modality) + " " + name
	}
	if c.Period != "" {
		name += " (" + c.Period + ")"
	}
	return name
}

// periodOf is the fact's period for an aspect's sub-question or a
// question that names a year; a question about no year in particular
// ("What is the population of X?") compares its facts whatever year they
// state.
func (r *Researcher) periodOf(sq *rs.SubQuestion, q question, s string, v Value) string {
	if sq.Aspect == directAspect && !q.Dated {
		return ""
	}
	return period(s, v)
}

// period is " (YEAR)" for an amount or count whose sentence names the
// year it is for (the year nearest the value), so that 2024's revenue is
// not compared with 2025's.
func period(s string, v Value) string {
	if v.Kind != KindMoney && v.Kind != KindNumber {
		return ""
	}
	best, bestD := "", 1<<30
	for _, m := range yearRE.FindAllStringIndex(s, -1) {
		if m[0] >= v.Start && m[1] <= v.End {
			continue
		}
		d := m[0] - v.Start
		if d < 0 {
			d = -d
		}
		if d < bestD {
			best, bestD = s[m[0]:m[1]], d
		}
	}
	if best == "" {
		return ""
	}
	return " (" + best + ")"
}

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// clipAround cuts s to at most n characters, keeping the value.
func clipAround(s string, v Value, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	at := len([]rune(s[:v.Start]))
	from := max(0, min(at-n/2, len(r)-n))
	return string(r[from : from+n])
}

func orDefault(s, d string) string {
	if strings.TrimSpace(s) == "" {
		return d
	}
	return s
}

// docURL is a passage's URL without its fragment: the document.
func docURL(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

func domainOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	if p.Host != "" {
		return p.Host
	}
	return p.Scheme
}
