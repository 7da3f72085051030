package research

import (
	"regexp"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// Report is the narrative report: an executive summary and sections whose
// every claim carries a [cite:fact-id] marker.
type Report struct {
	ID               string    `json:"id"`
	RequestID        string    `json:"request_id"`
	ExecutiveSummary string    `json:"executive_summary"`
	Sections         []Section `json:"sections"`
	TotalWordCount   int       `json:"total_word_count"`
	TotalSources     int       `json:"total_sources"`
	GeneratedAt      time.Time `json:"generated_at"`
	// QualityScore is 0-1, from word count, sources and verification rate
	// (see Quality).
	QualityScore float64 `json:"quality_score"`
	// Limitations say where the sources were too thin for the targets
	// (300 words and 3 sources a section), instead of padding.
	Limitations []string `json:"limitations,omitempty"`
}

// Section is one thematic section of a report.
type Section struct {
	ID       string   `json:"id"`
	ReportID string   `json:"report_id"`
	Title    string   `json:"title"`
	Content  string   `json:"content"`
	FactIDs  []string `json:"fact_ids"`
	Order    int      `json:"order"`
}

// Targets of a section (the data model's; offline reports state where
// they fall short rather than pad).
const (
	TargetSectionWords   = 300
	TargetSectionSources = 3
)

// CitationLink maps a fact to its source.
type CitationLink struct {
	FactID          string    `json:"fact_id"`
	SourceURL       string    `json:"source_url"`
	SourceTitle     string    `json:"source_title"`
	AccessTimestamp time.Time `json:"access_timestamp"`
}

// markerRE matches a citation marker; the id is its first group.
var markerRE = regexp.MustCompile(`\[cite:([^\]\s]+)\]`)

// stripRE matches a marker with the space before it.
var stripRE = regexp.MustCompile(`\s*\[cite:[^\]\s]+\]`)

// Cite returns the marker that cites fact id.
func Cite(id string) string { return "[cite:" + id + "]" }

// Markers returns the fact ids cited in content, in order, with repeats.
func Markers(content string) []string {
	var ids []string
	for _, m := range markerRE.FindAllStringSubmatch(content, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// StripMarkers returns content without its citation markers.
func StripMarkers(content string) string {
	return strings.Join(strings.Fields(stripRE.ReplaceAllString(content, "")), " ")
}

// Words counts the words of content, markers excluded.
func Words(content string) int { return len(strings.Fields(StripMarkers(content))) }

// Validate checks the report: 1-10 sections ordered 1..n, every marker in
// the summary and sections names a fact in facts, every section cites the
// facts it lists, and the word count adds up. Errors: INVALID.
func (r *Report) Validate(facts map[string]*Fact) error {
	if len(r.Sections) < 1 || len(r.Sections) > MaxSections {
		return quarry.Errorf(quarry.ECodeInvalid, "a report has 1 to %d sections, not %d", MaxSections, len(r.Sections))
	}
	if err := checkMarkers("the executive summary", r.ExecutiveSummary, facts); err != nil {
		return err
	}
	words := Words(r.ExecutiveSummary)
	for i, s := range r.Sections {
		if s.Order != i+1 {
			return quarry.Errorf(quarry.ECodeInvalid, "section %q is in place %d with order %d", s.Title, i+1, s.Order)
		}
		if err := checkMarkers("section "+s.Title, s.Content, facts); err != nil {
			return err
		}
		cited := map[string]bool{}
		for _, id := range Markers(s.Content) {
			cited[id] = true
		}
		for _, id := range s.FactIDs {
			if !cited[id] {
				return quarry.Errorf(quarry.ECodeInvalid, "section %q lists fact %s but never cites it", s.Title, id)
			}
		}
		words += Words(s.Content)
	}
	if words != r.TotalWordCount {
		return quarry.Errorf(quarry.ECodeInvalid, "the report counts %d words; its text has %d", r.TotalWordCount, words)
	}
	if r.QualityScore < 0 || r.QualityScore > 1 {
		return quarry.Errorf(quarry.ECodeInvalid, "quality score %g is outside 0 to 1", r.QualityScore)
	}
	return nil
}

func checkMarkers(where, content string, facts map[string]*Fact) error {
	for _, id := range Markers(content) {
		if facts[id] == nil {
			return quarry.Errorf(quarry.ECodeInvalid, "%s cites [cite:%s], which is no fact of this research", where, id)
		}
	}
	return nil
}

// Quality scores a report 0-1 as the mean of three parts: words against
// the target of TargetSectionWords per section, sources against
// TargetSectionSources per section, and the share of cited facts that are
// verified.
func Quality(sections, words, sources, cited, verified int) float64 {
	if sections == 0 {
		return 0
	}
	part := func(got, want int) float64 {
		if want <= 0 {
			return 0
		}
		return min(1, float64(got)/float64(want))
	}
	return (part(words, sections*TargetSectionWords) + part(sources, sections*TargetSectionSources) + part(verified, cited)) / 3
}

// Citations indexes citation links by fact and by source URL.
type Citations struct {
	ByFact   map[string][]CitationLink
	BySource map[string][]CitationLink
}

// NewCitations links every fact to its source.
func NewCitations(facts []Fact, sources []SearchResult) Citations {
	access := map[string]time.Time{}
	for _, s := range sources {
		access[s.ID] = s.AccessTimestamp
	}
	c := Citations{ByFact: map[string][]CitationLink{}, BySource: map[string][]CitationLink{}}
	for _, f := range facts {
		l := CitationLink{FactID: f.ID, SourceURL: f.SourceURL, SourceTitle: f.SourceTitle, AccessTimestamp: access[f.SourceID]}
		c.ByFact[f.ID] = append(c.ByFact[f.ID], l)
		c.BySource[f.SourceURL] = append(c.BySource[f.SourceURL], l)
	}
	return c
}
