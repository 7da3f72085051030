package research

import (
	"strings"
	"testing"
)

// corrin's sources correct figures in words no list of correction words
// holds: the figure said to be wrong is nobody's claim, and the figure
// put in its place wins.
var corrin = memoryCorpus{
	{URL: "doc://herald", Title: "Herald", Credibility: 0.6, Published: day("2024-09-15"),
		Text: "The Corrin tramway opened on Saturday. The line has 21 stops. Corrin paid a design fee of £15 million."},
	{URL: "doc://fix", Title: "Herald corrections", Credibility: 0.6, Published: day("2024-09-18"),
		Text: "Correction: our report of 15 September said the Corrin line has 21 stops. It has 19 stops."},
	{URL: "doc://club", Title: "Corrin statement", Credibility: 0.6, Published: day("2024-09-20"),
		Text: "Reports of a £15 million design fee are wrong: the fee is £12.5 million. The Corrin depot has 40 tracks."},
	{URL: "doc://blog", Title: "Fan blog", Credibility: 0.6, Published: day("2024-09-16"),
		Text: "The Corrin line has 21 stops. Its design fee was £15 million."},
}

// TestCorrectionsInAnyWords: a figure a source calls wrong, in a
// correction that says what a report said, in a clause that calls it
// wrong, is left out, and the figure the source gives instead is
// preferred over two sources that repeat the wrong one.
func TestCorrectionsInAnyWords(t *testing.T) {
	res := run(t, corrin, "What do the sources say about Corrin: the stops and the design fee?")
	for _, f := range res.Facts {
		if f.SourceURL != "doc://herald" && f.SourceURL != "doc://blog" && (strings.Contains(f.Value, "21") || strings.Contains(f.Value, "15 million")) {
			t.Errorf("fact %q of %s; want the figure it says is wrong left out", f.Value, f.SourceURL)
		}
	}
	want := map[string]string{"stops": "19 stops", "fee": "£12.5 million"}
	for _, d := range res.Discrepancies {
		for topic, preferred := range want {
			if strings.Contains(d.Topic, topic) || strings.Contains(d.Preferred, strings.Fields(preferred)[0]) {
				if d.Preferred != preferred {
					t.Errorf("%s: preferred %q (%s); want %s", d.Topic, d.Preferred, d.Strategy, preferred)
				}
				delete(want, topic)
			}
		}
	}
	for topic := range want {
		t.Errorf("no discrepancy about %s in %+v", topic, res.Discrepancies)
	}
}

// A later source that clarifies or calls a figure an erratum corrects it.
func TestCorrectionWords(t *testing.T) {
	for _, s := range []string{"Halden later clarified that the trial enrolled 388 patients.", "Erratum: the trial enrolled 388 patients."} {
		res := run(t, memoryCorpus{
			{URL: "doc://a", Title: "News", Published: day("2025-01-10"), Text: "The Halden trial enrolled 412 patients."},
			{URL: "doc://b", Title: "Blog", Published: day("2025-01-12"), Text: "The Halden trial enrolled 412 patients in all."},
			{URL: "doc://c", Title: "Update", Published: day("2025-02-01"), Text: s},
		}, "What do the sources say about the Halden trial and its patients?")
		if len(res.Discrepancies) != 1 || res.Discrepancies[0].Preferred != "388 patients" {
			t.Errorf("%q: discrepancies %+v; want 388 patients preferred", s, res.Discrepancies)
		}
	}
}
