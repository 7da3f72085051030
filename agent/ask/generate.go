package ask

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	agentrt "github.com/quarry-dev/quarry/agent/runtime"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/room"
)

// maxPassages is how many passages a model is shown.
const maxPassages = 8

// insufficientMark is how a model says the passages do not answer.
const insufficientMark = "INSUFFICIENT_EVIDENCE:"

const generateSystem = `You answer questions about a data room's documents using only the numbered passages given.
Rules:
- Every sentence of the answer ends with the numbers of the passages it rests on, like [1] or [2][3].
- Copy every number exactly as the passage writes it; never compute, round or convert unless asked, and then show the numbers used.
- Keep the answer short: at most five sentences.
- If the passages do not answer the question, reply with exactly one line: ` + insufficientMark + ` followed by what is missing.`

// Generated is a model's answer, checked against the passages.
type Generated struct {
	Answer
	Model string
	Usage llm.Usage
	// Unverified lists the numbers the answer states that are not in the
	// passages its sentences cite, and citations of passages that were
	// not given.
	Unverified []string
}

// Generate asks model to answer the question from the best passages of
// pages, then checks its work: every citation must point at a passage it
// was shown, and every number in a sentence must appear in a passage that
// sentence cites. Citations of a sentence that fails are marked
// unverified, and the answer says which numbers could not be found.
func Generate(ctx context.Context, model llm.Model, question string, pages []PageHit) (*Generated, error) {
	passages := passagesOf(pages)
	if len(passages) == 0 {
		return nil, fmt.Errorf("no passages to answer from")
	}
	var b strings.Builder
	for i, p := range passages {
		fmt.Fprintf(&b, "[%d] %s, page %d:\n%s\n\n", i+1, p.DocumentName, p.PageNumber, strings.TrimSpace(p.Text))
	}
	fmt.Fprintf(&b, "Question: %s", question)
	// One call through the agents' runtime (agent/runtime): any error
	// leaves the caller's extract standing.
	resp, err := agentrt.New(model, agentrt.Options{Actor: "ask", Job: "question"}).Call(ctx, &llm.Request{Purpose: "ask", System: generateSystem, MaxTokens: 700,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: b.String()}}})
	if err != nil {
		return nil, err
	}
	g := &Generated{Model: model.Name(), Usage: resp.Usage}
	text := strings.TrimSpace(resp.Text)
	if i := strings.Index(text, insufficientMark); i >= 0 {
		g.Type = room.AnswerInsufficient
		g.Text = "The room's documents do not answer this: " + strings.TrimSpace(text[i+len(insufficientMark):])
		return g, nil
	}
	g.Type = room.AnswerGrounded
	g.Text, g.Citations, g.Unverified = verify(text, passages, contentWords(parseQuestion(question)))
	if len(g.Unverified) > 0 {
		g.Text += "\n\nUnverified: " + strings.Join(g.Unverified, "; ") + "."
	}
	return g, nil
}

// passage is a chunk shown to the model, with its page's score relative
// to the best page's (0-1).
type passage struct {
	room.ChunkHit
	relevance float64
}

// passagesOf picks the best chunk of each of the best pages, then their
// second chunks, up to maxPassages.
func passagesOf(pages []PageHit) []passage {
	var out []passage
	for round := 0; round < 2 && len(out) < maxPassages; round++ {
		for _, p := range pages {
			if round < len(p.Chunks) && len(out) < maxPassages {
				rel := 0.0
				if top := pages[0].Score; top > 0 {
					rel = float64(int(p.Score/top*10000)) / 10000
				}
				out = append(out, passage{p.Chunks[round], rel})
			}
		}
	}
	return out
}

var (
	markerRe   = regexp.MustCompile(`\[(\d{1,2})\]`)
	sentenceRe = regexp.MustCompile(`[^.!?\n]+(?:[.!?]+(?:\s*\[\d{1,2}\])*|\n|$)`)
	genNumRe   = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)
)

// verify checks an answer's sentences against the passages they cite. It
// returns the answer, the citations in order of first use (at most
// room.MaxCitations), and what could not be verified.
func verify(text string, passages []passage, words []string) (string, []room.Citation, []string) {
	var cites []room.Citation
	at := map[int]int{} // passage index -> citation index
	var unverified []string
	for _, sent := range sentenceRe.FindAllString(text, -1) {
		var cited []int
		for _, m := range markerRe.FindAllStringSubmatch(sent, -1) {
			n, _ := strconv.Atoi(m[1])
			if n < 1 || n > len(passages) {
				unverified = append(unverified, fmt.Sprintf("citation [%d] points at no passage", n))
				continue
			}
			cited = append(cited, n-1)
		}
		body := markerRe.ReplaceAllString(sent, "")
		ok := true
		for _, num := range genNumRe.FindAllString(body, -1) {
			if yearLike(num) && len(cited) > 0 && inAny(num, passages, cited) {
				continue
			}
			if !inAny(num, passages, cited) {
				ok = false
				unverified = append(unverified, fmt.Sprintf("%s is not in the cited passages", num))
			}
		}
		for _, i := range cited {
			j, seen := at[i]
			if !seen {
				if len(cites) == room.MaxCitations {
					continue
				}
				p := passages[i]
				j = len(cites)
				at[i] = j
				cites = append(cites, room.Citation{ChunkID: p.ID, DocumentID: p.DocumentID, DocumentName: p.DocumentName,
					PageNumber: p.PageNumber, RelevanceScore: p.relevance, Rank: j + 1, TextPreview: Preview(p.Text, words), Verified: true})
			}
			if !ok {
				cites[j].Verified = false
			}
		}
	}
	return strings.TrimSpace(text), cites, unverified
}

func yearLike(num string) bool {
	n, err := strconv.Atoi(num)
	return err == nil && n >= 1900 && n <= 2100
}

// inAny reports whether a number appears in one of the cited passages,
// written with or without thousands separators.
func inAny(num string, passages []passage, cited []int) bool {
	plain := strings.ReplaceAll(num, ",", "")
	for _, i := range cited {
		t := passages[i].Context + "\n" + passages[i].Text
		if strings.Contains(t, num) || strings.Contains(strings.ReplaceAll(t, ",", ""), plain) {
			return true
		}
	}
	return false
}
