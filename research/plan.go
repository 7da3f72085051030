package research

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
)

// Plan is the planning stage's output: the sub-questions to research.
type Plan struct {
	ID           string        `json:"id"`
	RequestID    string        `json:"request_id"`
	SubQuestions []SubQuestion `json:"sub_questions"`
	CreatedAt    time.Time     `json:"created_at"`
	// EstimatedTimeSeconds is a rough duration for the whole request.
	EstimatedTimeSeconds int `json:"estimated_time_seconds,omitempty"`
}

// SubQuestionStatus is where a sub-question's search is.
type SubQuestionStatus string

// Sub-question statuses.
const (
	SubPending   SubQuestionStatus = "pending"
	SubSearching SubQuestionStatus = "searching"
	SubCompleted SubQuestionStatus = "completed"
	SubFailed    SubQuestionStatus = "failed"
)

// SubQuestion is one question of a plan. A follow-up names its parent and
// sits one level deeper.
type SubQuestion struct {
	ID       string `json:"id"`
	PlanID   string `json:"plan_id"`
	Text     string `json:"text"`
	Priority int    `json:"priority"`
	// ParentID is the sub-question this one follows up, "" for a root.
	ParentID string            `json:"parent_question_id,omitempty"`
	Depth    int               `json:"depth"`
	Status   SubQuestionStatus `json:"status"`
	// Aspect is the briefing section the question serves (Financials,
	// Legal, ...); its facts go to that section.
	Aspect        string         `json:"aspect,omitempty"`
	SearchResults []SearchResult `json:"search_results"`
}

// Validate checks the plan against depth: its root sub-questions number
// what depth asks (SubQuestions), priorities are 1-10 and unique across
// the plan, texts have 10-200 characters, every parent exists and is
// shallower by one, no question is its own ancestor, no question is deeper
// than depth.FollowUps() (and MaxDepth), and each keeps at most MaxResults
// search results. Errors: INVALID naming the first rule broken.
func (p *Plan) Validate(depth Depth) error {
	lo, hi := depth.SubQuestions()
	byID := map[string]*SubQuestion{}
	priorities := map[int]string{}
	roots := 0
	for i := range p.SubQuestions {
		q := &p.SubQuestions[i]
		if q.ID == "" {
			return quarry.Errorf(quarry.ECodeInvalid, "sub-question %d has no id", i+1)
		}
		if byID[q.ID] != nil {
			return quarry.Errorf(quarry.ECodeInvalid, "two sub-questions have the id %s", q.ID)
		}
		byID[q.ID] = q
		if err := checkLength(fmt.Sprintf("sub-question %q", q.Text), q.Text, MinSubQuestionChars, MaxSubQuestionChars); err != nil {
			return err
		}
		if q.Priority < 1 || q.Priority > MaxPriority {
			return quarry.Errorf(quarry.ECodeInvalid, "sub-question %q has priority %d; priorities are 1 to %d", q.Text, q.Priority, MaxPriority)
		}
		if other, dup := priorities[q.Priority]; dup {
			return quarry.Errorf(quarry.ECodeInvalid, "sub-questions %q and %q share priority %d; priorities must be unique", other, q.Text, q.Priority)
		}
		priorities[q.Priority] = q.Text
		if len(q.SearchResults) > MaxResults {
			return quarry.Errorf(quarry.ECodeInvalid, "sub-question %q has %d search results; at most %d", q.Text, len(q.SearchResults), MaxResults)
		}
		if q.ParentID == "" {
			roots++
		}
	}
	if roots < lo || roots > hi {
		return quarry.Errorf(quarry.ECodeInvalid, "a %s plan has %d to %d sub-questions, not %d", depth, lo, hi, roots)
	}
	limit := min(depth.FollowUps(), MaxDepth)
	for _, q := range byID {
		if q.ParentID == "" {
			if q.Depth != 0 {
				return quarry.Errorf(quarry.ECodeInvalid, "root sub-question %q has depth %d, not 0", q.Text, q.Depth)
			}
			continue
		}
		parent := byID[q.ParentID]
		if parent == nil {
			return quarry.Errorf(quarry.ECodeInvalid, "sub-question %q follows up %s, which is not in the plan", q.Text, q.ParentID)
		}
		if q.Depth != parent.Depth+1 {
			return quarry.Errorf(quarry.ECodeInvalid, "sub-question %q has depth %d under a parent of depth %d", q.Text, q.Depth, parent.Depth)
		}
		if q.Depth > limit {
			return quarry.Errorf(quarry.ECodeInvalid, "sub-question %q is at depth %d; a %s plan goes %d deep", q.Text, q.Depth, depth, limit)
		}
		seen := map[string]bool{q.ID: true}
		for a := parent; a != nil; a = byID[a.ParentID] {
			if seen[a.ID] {
				return quarry.Errorf(quarry.ECodeInvalid, "sub-question %q is its own ancestor", q.Text)
			}
			seen[a.ID] = true
		}
	}
	return nil
}

// SearchResult is one source passage found for a sub-question.
type SearchResult struct {
	ID            string `json:"id"`
	SubQuestionID string `json:"sub_question_id"`
	URL           string `json:"url"`
	Title         string `json:"title"`
	Content       string `json:"content"`
	Domain        string `json:"domain"`
	// AccessTimestamp is when the source was read.
	AccessTimestamp time.Time `json:"access_timestamp"`
	// CredibilityScore is 0-1: the domain map for web pages, the
	// document's own metadata (issuer, form) for documents.
	CredibilityScore float64 `json:"credibility_score"`
	// Published is the source's own date when it states one (a filing's
	// date); recency resolution compares it.
	Published      time.Time `json:"published,omitzero"`
	ExtractedFacts []string  `json:"extracted_facts"`
}

// Validate checks a result's URL, title and content. Errors: INVALID.
func (r *SearchResult) Validate() error {
	if err := checkURL(r.URL); err != nil {
		return err
	}
	if err := checkLength("a source title", r.Title, 1, MaxTitleChars); err != nil {
		return err
	}
	if len([]rune(r.Content)) > MaxContentChars {
		return quarry.Errorf(quarry.ECodeInvalid, "source %s holds %d characters; at most %d", r.URL, len([]rune(r.Content)), MaxContentChars)
	}
	if r.CredibilityScore < 0 || r.CredibilityScore > 1 {
		return quarry.Errorf(quarry.ECodeInvalid, "source %s has credibility %g; it must be 0 to 1", r.URL, r.CredibilityScore)
	}
	return nil
}

// checkURL accepts an absolute URL with a scheme (https://..., file://...,
// room://...).
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || (u.Host == "" && u.Path == "" && u.Opaque == "") || strings.ContainsAny(s, " \n\t") {
		return quarry.Errorf(quarry.ECodeInvalid, "%q is not a valid source URL", s)
	}
	return nil
}
