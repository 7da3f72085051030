package research

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/quarry-dev/quarry"
	rs "github.com/quarry-dev/quarry/research"
)

// SourceFailure is a source that failed, or one document of a source
// that could not be read.
type SourceFailure struct {
	// Source names it: "the web (SearxNG at ...)", or a document's URL.
	Source string
	Reason string
	// Whole is true for a source left out of the rest of the research,
	// false for one document of it.
	Whole bool
}

// Message says what failed and why, as a sentence.
func (f SourceFailure) Message() string {
	reason := strings.TrimRight(f.Reason, ". ")
	if f.Whole {
		return fmt.Sprintf("Source %s failed and the research went on without it: %s.", f.Source, reason)
	}
	return fmt.Sprintf("%s was not read: %s.", f.Source, reason)
}

// FailingCorpus is a Corpus some of whose documents may fail without
// failing its searches (the web: a page that robots.txt disallows, a
// PDF, a page too large or too slow).
type FailingCorpus interface {
	Corpus
	// Failures returns the documents that could not be read so far,
	// each once, in the order they failed.
	Failures() []SourceFailure
}

// Source is one corpus of a research with a name for messages.
type Source struct {
	Name   string
	Corpus Corpus
	// Required makes the source's failure the research's, as it is when
	// the source is searched alone: a data room whose member was removed
	// mid-research must stop it, not be left out of it.
	Required bool
}

// Sources searches several corpora as one (a data room or a folder, and
// the web). A source that is not Required and whose search fails (a web
// search provider that is down, slow or answers garbage) is left out of
// that search and every later one, so it costs its timeout once; the
// research completes from the others, and Researcher.Run tells its
// progress of every failure as it happens and lists them in the report's
// limitations. Search fails only when a Required source does or when
// every source has.
type Sources struct {
	list []Source

	mu       sync.Mutex
	down     map[int]bool
	failures []SourceFailure
	seen     map[string]bool
	listen   func(SourceFailure)
}

var _ FailingCorpus = (*Sources)(nil)

// NewSources returns the sources as one corpus.
func NewSources(list ...Source) *Sources {
	return &Sources{list: list, down: map[int]bool{}, seen: map[string]bool{}}
}

// Search implements Corpus: each source that has not failed is searched
// at once for k passages, and their lists are interleaved rank by rank,
// in the sources' order, up to k.
func (s *Sources) Search(ctx context.Context, query string, k int) ([]Passage, error) {
	s.mu.Lock()
	var live []int
	for i := range s.list {
		if !s.down[i] {
			live = append(live, i)
		}
	}
	s.mu.Unlock()
	if len(live) == 0 {
		return nil, s.allFailed()
	}
	hits := make([][]Passage, len(live))
	errs := make([]error, len(live))
	var wg sync.WaitGroup
	for j, i := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hits[j], errs[j] = s.list[i].Corpus.Search(ctx, query, k)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "research stopped: %w", err)
	}
	var fresh []SourceFailure
	var required error
	s.mu.Lock()
	for j, i := range live {
		src := s.list[i]
		if err := errs[j]; err != nil {
			if src.Required {
				required = err
				continue
			}
			s.down[i] = true
			hits[j] = nil
			fresh = append(fresh, s.add(SourceFailure{Source: src.Name, Reason: reason(err), Whole: true})...)
		}
		if fc, ok := src.Corpus.(FailingCorpus); ok {
			for _, f := range fc.Failures() {
				fresh = append(fresh, s.add(f)...)
			}
		}
	}
	allDown := len(s.down) == len(s.list)
	listen := s.listen
	s.mu.Unlock()
	for _, f := range fresh {
		// The research does not go on without the last source: its
		// failure is the search's error.
		if listen != nil && !(allDown && f.Whole) {
			listen(f)
		}
	}
	if required != nil {
		return nil, required
	}
	if allDown {
		return nil, s.allFailed()
	}
	var out []Passage
	for rank := 0; len(out) < k; rank++ {
		more := false
		for _, h := range hits {
			if rank < len(h) && len(out) < k {
				out = append(out, h[rank])
				more = true
			}
		}
		if !more {
			break
		}
	}
	return out, nil
}

// add records f once; it returns it when it is new. s.mu is held.
func (s *Sources) add(f SourceFailure) []SourceFailure {
	key := fmt.Sprint(f.Whole, "\x00", f.Source)
	if s.seen[key] {
		return nil
	}
	s.seen[key] = true
	s.failures = append(s.failures, f)
	return []SourceFailure{f}
}

// allFailed is the error of a search when no source is left.
func (s *Sources) allFailed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts, reasons []string
	for _, f := range s.failures {
		if f.Whole {
			reason := strings.TrimRight(f.Reason, ". ")
			parts = append(parts, f.Source+": "+reason)
			reasons = append(reasons, reason)
		}
	}
	if len(parts) == 0 {
		return quarry.Errorf(quarry.ECodeInvalid, "no source to search")
	}
	if len(s.list) == 1 {
		return quarry.Errorf(quarry.ECodeUnavailable, "%s", reasons[0])
	}
	return quarry.Errorf(quarry.ECodeUnavailable, "every source failed (%s)", strings.Join(parts, "; "))
}

// Failures implements FailingCorpus: the sources left out and the
// documents not read, in the order they failed.
func (s *Sources) Failures() []SourceFailure {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SourceFailure(nil), s.failures...)
}

// watch makes f hear each failure as Search finds it.
func (s *Sources) watch(f func(SourceFailure)) {
	s.mu.Lock()
	s.listen = f
	s.mu.Unlock()
}

// reason is an error for a person: a Quarry error's message and hint,
// or the error itself.
func reason(err error) string {
	var qe *quarry.Error
	if errors.As(err, &qe) {
		if qe.Hint != "" {
			return qe.Message + " (" + qe.Hint + ")"
		}
		return qe.Message
	}
	return err.Error()
}

// watchSources has the researcher's progress tell each source failure as
// it happens, at the stage the request is in.
func (r *Researcher) watchSources(req *rs.Request) {
	if s, ok := r.Corpus.(interface{ watch(func(SourceFailure)) }); ok {
		s.watch(func(f SourceFailure) { r.report(req.Status, "%s", f.Message()) })
	}
}

// maxDocumentFailures is how many unread documents the limitations name
// one by one; the rest are counted.
const maxDocumentFailures = 10

// noteFailures lists the failures of c (a FailingCorpus) in the report's
// limitations and says in its summary that the report rests on fewer
// sources than were asked.
func noteFailures(rep *rs.Report, c Corpus) {
	fc, ok := c.(FailingCorpus)
	if !ok || rep == nil {
		return
	}
	var whole []string
	docs := 0
	for _, f := range fc.Failures() {
		if f.Whole {
			whole = append(whole, f.Source)
		} else {
			docs++
			if docs > maxDocumentFailures {
				continue
			}
		}
		rep.Limitations = append(rep.Limitations, f.Message())
	}
	if docs > maxDocumentFailures {
		rep.Limitations = append(rep.Limitations, fmt.Sprintf("%d more documents were not read.", docs-maxDocumentFailures))
	}
	var say string
	switch {
	case len(whole) > 0:
		say = fmt.Sprintf("Some sources failed (%s), so this report rests on the others; see its limitations.", strings.Join(whole, ", "))
	case docs > 0:
		say = fmt.Sprintf("%d documents found could not be read; see the limitations.", docs)
	default:
		return
	}
	rep.ExecutiveSummary = strings.TrimSpace(rep.ExecutiveSummary + " " + say)
	rep.TotalWordCount += rs.Words(say)
}
