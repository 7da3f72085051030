package research

import (
	"slices"
	"sort"
	"strings"
)

// Answers are short: a claim or two per entity, each cut to
// maxAnswerChars around its value.
const (
	maxAnswerChars      = 240
	maxAnswersPerEntity = 2
)

// answer collects, entity by entity, the believed claims of the
// question's own sub-question.
type answer struct {
	entities []*entityAnswer
}

type entityAnswer struct {
	name      string
	sentences []string
	support   float64
}

// add takes a resolved cluster's preferred side (both sides when the
// conflict stayed unresolved): one sentence per distinct value, the
// most confident claim of it.
func (a *answer) add(c *cluster) {
	if len(c.preferred) == 0 {
		return
	}
	// Each entity told apart answers for itself, even when several
	// are known only by the bare name.
	e := &entityAnswer{name: entityName(c)}
	a.entities = append(a.entities, e)
	var values []*position
	for _, p := range c.preferred {
		placed := false
		for i, q := range values {
			if Same(p.value, q.value) {
				placed = true
				if p.fact.Confidence > q.fact.Confidence {
					values[i] = p
				}
			}
		}
		if !placed {
			values = append(values, p)
		}
	}
	e.support += float64(len(c.preferred))
	// A second source's words for the same value, when there is room: it
	// may say it more completely ("3,559 people" for "3,559").
	for _, p := range c.preferred {
		if len(values) >= maxAnswersPerEntity {
			break
		}
		if !slices.Contains(values, p) && p.value.Text != values[0].value.Text && strings.Contains(p.value.Text, values[0].value.Text) {
			values = append(values, p)
		}
	}
	for _, p := range values {
		if len(e.sentences) >= maxAnswersPerEntity {
			break
		}
		s := strings.TrimSpace(clipAround(p.fact.Passage, Value{Start: max(0, strings.Index(p.fact.Passage, p.fact.Value))}, maxAnswerChars))
		if c.disputed {
			s += " (sources disagree on this; see the discrepancy)"
		}
		e.sentences = append(e.sentences, s)
	}
	for _, p := range c.aside {
		s := strings.TrimSpace(clipAround(p.fact.Passage, Value{Start: max(0, strings.Index(p.fact.Passage, p.fact.Value))}, maxAnswerChars))
		a.entities = append(a.entities, &entityAnswer{name: e.name, sentences: []string{s + " (one source alone says this: another " + e.name + ", or an error)"}})
	}
}

// String writes the answer: the best-supported entity first, each named
// when there are several.
func (a *answer) String() string {
	sort.SliceStable(a.entities, func(i, j int) bool { return a.entities[i].support > a.entities[j].support })
	var parts []string
	for _, e := range a.entities {
		text := strings.Join(e.sentences, " ")
		if len(a.entities) > 1 {
			text = e.name + ": " + text
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " ")
}
