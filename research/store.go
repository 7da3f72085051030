package research

import "context"

// Result is one research request with everything it produced.
type Result struct {
	Request *Request `json:"request"`
	Plan    *Plan    `json:"plan"`
	// Sources are the search results of every sub-question.
	Sources       []SearchResult `json:"sources"`
	Facts         []Fact         `json:"facts"`
	Discrepancies []Discrepancy  `json:"discrepancies"`
	Ambiguities   []Ambiguity    `json:"ambiguities"`
	// Answer is the short answer to the question itself: for each entity
	// the sources describe, the believed claim, a sentence or two each.
	Answer string  `json:"answer"`
	Report *Report `json:"report,omitempty"`
}

// FactsByID indexes the result's facts.
func (r *Result) FactsByID() map[string]*Fact {
	m := make(map[string]*Fact, len(r.Facts))
	for i := range r.Facts {
		m[r.Facts[i].ID] = &r.Facts[i]
	}
	return m
}

// Validate checks the whole result: the request, the plan for its depth,
// every source and fact, every discrepancy's facts, every fact's
// discrepancy, and the report's citations. Errors: INVALID.
func (r *Result) Validate() error {
	if err := r.Request.Validate(); err != nil {
		return err
	}
	if r.Plan != nil {
		if err := r.Plan.Validate(r.Request.Depth); err != nil {
			return err
		}
	}
	for i := range r.Sources {
		if err := r.Sources[i].Validate(); err != nil {
			return err
		}
	}
	facts := r.FactsByID()
	discs := map[string]bool{}
	for i := range r.Discrepancies {
		if err := r.Discrepancies[i].Validate(facts); err != nil {
			return err
		}
		discs[r.Discrepancies[i].ID] = true
	}
	for i := range r.Facts {
		if err := r.Facts[i].Validate(); err != nil {
			return err
		}
		if d := r.Facts[i].DiscrepancyID; d != "" && !discs[d] {
			return invalidf("fact %s names unknown discrepancy %s", r.Facts[i].ID, d)
		}
	}
	if r.Report != nil {
		return r.Report.Validate(facts)
	}
	return nil
}

// Store keeps research results. Implementations: sqlite.Research.
type Store interface {
	// Save writes the result whole, replacing an earlier save of the same
	// request, in one transaction: a reader sees the old result or the
	// new one. Errors: INVALID when r.Validate fails.
	Save(ctx context.Context, r *Result) error
	// Get returns the result of request id. Errors: NOT_FOUND.
	Get(ctx context.Context, id string) (*Result, error)
	// List returns the requests of userID ("" for all), newest first.
	List(ctx context.Context, userID string) ([]Request, error)
	// Delete removes a request and everything it produced. Errors:
	// NOT_FOUND.
	Delete(ctx context.Context, id string) error
}
