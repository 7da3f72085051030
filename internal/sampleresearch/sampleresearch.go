// Package sampleresearch holds the sample corpus of research: the filings
// and press releases of Kestrel Dynamics Inc., a fictional drone maker,
// written for Quarry and dedicated to the public domain, with
// contradictions planted for a research to find and resolve, and a
// Coventry firm of the same name that it must tell apart rather than call
// a conflict. "quarry serve" puts them in a data room of a fresh data dir
// (internal/app.SeedSampleRoom); "quarry research --corpus
// internal/sampleresearch/kestrel" reads the same files, and the tests of
// research over a folder, a room, the API, the pages and MCP use them.
//
// Contradictions and Check say what a research of Question over the
// corpus should find, so that every test asks the same of it.
package sampleresearch

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"github.com/quarry-dev/quarry/research"
)

//go:embed kestrel/*.md
var files embed.FS

// FS holds Documents at its root.
var FS = func() fs.FS {
	sub, err := fs.Sub(files, "kestrel")
	if err != nil {
		panic(err)
	}
	return sub
}()

// Documents are the corpus's files, in name order.
var Documents = func() []string {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		panic(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}()

// Question asks about everything the corpus plants a contradiction in.
const Question = "What changed in Kestrel Dynamics' finances, operations and legal exposure in 2024 and 2025?"

// Contradiction is one the corpus plants: a word of the discrepancy's
// topic, the value a research should prefer, the strategy that should
// decide, and the value it beats.
type Contradiction struct {
	Topic, Preferred, Strategy, Loser string
}

// Contradictions are the planted ones.
var Contradictions = []Contradiction{
	{"revenue", "$46.9 million", research.StrategyRecency, "$48.2 million"},    // the 10-K/A restates the 10-K and press release
	{"net income", "$2.2 million", research.StrategyRecency, "$3.1 million"},   // the same restatement
	{"employees", "1,240", research.StrategyConsensus, "1,420"},                // two press releases disagree; filings side with one
	{"settlement", "$3.2 million", research.StrategyCredibility, "$5 million"}, // the 8-K against a blog
}

// Check lists how a research of Question over the corpus falls short:
// each of Contradictions must be found, and no other, resolved as planted
// with every side cited by facts of at least two sources that quote
// their values; and the Coventry Kestrel Dynamics Ltd must be an
// ambiguity beside the Inc, never a side of a discrepancy. None when it
// does not.
func Check(v research.View) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	facts := map[string]research.FactView{}
	for _, f := range v.Facts {
		facts[f.ID] = f
	}
	if len(v.Discrepancies) != len(Contradictions) {
		var topics []string
		for _, d := range v.Discrepancies {
			topics = append(topics, d.Topic+": "+d.Resolution)
		}
		fail("%d discrepancies; want the %d planted; found %q", len(v.Discrepancies), len(Contradictions), topics)
	}
	for _, c := range Contradictions {
		var d *research.DiscrepancyView
		for i := range v.Discrepancies {
			if strings.Contains(v.Discrepancies[i].Topic, c.Topic) {
				d = &v.Discrepancies[i]
			}
		}
		if d == nil {
			fail("no discrepancy about %s", c.Topic)
			continue
		}
		if !strings.HasPrefix(d.Preferred, c.Preferred) || d.Strategy != c.Strategy || d.ResolutionConfidence <= 0.5 {
			fail("%s resolved to %q by %s (%.2f); want %s by %s", c.Topic, d.Preferred, d.Strategy, d.ResolutionConfidence, c.Preferred, c.Strategy)
		}
		// Every side is cited, each by its own facts and sources.
		sources := map[string]bool{}
		sawLoser := false
		for _, s := range d.Sides {
			sawLoser = sawLoser || strings.HasPrefix(s.Value, c.Loser)
			for _, id := range s.FactIDs {
				f, ok := facts[id]
				if !ok || f.DiscrepancyID == nil || *f.DiscrepancyID != d.ID {
					fail("%s: side %s cites fact %s, which does not point back", c.Topic, s.Value, id)
				}
				if f.Value == "" || !strings.Contains(f.Passage, f.Value) {
					fail("%s: fact %s's passage %q lacks its value %q", c.Topic, id, f.Passage, f.Value)
				}
				sources[f.SourceURL] = true
			}
		}
		if !sawLoser || len(sources) < 2 {
			fail("%s: sides %v from %d sources; want %s among them", c.Topic, d.Sides, len(sources), c.Loser)
		}
	}
	// The other Kestrel Dynamics (a Coventry firm) is an ambiguity.
	for _, d := range v.Discrepancies {
		for _, id := range d.FactIDs {
			if f := facts[id]; strings.Contains(f.Entity, "Ltd") || strings.Contains(strings.ToLower(f.SourceURL+f.SourceTitle), "coventry") {
				fail("discrepancy %s cites the Coventry firm's fact %q: an ambiguity called a conflict", d.Topic, f.Text)
			}
		}
	}
	ambiguous := false
	for _, a := range v.Ambiguities {
		var names []string
		for _, e := range a.Entities {
			names = append(names, e.Entity)
		}
		joined := strings.Join(names, "|")
		ambiguous = ambiguous || (strings.Contains(joined, "Ltd") && strings.Contains(joined, "Inc"))
	}
	if !ambiguous {
		fail("ambiguities %+v; want Kestrel Dynamics Inc and Ltd told apart", v.Ambiguities)
	}
	return problems
}
