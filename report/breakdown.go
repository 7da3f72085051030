package report

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-dev/quarry/investigation"
)

// maxBreakdownRows is how many values of a breakdown the report lists;
// the rest are summed in one row.
const maxBreakdownRows = 15

// breakdowns shows the change split by each dimension the question
// named, right after the answer, whatever the top explanation is.
func (w *mdWriter) breakdowns() {
	for _, b := range w.in.Breakdowns {
		if b.Dimension == "" {
			w.heading(2, "Asked for "+cell(b.Asked))
			w.para("%s.", capitalize(prose(b.Note)))
			continue
		}
		w.heading(2, fmt.Sprintf("Change by %s (asked for %s)", cell(b.Dimension), cell(b.Asked)))
		if b.Note != "" {
			w.para("%s.", capitalize(prose(b.Note)))
		}
		w.printf("| %s | Baseline | Comparison | Change | Share of the change |", cell(b.Dimension))
		w.printf("|---|---:|---:|---:|---:|")
		var rest investigation.BreakdownRow
		for i, r := range b.Rows {
			if i >= maxBreakdownRows {
				rest.Baseline += r.Baseline
				rest.Comparison += r.Comparison
				rest.Change += r.Change
				rest.Share += r.Share
				continue
			}
			w.breakdownRow(cell(r.Value), r)
		}
		if n := len(b.Rows) - maxBreakdownRows; n > 0 {
			w.breakdownRow(fmt.Sprintf("%d more values", n), rest)
		}
		w.printf("")
		if ev := b.Evidence; ev != nil && ev.AuditSequence > 0 {
			w.para("*Shares are of the overall change (%s); from the query of audit entry #%d.*", w.f.Change(b.Change), ev.AuditSequence)
		}
	}
}

func (w *mdWriter) breakdownRow(name string, r investigation.BreakdownRow) {
	w.printf("| %s | %s | %s | %s | %s |", name, w.f.Value(r.Baseline), w.f.Value(r.Comparison), w.f.Change(r.Change), investigation.Share(r.Share))
}

// capitalize upper-cases the first letter of a sentence.
func capitalize(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+utf8.RuneLen(r):]
	}
	return s
}
