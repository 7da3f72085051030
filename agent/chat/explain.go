package chat

import (
	"context"
	"sort"
	"strings"

	"github.com/quarry-dev/quarry/retrieve"
)

// maxExplanations is how many explanations a question about causes quotes.
const maxExplanations = 3

// explanations returns the memory's overall change and its top
// explanations, by rank, as passages of their first two sentences.
func (a *Answerer) explanations(ctx context.Context, sessionID string) ([]passage, error) {
	hits, err := a.explanationHits(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	out := make([]passage, 0, len(hits))
	for _, h := range hits {
		sents := sentencesOf(h.Text, false)
		if len(sents) > 2 {
			sents = sents[:2]
		}
		out = append(out, passage{ref: h.Ref, sentences: sents})
	}
	return out, nil
}

// explanationHits returns the memory's overall change and its top
// explanations, by rank. It finds them by title: "Overall change" and
// "Explanation N: ...".
func (a *Answerer) explanationHits(ctx context.Context, sessionID string) ([]retrieve.Hit, error) {
	hits, err := a.Index.Search(ctx, sessionID, "overall change explanation ranked most likely", 2*maxExplanations+a.k())
	if err != nil {
		return nil, err
	}
	var overall, expls []retrieve.Hit
	for _, h := range hits {
		title := strings.ToLower(h.Title)
		switch {
		case strings.HasPrefix(title, "overall change") && len(overall) == 0:
			overall = append(overall, h)
		case strings.HasPrefix(title, "explanation "):
			expls = append(expls, h)
		}
	}
	// Rank order is title order: "explanation 1: ..." before "explanation 2: ...".
	sort.SliceStable(expls, func(i, j int) bool {
		return rankOf(strings.ToLower(expls[i].Title)) < rankOf(strings.ToLower(expls[j].Title))
	})
	if len(expls) > maxExplanations {
		expls = expls[:maxExplanations]
	}
	return append(overall, expls...), nil
}

// rankOf returns N for a title "explanation N: ...", or a large number.
func rankOf(title string) int {
	n, digits := 0, 0
	for _, r := range strings.TrimPrefix(title, "explanation ") {
		if r < '0' || r > '9' {
			break
		}
		n = 10*n + int(r-'0')
		digits++
	}
	if digits == 0 {
		return 1 << 30
	}
	return n
}
