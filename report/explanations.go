package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/quarry-dev/quarry/investigation"
)

// rankedList lists the explanations best first, one line each with its
// headline number, kind and significance, right after the answer; their
// evidence follows the list further down.
func (w *mdWriter) rankedList() {
	w.heading(2, "Explanations (Ranked by Likelihood)")
	es := ranked(w.in.Explanations)
	if w.in.Status == investigation.OutcomeNoFindings || len(es) == 0 {
		w.para("No explanation held up under testing; what was tried is under “Why Nothing Was Found” below.")
		return
	}
	for i, e := range es {
		rank, likelihood := rankOf(i, e)
		w.printf("%d. **%s** (%s): %s; %s, %s.", rank, prose(e.Title), likelihood, w.headline(e), kindWord(e.Kind), shortSignificance(e))
	}
	w.para("*The evidence of each, with the queries behind its numbers, is under “Evidence for the Explanations” below.*")
}

// evidenceSection writes each explanation's evidence, or, for a run
// without findings, what was tried and what to do about it.
func (w *mdWriter) evidenceSection() {
	if w.in.Status == investigation.OutcomeNoFindings {
		w.heading(2, "Why Nothing Was Found")
		w.noFindings()
		return
	}
	if len(w.in.Explanations) == 0 {
		return
	}
	w.heading(2, "Evidence for the Explanations")
	for i, e := range ranked(w.in.Explanations) {
		w.explanation(i, e)
	}
}

// rankOf is an explanation's rank and likelihood, from its place in the
// list when it carries none.
func rankOf(i int, e investigation.Explanation) (int, string) {
	rank := e.Rank
	if rank == 0 {
		rank = i + 1
	}
	likelihood := e.Likelihood
	if likelihood == "" {
		likelihood = investigation.LikelihoodForRank(rank)
	}
	return rank, likelihood
}

func (w *mdWriter) explanation(i int, e investigation.Explanation) {
	rank, likelihood := rankOf(i, e)
	w.heading(3, fmt.Sprintf("%d. %s (%s)", rank, prose(e.Title), likelihood))
	if e.Kind != "" {
		w.printf("- **Kind:** %s", kindText(e.Kind))
	}
	if e.Kind == investigation.KindConcentration {
		w.printf("- **Rows:** the rows named in the evidence")
	} else {
		w.printf("- **Segment:** %s", segmentText(e.Segment))
	}
	w.printf("- **Change:** %s%s%s", w.headline(e), against(e), w.setAsideText(e))
	w.printf("- **Significance:** %s", explanationSignificance(e))

	if len(e.Evidence) > 0 {
		w.para("**Evidence:**")
		for _, ev := range e.Evidence {
			w.evidence(ev)
		}
	}
	if r := prose(e.Reasoning); r != "" {
		w.para("**Likelihood Reasoning:** %s", r)
	}
	if s := prose(e.CausalStory); s != "" {
		w.para("**Causal Story:** %s", s)
	}
	if len(e.SourceHypotheses) > 0 {
		w.para("*Source hypotheses: %s.*", strings.Join(e.SourceHypotheses, ", "))
	}
}

// against says that an explanation offsets the change (its share is
// negative).
func against(e investigation.Explanation) string {
	if e.ShareOfChange < 0 {
		return "; it works against the change"
	}
	return ""
}

// evidence writes one evidence bullet with its numbers and, folded away,
// the SQL that produced them.
func (w *mdWriter) evidence(ev investigation.Evidence) {
	line := "- " + prose(ev.Description)
	if vals := w.evidenceValues(ev.Values); vals != "" {
		line += " (" + vals + ")"
	}
	var refs []string
	if ev.AuditSequence > 0 {
		refs = append(refs, fmt.Sprintf("audit entry #%d", ev.AuditSequence))
	}
	if ev.FindingID != "" {
		refs = append(refs, "finding "+code(ev.FindingID))
	}
	if len(refs) > 0 {
		line += " — " + strings.Join(refs, ", ")
	}
	w.printf("%s", line)
	if strings.TrimSpace(ev.SQL) == "" {
		return
	}
	w.para("  <details><summary>SQL</summary>")
	w.codeBlock("  ", "sql", ev.SQL)
	w.para("  </details>")
}

// evidenceValues prints the measured numbers in key order. Keys name the
// unit: "baseline" and "comparison" are metric values, "change" and
// "*_effect" metric changes, "share_of_change" a fraction of the change,
// "p", "*p_value" p-values; anything else is a plain number.
func (w *mdWriter) evidenceValues(vals map[string]float64) string {
	var parts []string
	for _, k := range sortedKeys(vals) {
		v := vals[k]
		// "all_rows_change" is a change like "change", over all rows.
		lk := strings.TrimPrefix(strings.ToLower(k), "all_rows_")
		switch {
		case lk == "p" || strings.Contains(lk, "p_value") || strings.Contains(lk, "pvalue"):
			parts = append(parts, code(k)+strings.TrimPrefix(pValue(v), "p"))
		case lk == "baseline" || lk == "comparison":
			parts = append(parts, code(k)+" = "+w.f.Value(v))
		case lk == "change" || strings.HasSuffix(lk, "_effect"):
			parts = append(parts, code(k)+" = "+w.f.Change(v))
		case lk == "share_of_change":
			parts = append(parts, code(k)+" = "+investigation.Share(v))
		default:
			parts = append(parts, code(k)+" = "+plainNumber(v))
		}
	}
	return strings.Join(parts, ", ")
}

// setAsideText labels a change measured after earlier candidates took
// some of the segment's rows, with the segment's number over all its rows:
// the number the memory loop's findings show for it. The investigation
// records both in the evidence ("rows_set_aside", "all_rows_change").
func (w *mdWriter) setAsideText(e investigation.Explanation) string {
	for _, ev := range e.Evidence {
		n, ok := ev.Values["rows_set_aside"]
		all, ok2 := ev.Values["all_rows_change"]
		if !ok || !ok2 || n <= 0 {
			continue
		}
		moved := w.f.Change(all)
		if total := w.in.Overall.ComparisonValue - w.in.Overall.BaselineValue; total != 0 {
			moved = w.f.Contribution(all, all/total)
		}
		return fmt.Sprintf(", measured after the %s rows it shares with segments earlier in the partition were set aside; over all its rows it moved %s", plainNumber(n), moved)
	}
	return ""
}

// explanationSignificance states the explanation's significance once, from
// its own test: significant only when the test says so. Data problems and
// calendar effects rest on counted rows and days, not on an estimate, and
// say so instead of borrowing the word.
func explanationSignificance(e investigation.Explanation) string {
	switch {
	case e.PValue != nil && !math.IsNaN(*e.PValue):
		p := "adjusted " + pValue(*e.PValue)
		if passed(e) {
			return "significant (" + p + ")"
		}
		if e.Kind == investigation.KindDataQuality {
			return "not significant (" + p + "); reported as a data problem, which rests on the missing rows, not on this test"
		}
		return "not significant (" + p + ")"
	case e.Significant && e.Kind == investigation.KindDataQuality:
		return "no test needed: the problem is found by counting rows, not by a test; its effect on the metric is an estimate"
	case e.Significant && e.Kind == investigation.KindCalendar:
		return "no test needed: the weekday composition of the periods is counted, and the weekly profile prices it"
	case e.Significant && e.Kind == investigation.KindConcentration:
		return "no test needed: the rows are read from the data, and their sum is the share of the change they carry"
	case e.Significant:
		return "significant"
	}
	return "not tested; treat it as a lead rather than a result"
}

// Alpha is the significance level the report holds adjusted p-values to.
const Alpha = 0.05

// passed reports whether an explanation is significant: marked so and,
// when it carries an adjusted p-value, that value is at most Alpha. An
// explanation marked significant with q = 0.217 is not called significant.
func passed(e investigation.Explanation) bool {
	return e.Significant && (e.PValue == nil || math.IsNaN(*e.PValue) || *e.PValue <= Alpha)
}

// shortSignificance is the first clause of explanationSignificance:
// "significant (adjusted p < 0.001)", "no test needed".
func shortSignificance(e investigation.Explanation) string {
	s := explanationSignificance(e)
	if i := strings.IndexAny(s, ";:"); i >= 0 {
		s = s[:i]
	}
	return s
}

// kindWord names an explanation kind in a word or two: "volume", "data
// quality".
func kindWord(kind string) string {
	word, _, _ := strings.Cut(kindText(kind), " — ")
	return word
}

// kindText explains an explanation kind in a few words.
func kindText(kind string) string {
	switch kind {
	case investigation.KindVolume:
		return "volume — more or fewer rows in the segment"
	case investigation.KindRate:
		return "rate — the metric moved within the segment"
	case investigation.KindMix:
		return "mix — the segment's share of the population moved"
	case investigation.KindDataQuality:
		return "data quality — a problem in the data, not in the business"
	case investigation.KindCalendar:
		return "calendar — the periods differ in days, weekdays or holidays"
	case investigation.KindUniform:
		return "uniform — the whole population moved together"
	case investigation.KindConcentration:
		return "concentration — a few rows carry the change"
	case "segment":
		return "segment — a slice of the data that moved"
	}
	return prose(kind)
}

// segmentText prints a segment as inline code, or says it covers all rows.
func segmentText(s investigation.Segment) string {
	if len(s) == 0 {
		return "all rows"
	}
	return code(s.String())
}
