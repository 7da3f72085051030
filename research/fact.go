package research

import (
	"fmt"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// Fact is one claim extracted from a source, tied to the exact passage it
// was read from.
type Fact struct {
	ID          string  `json:"id"`
	Text        string  `json:"text"`
	SourceURL   string  `json:"source_url"`
	SourceID    string  `json:"source_id"`
	SourceTitle string  `json:"source_title"`
	Confidence  float64 `json:"confidence"`
	// Section is the report section the fact belongs to.
	Section             string    `json:"section,omitempty"`
	ExtractionTimestamp time.Time `json:"extraction_timestamp"`
	// Verified is set when another source agrees, or when the fact won
	// its discrepancy's resolution.
	Verified      bool   `json:"verified"`
	DiscrepancyID string `json:"discrepancy_id,omitempty"`
	SubQuestionID string `json:"sub_question_id,omitempty"`
	// Subject is who or what the claim is about, Entity the precise one
	// when sources qualify a shared name ("Mercury (planet)"), Attribute
	// what about it ("headcount") and Value what the claim says it is
	// ("1,240 employees"). Facts are compared on them.
	Subject   string `json:"subject,omitempty"`
	Entity    string `json:"entity,omitempty"`
	Attribute string `json:"attribute,omitempty"`
	Value     string `json:"value,omitempty"`
	// Passage is the source text the claim was read from, verbatim.
	Passage string `json:"passage,omitempty"`
}

// Validate checks the fact's text, confidence and source. Errors: INVALID.
func (f *Fact) Validate() error {
	if strings.TrimSpace(f.Text) == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "a fact has no text")
	}
	if err := checkLength("a fact", f.Text, MinFactChars, MaxFactChars); err != nil {
		return err
	}
	if f.Confidence < 0 || f.Confidence > 1 {
		return quarry.Errorf(quarry.ECodeInvalid, "fact %s has confidence %g; it must be 0 to 1", f.ID, f.Confidence)
	}
	if f.SourceID == "" {
		return quarry.Errorf(quarry.ECodeInvalid, "fact %s names no source", f.ID)
	}
	return checkURL(f.SourceURL)
}

// Resolution strategies for a discrepancy.
const (
	StrategyRecency     = "recency"
	StrategyCredibility = "credibility"
	StrategyConsensus   = "consensus"
	StrategyUncertainty = "uncertainty"
)

// Discrepancy is two or more facts that disagree about one subject's
// attribute, with how the disagreement was resolved.
type Discrepancy struct {
	ID      string   `json:"id"`
	FactIDs []string `json:"fact_ids"`
	Topic   string   `json:"topic"`
	// Sides are the values asserted, each with the facts asserting it;
	// the preferred side first.
	Sides []Side `json:"sides"`
	// Strategy is the resolution strategy that decided (Strategy*).
	Strategy string `json:"strategy"`
	// Preferred is the value believed; "" when the strategy is
	// uncertainty.
	Preferred            string    `json:"preferred,omitempty"`
	Resolution           string    `json:"resolution"`
	ResolutionConfidence float64   `json:"resolution_confidence"`
	CreatedAt            time.Time `json:"created_at"`
}

// Side is one value of a discrepancy and the facts that assert it.
type Side struct {
	Value   string   `json:"value"`
	FactIDs []string `json:"fact_ids"`
}

// Validate checks that the discrepancy cites at least two facts, each of
// them in facts, and that its confidence is 0-1. Errors: INVALID.
func (d *Discrepancy) Validate(facts map[string]*Fact) error {
	if len(d.FactIDs) < 2 {
		return quarry.Errorf(quarry.ECodeInvalid, "discrepancy %q cites %d facts; it needs at least 2", d.Topic, len(d.FactIDs))
	}
	for _, id := range d.FactIDs {
		if facts[id] == nil {
			return quarry.Errorf(quarry.ECodeInvalid, "discrepancy %q cites unknown fact %s", d.Topic, id)
		}
	}
	if d.ResolutionConfidence < 0 || d.ResolutionConfidence > 1 {
		return quarry.Errorf(quarry.ECodeInvalid, "discrepancy %q has resolution confidence %g; it must be 0 to 1", d.Topic, d.ResolutionConfidence)
	}
	return nil
}

// Ambiguity is a name shared by different entities, each with its own
// answer: not a conflict, since every side can be true.
type Ambiguity struct {
	Name      string          `json:"name"`
	Attribute string          `json:"attribute"`
	Entities  []EntityAnswers `json:"entities"`
}

// EntityAnswers is one of the entities an ambiguous name refers to and
// what the sources say about it.
type EntityAnswers struct {
	Entity  string   `json:"entity"`
	Value   string   `json:"value"`
	FactIDs []string `json:"fact_ids"`
}

func (a Ambiguity) String() string {
	parts := make([]string, len(a.Entities))
	for i, e := range a.Entities {
		parts[i] = fmt.Sprintf("%s: %s", e.Entity, e.Value)
	}
	return fmt.Sprintf("%q names %d entities (%s)", a.Name, len(a.Entities), strings.Join(parts, "; "))
}
