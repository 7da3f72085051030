package research

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/evidence"
	"github.com/quarry-dev/quarry/llm"
	rs "github.com/quarry-dev/quarry/research"
)

// maxPromptFactChars is how much of a fact's text the writer is shown.
const maxPromptFactChars = 300

const writeSystem = `You write a research briefing from the facts given, and from nothing else.
Rules:
- Write an executive summary of at most 200 words, and for each section listed, prose that states its facts in one or more paragraphs.
- Every sentence that states a fact ends with the markers of the facts it rests on, exactly as given, like [cite:ID], before its full stop.
- Copy every number exactly as its fact writes it; never compute, round or convert a number, and never add a number, date or name the facts do not give.
- Where sources disagree, give every side with its markers, and which value is preferred and why, as the disagreement says.
- The summary gives every disagreement listed, each side with at least one of its markers.
- A name shared by different entities is not a conflict: say which entity each fact is about.
- Use only the section titles listed, each once.`

// modelProse is the model's reply to a writing request.
type modelProse struct {
	ExecutiveSummary string `json:"executive_summary"`
	Sections         []struct {
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"sections"`
}

func proseSchema(titles []string) *llm.Schema {
	enum, _ := json.Marshal(titles)
	return &llm.Schema{Name: "research_report", Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "executive_summary": {"type": "string"},
    "sections": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "title": {"type": "string", "enum": ` + string(enum) + `},
        "content": {"type": "string", "description": "prose whose every claim ends with its [cite:ID] markers"}
      },
      "required": ["title", "content"],
      "additionalProperties": false
    }}
  },
  "required": ["executive_summary", "sections"],
  "additionalProperties": false
}`)}
}

// synthesize writes the report offline and, with a model, has the model
// write its summary and the prose of its sections: each part the model
// writes that passes the checks (checkProse) replaces the offline one,
// and the report whole must pass research.Report.Validate, or the
// offline report is kept. A part that fails is named in the report's
// limitations.
func (a *assist) synthesize(ctx context.Context, res *rs.Result, q question) *rs.Report {
	if a.model == nil {
		return synthesize(res, q, a.r.now().UTC(), a.r.id)
	}
	rep, summary, limits := draft(res, q, a.r.now().UTC(), a.r.id)
	facts := res.FactsByID()
	if a.off() {
		a.r.report(rs.StatusSynthesizing, "model %s: the report was written offline: the model is not asked again after it failed", a.model.Name())
	}
	if a.on() && !slices.ContainsFunc(rep.Sections, func(s rs.Section) bool { return len(s.FactIDs) > 0 }) {
		a.r.report(rs.StatusSynthesizing, "model %s: the report was written offline: no section states a fact for the model to write about", a.model.Name())
	} else if a.on() {
		if cand, candSummary, err := a.write(ctx, res, rep, summary, facts); err != nil {
			a.fellBack(rs.StatusSynthesizing, "prose", "the report was written offline", err)
		} else {
			finish(cand, facts, candSummary, slices.Clone(limits))
			if err := cand.Validate(facts); err != nil {
				a.fellBack(rs.StatusSynthesizing, "prose", "the report was written offline", rejectf("%s", quarry.ErrorMessage(err)))
			} else {
				cand.Limitations = append(cand.Limitations, a.notes...)
				return cand
			}
		}
	}
	finish(rep, facts, summary, limits)
	rep.Limitations = append(rep.Limitations, a.notes...)
	return rep
}

// write asks the model for the summary and the sections' prose and
// returns a copy of rep with the parts that pass the checks, and the
// summary's sentences. Errors are the call's, or a *agentrt.Rejection
// when no part passes.
func (a *assist) write(ctx context.Context, res *rs.Result, rep *rs.Report, summary []string, facts map[string]*rs.Fact) (*rs.Report, []string, error) {
	var titles []string
	for _, s := range rep.Sections {
		if len(s.FactIDs) > 0 {
			titles = append(titles, s.Title)
		}
	}
	var out modelProse
	if err := a.askJSON(ctx, "research_report", writeSystem, writePrompt(res, rep, summary, facts), proseSchema(titles), 4096, &out); err != nil {
		return nil, nil, err
	}
	cand := *rep
	cand.Sections = slices.Clone(rep.Sections)
	general := generalEvidence(res, rep)
	var done, problems []string
	reject := func(part string, err error) {
		problems = append(problems, fmt.Sprintf("%s: %s", part, a.why(err)))
		a.note("The model's prose for %s was rejected (%s); the offline text is used.", part, strings.TrimSuffix(a.why(err), "."))
	}

	candSummary := summary
	ids, err := checkProse(out.ExecutiveSummary, res, facts, general)
	for _, d := range res.Discrepancies {
		if err == nil && !slices.ContainsFunc(d.FactIDs, func(id string) bool { return slices.Contains(ids, id) }) {
			err = rejectf("it leaves out the disagreement on %s", d.Topic)
		}
	}
	if err != nil {
		reject("the executive summary", err)
	} else {
		candSummary = []string{strings.TrimSpace(out.ExecutiveSummary)}
		done = append(done, "the executive summary")
	}
	written := map[string]bool{}
	for _, ms := range out.Sections {
		i := slices.IndexFunc(cand.Sections, func(s rs.Section) bool { return s.Title == ms.Title })
		part := "section " + ms.Title
		switch {
		case i < 0 || len(cand.Sections[i].FactIDs) == 0:
			reject(part, rejectf("the report has no section of that title"))
			continue
		case written[ms.Title]:
			reject(part, rejectf("the model wrote it twice"))
			continue
		}
		written[ms.Title] = true
		ids, err := checkProse(ms.Content, res, facts, general)
		if err == nil {
			err = keepsSides(rep.Sections[i], ids, res)
		}
		if err == nil && len(ids) == 0 {
			err = rejectf("it cites no fact")
		}
		if err != nil {
			reject(part, err)
			continue
		}
		cand.Sections[i].Content, cand.Sections[i].FactIDs = strings.TrimSpace(ms.Content), ids
		done = append(done, part)
	}
	for _, t := range titles {
		if !written[t] {
			reject("section "+t, rejectf("the model did not write it"))
		}
	}
	if len(done) == 0 {
		a.notes = a.notes[:len(a.notes)-len(problems)]
		return nil, nil, rejectf("%s", strings.Join(problems, "; "))
	}
	msg := fmt.Sprintf("model %s: the model wrote %s", a.model.Name(), strings.Join(done, ", "))
	if len(problems) > 0 {
		msg += "; written offline: " + strings.Join(problems, "; ")
	}
	a.r.report(rs.StatusSynthesizing, "%s", msg)
	return &cand, candSummary, nil
}

// writePrompt shows the model the facts of each section, the
// disagreements and shared names, and the offline summary.
func writePrompt(res *rs.Result, rep *rs.Report, summary []string, facts map[string]*rs.Fact) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n", res.Request.Query)
	if res.Answer != "" {
		fmt.Fprintf(&b, "Short answer found: %s\n", res.Answer)
	}
	fmt.Fprintf(&b, "Read: %d passages of %d sources; %d facts.\n\nSections and the facts each may cite:\n", len(res.Sources), countDocs(res.Sources), len(res.Facts))
	discs := map[string]*rs.Discrepancy{}
	for i := range res.Discrepancies {
		discs[res.Discrepancies[i].ID] = &res.Discrepancies[i]
	}
	for _, s := range rep.Sections {
		if len(s.FactIDs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n", s.Title)
		for _, id := range s.FactIDs {
			f := facts[id]
			status := "one source"
			if f.Verified {
				status = "verified"
			}
			if d := discs[f.DiscrepancyID]; d != nil {
				status = "disputed: " + d.Topic
			}
			fmt.Fprintf(&b, "%s %s\n    source: %s; %s\n", rs.Cite(id), clipRunes(f.Text, maxPromptFactChars), f.SourceTitle, status)
		}
	}
	if len(res.Discrepancies) > 0 {
		b.WriteString("\nDisagreements between sources:\n")
		for _, d := range res.Discrepancies {
			fmt.Fprintf(&b, "- %s: %s\n    %s\n", d.Topic, sideList(d, facts), d.Resolution)
		}
	}
	if len(res.Ambiguities) > 0 {
		b.WriteString("\nNames shared by different entities:\n")
		for _, x := range res.Ambiguities {
			fmt.Fprintf(&b, "- %s\n", ambiguityText(x))
		}
	}
	fmt.Fprintf(&b, "\nThe summary written without a model, to improve on:\n%s\n", strings.Join(summary, " "))
	return b.String()
}

// generalEvidence is what any sentence may state without a citation: the
// question's numbers and the counts of what was read and found.
func generalEvidence(res *rs.Result, rep *rs.Report) string {
	return fmt.Sprintf("%s %d %d %d %d %d %d", res.Request.Query, len(res.Sources), countDocs(res.Sources), len(res.Facts),
		len(res.Discrepancies), len(res.Ambiguities), len(rep.Sections))
}

// checkProse checks a part the model wrote: it is not empty, every
// citation marker is [cite:ID] naming a fact of the research, every
// number of each sentence is in the facts the sentence cites (agent/
// evidence: their text, value, passage and source title, and for a
// disputed fact its disagreement) or in general, and a disputed fact is
// never cited without the other sides of its disagreement. It returns
// the facts cited, in order, once each.
func checkProse(content string, res *rs.Result, facts map[string]*rs.Fact, general string) ([]string, error) {
	content = strings.TrimSpace(content)
	if content == "" {
		return nil, rejectf("it is empty")
	}
	if n, m := strings.Count(content, "[cite"), len(rs.Markers(content)); n != m {
		return nil, rejectf("it writes a citation that is not [cite:ID]")
	}
	discs := map[string]*rs.Discrepancy{}
	for i := range res.Discrepancies {
		discs[res.Discrepancies[i].ID] = &res.Discrepancies[i]
	}
	var ids []string
	for _, s := range proseSentences(content) {
		var ev evidence.Set
		ev.AddText(general)
		for _, id := range rs.Markers(s) {
			f := facts[id]
			if f == nil {
				return nil, rejectf("it cites [cite:%s], which is no fact of this research", id)
			}
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
			ev.AddText(f.Text + "\n" + f.Value + "\n" + f.Passage + "\n" + f.SourceTitle)
			if d := discs[f.DiscrepancyID]; d != nil {
				ev.AddText(fmt.Sprintf("%s\n%s\n%.2f", d.Topic, d.Resolution, d.ResolutionConfidence))
				for _, side := range d.Sides {
					ev.AddText(side.Value)
				}
			}
		}
		if chk := ev.Check(rs.StripMarkers(s)); !chk.OK() {
			return nil, rejectf("it states %s, which the facts it cites do not", strings.Join(chk.Unverified, ", "))
		}
	}
	for _, d := range res.Discrepancies {
		if err := bothSides(d, ids); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// bothSides rejects citing some but not all sides of a disagreement:
// a disputed value is never stated as if no source disputed it.
func bothSides(d rs.Discrepancy, cited []string) error {
	some, all := false, true
	for _, s := range d.Sides {
		has := slices.ContainsFunc(s.FactIDs, func(id string) bool { return slices.Contains(cited, id) })
		some = some || has
		all = all && has
	}
	if some && !all {
		return rejectf("it cites one side of the disagreement on %s and not the other", d.Topic)
	}
	return nil
}

// keepsSides rejects a section that leaves out a disagreement the
// offline section gives.
func keepsSides(offline rs.Section, cited []string, res *rs.Result) error {
	for _, d := range res.Discrepancies {
		if slices.ContainsFunc(d.FactIDs, func(id string) bool { return slices.Contains(offline.FactIDs, id) }) {
			if !slices.ContainsFunc(d.FactIDs, func(id string) bool { return slices.Contains(cited, id) }) {
				return rejectf("it leaves out the disagreement on %s", d.Topic)
			}
		}
	}
	return nil
}

// proseSentences cuts model prose into sentences, each with the markers
// that follow its full stop; a decimal point or an abbreviation ("Inc.")
// ends none.
func proseSentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c != '.' && c != '!' && c != '?' {
				continue
			}
			if i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9' {
				continue
			}
			if c == '.' && abbreviation(line[start:i]) {
				continue
			}
			j := i + 1
			for {
				k := j
				for k < len(line) && line[k] == ' ' {
					k++
				}
				end := strings.IndexByte(line[k:], ']')
				if !strings.HasPrefix(line[k:], "[cite:") || end < 0 {
					break
				}
				j = k + end + 1
			}
			out = appendSentence(out, line[start:j])
			start, i = j, j-1
		}
		out = appendSentence(out, line[start:])
	}
	return out
}
