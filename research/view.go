package research

// View is a result as Quarry shows it to its clients, one shape for all:
// quarry research --json, the MCP tool research and GET
// /api/research/{id}. A research still running has its request's fields
// and empty lists; a failed one says why in Error.
type View struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Query  string `json:"query"`
	Depth  string `json:"depth_level"`
	Error  string `json:"error,omitempty"`
	Answer string `json:"answer"`
	Plan   struct {
		SubQuestions []SubQuestion `json:"sub_questions"`
	} `json:"plan"`
	Facts         []FactView        `json:"facts"`
	Discrepancies []DiscrepancyView `json:"discrepancies"`
	Ambiguities   []Ambiguity       `json:"ambiguities"`
	Report        ReportView        `json:"report"`
	Citations     []CitationLink    `json:"citations"`
}

// FactView is a fact in a View; DiscrepancyID is null for a fact no
// source disputes.
type FactView struct {
	ID            string  `json:"id"`
	Text          string  `json:"text"`
	SourceURL     string  `json:"source_url"`
	SourceTitle   string  `json:"source_title"`
	Confidence    float64 `json:"confidence"`
	Section       string  `json:"section"`
	Verified      bool    `json:"verified"`
	DiscrepancyID *string `json:"discrepancy_id"`
	Entity        string  `json:"entity"`
	Attribute     string  `json:"attribute"`
	Value         string  `json:"value"`
	Passage       string  `json:"passage"`
}

// DiscrepancyView is a discrepancy in a View.
type DiscrepancyView struct {
	ID                   string   `json:"id"`
	Topic                string   `json:"topic"`
	FactIDs              []string `json:"fact_ids"`
	Resolution           string   `json:"resolution"`
	ResolutionConfidence float64  `json:"resolution_confidence"`
	Strategy             string   `json:"strategy"`
	Preferred            string   `json:"preferred"`
	Sides                []Side   `json:"sides"`
}

// ReportView is the report in a View.
type ReportView struct {
	ExecutiveSummary string        `json:"executive_summary"`
	Sections         []SectionView `json:"sections"`
	TotalWordCount   int           `json:"total_word_count"`
	TotalSources     int           `json:"total_sources"`
	QualityScore     float64       `json:"quality_score"`
	Limitations      []string      `json:"limitations"`
}

// SectionView is a report section in a View.
type SectionView struct {
	Title   string   `json:"title"`
	Content string   `json:"content"`
	FactIDs []string `json:"fact_ids"`
}

// NewView returns res as a View. Lists are never null; a result without
// a plan or a report (one still running, or failed) has them empty.
func NewView(res *Result) View {
	req := res.Request
	out := View{ID: req.ID, Status: string(req.Status), Query: req.Query, Depth: string(req.Depth), Error: req.Error,
		Answer: res.Answer, Facts: []FactView{}, Discrepancies: []DiscrepancyView{}, Ambiguities: orEmptyList(res.Ambiguities),
		Citations: []CitationLink{}, Report: ReportView{Sections: []SectionView{}, Limitations: []string{}}}
	out.Plan.SubQuestions = []SubQuestion{}
	if res.Plan != nil {
		out.Plan.SubQuestions = orEmptyList(res.Plan.SubQuestions)
	}
	for _, f := range res.Facts {
		fo := FactView{ID: f.ID, Text: f.Text, SourceURL: f.SourceURL, SourceTitle: f.SourceTitle, Confidence: f.Confidence, Section: f.Section,
			Verified: f.Verified, Entity: f.Entity, Attribute: f.Attribute, Value: f.Value, Passage: f.Passage}
		if f.DiscrepancyID != "" {
			id := f.DiscrepancyID
			fo.DiscrepancyID = &id
		}
		out.Facts = append(out.Facts, fo)
	}
	for _, d := range res.Discrepancies {
		out.Discrepancies = append(out.Discrepancies, DiscrepancyView{ID: d.ID, Topic: d.Topic, FactIDs: d.FactIDs, Resolution: d.Resolution,
			ResolutionConfidence: d.ResolutionConfidence, Strategy: d.Strategy, Preferred: d.Preferred, Sides: d.Sides})
	}
	if rep := res.Report; rep != nil {
		out.Report.ExecutiveSummary, out.Report.TotalWordCount, out.Report.TotalSources = rep.ExecutiveSummary, rep.TotalWordCount, rep.TotalSources
		out.Report.QualityScore, out.Report.Limitations = rep.QualityScore, orEmptyList(rep.Limitations)
		for _, s := range rep.Sections {
			out.Report.Sections = append(out.Report.Sections, SectionView{s.Title, s.Content, s.FactIDs})
		}
	}
	cites := NewCitations(res.Facts, res.Sources)
	for _, f := range res.Facts {
		out.Citations = append(out.Citations, cites.ByFact[f.ID]...)
	}
	return out
}

func orEmptyList[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
