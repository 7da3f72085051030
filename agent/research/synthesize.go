package research

import (
	"fmt"
	"slices"
	"strings"
	"time"

	rs "github.com/quarry-dev/quarry/research"
)

// maxFactsPerSection keeps sections readable: the most confident claims
// of each attribute first.
const maxFactsPerSection = 12

// synthesize writes the report from the verified facts: a section per
// aspect that found facts, each claim with its marker, each discrepancy
// with both sides and its resolution, each ambiguous name with its
// entities; and an executive summary of the same. Where the sources are
// thin it says so instead of padding to the word targets.
func synthesize(res *rs.Result, q question, now time.Time, newID func() string) *rs.Report {
	rep, summary, limits := draft(res, q, now, newID)
	finish(rep, res.FactsByID(), summary, limits)
	return rep
}

// draft writes the report's sections and the sentences of its summary,
// and lists the questions no source answered; finish counts what they
// cite and say.
func draft(res *rs.Result, q question, now time.Time, newID func() string) (*rs.Report, []string, []string) {
	rep := &rs.Report{ID: newID(), RequestID: res.Request.ID, GeneratedAt: now, Sections: []rs.Section{}}
	discs := map[string]*rs.Discrepancy{}
	for i := range res.Discrepancies {
		discs[res.Discrepancies[i].ID] = &res.Discrepancies[i]
	}
	facts := res.FactsByID()
	var summary []string
	summary = append(summary, fmt.Sprintf("This briefing answers %q from %d passages of %d sources.", res.Request.Query, len(res.Sources), countDocs(res.Sources)))
	if a := res.Answer; a != "" {
		summary = append(summary, "In short: "+a)
	}
	var limits []string
	// One section per aspect, with the facts of its sub-question and of
	// the follow-ups under it, in plan order.
	var sections []string
	bySection := map[string][]*rs.Fact{}
	sectionOf := map[string]string{}
	for _, sq := range res.Plan.SubQuestions {
		sectionOf[sq.ID] = sq.Aspect
		if _, ok := bySection[sq.Aspect]; !ok {
			sections = append(sections, sq.Aspect)
			bySection[sq.Aspect] = nil
		}
	}
	// A namesake's claims are told in a note of their own, never as the
	// subject's.
	var others []*rs.Fact
	for i := range res.Facts {
		if q.ents.namesake(res.Facts[i].Entity) {
			others = append(others, &res.Facts[i])
			continue
		}
		sec := sectionOf[res.Facts[i].SubQuestionID]
		if _, planned := bySection[res.Facts[i].Section]; planned {
			sec = res.Facts[i].Section // a briefing's claim, in its aspect
		}
		bySection[sec] = append(bySection[sec], &res.Facts[i])
	}
	for _, sq := range res.Plan.SubQuestions {
		if sq.ParentID != "" || len(bySection[sq.Aspect]) > 0 {
			continue
		}
		if q.Target.Broad && sq.Priority == 1 {
			continue // a broad question is answered by its aspects
		}
		limits = append(limits, fmt.Sprintf("No source answered %q.", sq.Text))
	}
	for _, title := range sections {
		fs := bySection[title]
		if len(fs) == 0 {
			continue
		}
		content, cited := sectionText(fs, discs, facts)
		rep.Sections = append(rep.Sections, rs.Section{ID: newID(), ReportID: rep.ID, Title: title, Content: content, FactIDs: cited, Order: len(rep.Sections) + 1})
		if len(rep.Sections) == rs.MaxSections {
			break
		}
	}
	if len(others) > 0 && len(rep.Sections) < rs.MaxSections {
		content, cited := sectionText(others, discs, facts)
		content = fmt.Sprintf("Other entities share the name %s; what the sources say of them is kept apart from %s. ", q.Subject, q.ents.main) + content
		rep.Sections = append(rep.Sections, rs.Section{ID: newID(), ReportID: rep.ID, Title: namesakeTitle(q.Subject), Content: content, FactIDs: cited, Order: len(rep.Sections) + 1})
	}
	for _, d := range res.Discrepancies {
		verdict := "the report gives both"
		if d.Preferred != "" {
			verdict = fmt.Sprintf("%s is preferred by %s (confidence %.2f)", d.Preferred, d.Strategy, d.ResolutionConfidence)
		}
		summary = append(summary, fmt.Sprintf("Sources disagree on %s: %s; %s.", d.Topic, strings.TrimSuffix(sideList(d, facts), "."), verdict))
	}
	// The subject's figures are not set against a namesake's, even as
	// an ambiguity: the summary says the namesake is there and leaves its
	// figures to its note.
	var namesakes []string
	for _, a := range res.Ambiguities {
		if n := namesakeOf(a, q.ents); n != "" {
			if !slices.Contains(namesakes, n) {
				namesakes = append(namesakes, n)
			}
			continue
		}
		summary = append(summary, ambiguityText(a)+" These are different entities, not a conflict.")
	}
	if len(namesakes) > 0 {
		summary = append(summary, fmt.Sprintf("Other entities named %s (%s) are not %s; what the sources say of them is in a note of its own, not set against it.",
			q.Subject, strings.Join(namesakes, "; "), q.ents.main))
	}
	if len(rep.Sections) == 0 {
		rep.Sections = append(rep.Sections, rs.Section{ID: newID(), ReportID: rep.ID, Title: "Findings", Order: 1, FactIDs: []string{},
			Content: "None of the sources states a fact that answers the question; nothing is reported rather than guessed."})
	}
	return rep, summary, limits
}

// finish counts the sources cited and the words written, says where a
// section falls short of the targets, and scores the report.
func finish(rep *rs.Report, facts map[string]*rs.Fact, summary, limits []string) {
	// Sources cited and words written.
	cited, verified := 0, 0
	docs := map[string]bool{}
	words := 0
	for _, s := range rep.Sections {
		for _, id := range s.FactIDs {
			cited++
			if f := facts[id]; f != nil {
				docs[docURL(f.SourceURL)] = true
				if f.Verified {
					verified++
				}
			}
		}
		w := rs.Words(s.Content)
		words += w
		if w < rs.TargetSectionWords || len(sectionDocs(s, facts)) < rs.TargetSectionSources {
			limits = append(limits, fmt.Sprintf("%s rests on %d words from %d sources (targets %d and %d): the sources hold no more on it.",
				s.Title, w, len(sectionDocs(s, facts)), rs.TargetSectionWords, rs.TargetSectionSources))
		}
	}
	if len(limits) > 0 {
		summary = append(summary, "The sources are thin in places, so the report is shorter than a full briefing rather than padded; see its limitations.")
	}
	rep.ExecutiveSummary = strings.Join(summary, " ")
	rep.TotalWordCount = words + rs.Words(rep.ExecutiveSummary)
	rep.TotalSources = len(docs)
	rep.QualityScore = rs.Quality(len(rep.Sections), rep.TotalWordCount, len(docs), cited, verified)
	rep.Limitations = limits
}

// sectionText writes a section: attribute by attribute, the claims of
// each (one per source, agreeing sources noted together), a discrepancy
// with its sides and resolution.
func sectionText(fs []*rs.Fact, discs map[string]*rs.Discrepancy, facts map[string]*rs.Fact) (string, []string) {
	var b strings.Builder
	var cited []string
	citedSet := map[string]bool{}
	cite := func(id string) string {
		if !citedSet[id] {
			citedSet[id] = true
			cited = append(cited, id)
		}
		return rs.Cite(id)
	}
	doneDisc := map[string]bool{}
	written := map[string]bool{}
	n := 0
	for _, f := range fs {
		if n >= maxFactsPerSection {
			break
		}
		if citedSet[f.ID] {
			continue
		}
		// A sentence with several claims is written once.
		if f.DiscrepancyID == "" && written[f.SourceURL+"\x00"+f.Text] {
			continue
		}
		written[f.SourceURL+"\x00"+f.Text] = true
		if d := discs[f.DiscrepancyID]; d != nil {
			if doneDisc[d.ID] {
				continue
			}
			doneDisc[d.ID] = true
			fmt.Fprintf(&b, "Sources disagree on %s. ", d.Topic)
			for _, s := range d.Sides {
				var marks []string
				for _, id := range s.FactIDs {
					marks = append(marks, cite(id))
				}
				first := facts[s.FactIDs[0]]
				fmt.Fprintf(&b, "%s gives %s %s. ", first.SourceTitle, s.Value, strings.Join(marks, " "))
			}
			b.WriteString(d.Resolution + "\n\n")
			n += 2
			continue
		}
		text := strings.TrimRight(f.Text, " .")
		fmt.Fprintf(&b, "%s (%s) %s.", text, f.SourceTitle, cite(f.ID))
		n++
		// Other sources that agree, named together.
		var agree []string
		for _, g := range fs {
			if g != f && !citedSet[g.ID] && g.Attribute == f.Attribute && g.Entity == f.Entity && g.DiscrepancyID == "" && g.Value != "" &&
				docURL(g.SourceURL) != docURL(f.SourceURL) && Same(valueOf(g), valueOf(f)) {
				agree = append(agree, g.SourceTitle+" "+cite(g.ID))
			}
		}
		if len(agree) > 0 {
			fmt.Fprintf(&b, " The same is stated in %s.", strings.Join(agree, ", "))
		}
		b.WriteString("\n\n")
	}
	return strings.TrimSpace(b.String()), cited
}

// namesakeTitle is the title of the note on other entities of a name.
func namesakeTitle(subject string) string {
	return "Other entities named " + orDefault(subject, "alike")
}

func sideList(d rs.Discrepancy, facts map[string]*rs.Fact) string {
	var parts []string
	for _, s := range d.Sides {
		var marks []string
		for _, id := range s.FactIDs {
			marks = append(marks, rs.Cite(id))
		}
		parts = append(parts, fmt.Sprintf("%s %s", s.Value, strings.Join(marks, " ")))
	}
	return strings.Join(parts, " versus ") + "."
}

// namesakeOf is the namesake an ambiguity sets beside the subject, ""
// when its entities are not the subject and a namesake told apart by
// context.
func namesakeOf(a rs.Ambiguity, ents *entities) string {
	if ents == nil {
		return ""
	}
	for _, e := range a.Entities {
		if ents.namesake(e.Entity) {
			return e.Entity
		}
	}
	return ""
}

func ambiguityText(a rs.Ambiguity) string {
	var parts []string
	for _, e := range a.Entities {
		var marks []string
		for _, id := range e.FactIDs {
			marks = append(marks, rs.Cite(id))
		}
		parts = append(parts, fmt.Sprintf("%s (%s %s)", e.Entity, e.Value, strings.Join(marks, " ")))
	}
	return fmt.Sprintf("The name %s is shared by %d entities with different %s: %s.", a.Name, len(a.Entities), a.Attribute, strings.Join(parts, "; "))
}

func sectionDocs(s rs.Section, facts map[string]*rs.Fact) map[string]bool {
	docs := map[string]bool{}
	for _, id := range s.FactIDs {
		if f := facts[id]; f != nil {
			docs[docURL(f.SourceURL)] = true
		}
	}
	return docs
}

func countDocs(sources []rs.SearchResult) int {
	docs := map[string]bool{}
	for _, s := range sources {
		docs[docURL(s.URL)] = true
	}
	return len(docs)
}
