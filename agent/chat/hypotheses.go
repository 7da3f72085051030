package chat

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry/investigation"
	"github.com/quarry-dev/quarry/retrieve"
)

// maxHypothesisHits is how many passages a status question retrieves: far
// more than an investigation has hypotheses, so that none is missed.
const maxHypothesisHits = 100

// hypothesis is one hypothesis as a passage of the memory states it.
type hypothesis struct {
	id     string // "hyp_003"
	status investigation.HypothesisStatus
	quote  string // the passage's words: id, status, title and verdict
	ref    string
}

var (
	hypIDPattern  = regexp.MustCompile(`^hyp_\d+$`)
	statusPattern = regexp.MustCompile(`(?i)\b(ruled[_ ]out|confirmed|investigating|pending)\b`)
)

// byStatus answers "which hypotheses were ruled out (or confirmed) and
// why?" by listing every hypothesis with each status the question names,
// quoting its verdict. ok is false when the memory holds no hypotheses.
func (a *Answerer) byStatus(ctx context.Context, sessionID string, q *question) (Reply, bool, error) {
	hits, err := a.Index.Search(ctx, sessionID, "hypothesis RULED_OUT CONFIRMED "+q.text, maxHypothesisHits)
	if err != nil {
		return Reply{}, false, err
	}
	hyps := hypothesesOf(hits)
	if len(hyps) == 0 {
		return Reply{}, false, nil
	}
	var ans answer
	for _, st := range q.statuses {
		var with []hypothesis
		for _, h := range hyps {
			if h.status == st {
				with = append(with, h)
			}
		}
		switch len(with) {
		case 0:
			ans.text(fmt.Sprintf("No hypothesis was %s.", statusWords(st)))
			continue
		case 1:
			ans.text(fmt.Sprintf("1 hypothesis was %s:", statusWords(st)))
		default:
			ans.text(fmt.Sprintf("%d hypotheses were %s:", len(with), statusWords(st)))
		}
		for _, h := range with {
			if !ans.add("- ", []string{h.quote}, h.ref) {
				break
			}
		}
	}
	return ans.reply(), true, nil
}

// statusWords says a status in words: "ruled out".
func statusWords(s investigation.HypothesisStatus) string {
	return strings.ToLower(strings.ReplaceAll(string(s), "_", " "))
}

// hypothesesOf collects the hypotheses the passages state, ordered by
// number. A passage that is one hypothesis (its ref is
// analysis/hypotheses/hyp_NNN.json, or its title "Hypothesis hyp_NNN ...")
// is quoted whole; otherwise each line that starts with a hypothesis ID and
// names a status counts, as in a summary list or the report's table. A
// hypothesis is taken from its own passage when there is one.
func hypothesesOf(hits []retrieve.Hit) []hypothesis {
	byID := map[string]hypothesis{}
	for _, h := range hits {
		id := ownHypothesis(h.Chunk)
		if id == "" || byID[id].id != "" {
			continue
		}
		if st := statusOf(h.Title + "\n" + h.Text); st != "" {
			byID[id] = hypothesis{id: id, status: st, quote: strings.Join(sentencesOf(h.Text, false), " "), ref: h.Ref}
		}
	}
	for _, h := range hits {
		if ownHypothesis(h.Chunk) != "" {
			continue
		}
		for _, line := range strings.Split(h.Text, "\n") {
			s := cleanLine(strings.TrimSpace(line))
			words := retrieve.Words(s)
			if len(words) == 0 || !hypIDPattern.MatchString(words[0]) || byID[words[0]].id != "" {
				continue
			}
			if st := statusOf(s); st != "" {
				byID[words[0]] = hypothesis{id: words[0], status: st, quote: shorten(s, maxSentenceLen), ref: h.Ref}
			}
		}
	}
	out := make([]hypothesis, 0, len(byID))
	for _, h := range byID {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return hypNumber(out[i].id) < hypNumber(out[j].id) })
	return out
}

// ownHypothesis returns the ID of the hypothesis that c is about as a
// whole, or "" when c is not one hypothesis's passage.
func ownHypothesis(c retrieve.Chunk) string {
	if strings.Contains(c.Ref, "hypotheses/") {
		for _, w := range retrieve.Words(c.Ref) {
			if hypIDPattern.MatchString(w) {
				return w
			}
		}
	}
	words := retrieve.Words(c.Title)
	if len(words) >= 2 && words[0] == "hypothesis" && hypIDPattern.MatchString(words[1]) {
		return words[1]
	}
	return ""
}

// statusOf returns the first hypothesis status text names, or "".
func statusOf(text string) investigation.HypothesisStatus {
	m := statusPattern.FindString(text)
	if m == "" {
		return ""
	}
	return investigation.HypothesisStatus(strings.ToUpper(strings.ReplaceAll(m, " ", "_")))
}

// hypNumber returns 3 for "hyp_003".
func hypNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "hyp_"))
	return n
}
