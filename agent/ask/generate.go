package ask

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry/agent/evidence"
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
	// Attempts is how many times the model was asked: 1, or 2 after the
	// one retry the specification allows.
	Attempts int
	// Unverified lists the numbers the answer states that the passages
	// its sentences cite do not support, and citations of passages that
	// were not given. An answer with any is not grounded: its type is
	// room.AnswerInsufficient.
	Unverified []string
}

// PageReader reads a page of a document: a room's store.
type PageReader interface {
	Page(ctx context.Context, documentID string, number int) (*room.Page, error)
}

// Generate asks model to answer the question from the best passages of
// pages, then checks its work (see check): every citation must point at a
// passage it was shown, and every number in a sentence must match a
// number of a passage that sentence cites. An answer that fails is not
// grounded: it is returned as room.AnswerInsufficient, its unsupported
// numbers marked, its failing sentences' citations marked unverified,
// saying what could not be verified.
//
// The pages of the passages shown are read from pr, when it is not nil,
// for the unit their amounts are in: a statement says "(In millions)"
// once at its top, and a passage from its foot is in millions too. A page
// that cannot be read leaves its passages to their own words, which only
// makes the check stricter.
func Generate(ctx context.Context, model llm.Model, pr PageReader, question string, pages []PageHit) (*Generated, error) {
	passages := passagesOf(pages)
	if len(passages) == 0 {
		return nil, fmt.Errorf("no passages to answer from")
	}
	if pr != nil {
		read := map[string]string{}
		for i, p := range passages {
			key := fmt.Sprintf("%s#%d", p.DocumentID, p.PageNumber)
			text, ok := read[key]
			if !ok {
				if pg, err := pr.Page(ctx, p.DocumentID, p.PageNumber); err == nil {
					text = pg.Text
				}
				read[key] = text
			}
			passages[i].page = text
		}
	}
	var b strings.Builder
	for i, p := range passages {
		fmt.Fprintf(&b, "[%d] %s, page %d:\n%s\n\n", i+1, p.DocumentName, p.PageNumber, strings.TrimSpace(p.Text))
	}
	fmt.Fprintf(&b, "Question: %s", question)
	// One call through the agents' runtime (agent/runtime): any error
	// leaves the caller's extract standing.
	// A failing model is asked again once at most (room.MaxRetries);
	// llm.Attempts(err) says how many times it was asked when it failed.
	resp, err := agentrt.New(model, agentrt.Options{Actor: "ask", Job: "question"}).Call(ctx, &llm.Request{Purpose: "ask", System: generateSystem, MaxTokens: 700,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: b.String()}}, MaxAttempts: 1 + room.MaxRetries})
	if err != nil {
		return nil, err
	}
	g := &Generated{Model: model.Name(), Usage: resp.Usage, Attempts: max(resp.Attempts, 1)}
	text := strings.TrimSpace(resp.Text)
	if i := strings.Index(text, insufficientMark); i >= 0 {
		g.Type = room.AnswerInsufficient
		g.Text = "The room's documents do not answer this: " + strings.TrimSpace(text[i+len(insufficientMark):])
		return g, nil
	}
	g.Type = room.AnswerGrounded
	g.Text, g.Citations, g.Unverified = check(text, passages, contentWords(parseQuestion(question)))
	if len(g.Unverified) > 0 {
		// An answer is grounded only when all of it is: one unsupported
		// number or citation makes the whole of it unverified.
		g.Type = room.AnswerInsufficient
		g.Text = "The passages this answer cites do not support all of it; it is shown with what could not be verified marked " +
			evidence.Marker + ".\n\n" + g.Text + "\n\nUnverified: " + strings.Join(g.Unverified, "; ") + "."
	}
	return g, nil
}

// passage is a chunk shown to the model, with its page's score relative
// to the best page's (0-1).
type passage struct {
	room.ChunkHit
	relevance float64
	// page is the text of the page the chunk is on, "" when it was not
	// read; the units it states apply to the chunk's amounts.
	page string
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
				out = append(out, passage{ChunkHit: p.Chunks[round], relevance: rel})
			}
		}
	}
	return out
}

var (
	markerRe = regexp.MustCompile(`\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]`)
	// A sentence ends at a full stop, question or exclamation mark
	// followed by a space or the end (so "$1.6 billion" is one sentence),
	// taking the citation markers after it, or at the end of a line.
	sentenceRe = regexp.MustCompile(`(?s).+?(?:[.!?]+(?:\s*\[\d{1,2}(?:\s*,\s*\d{1,2})*\])*(?:\s|$)|\n|$)`)
)

// check checks an answer's sentences against the passages they cite with
// agent/evidence, the checker every job's numbers go through: each number
// a sentence states must match, at the precision written, a number of a
// passage that sentence cites, in the unit written there or the unit the
// passage or its page says its amounts are in. Years, dates, page references and
// small counts are not claims and are not checked.
//
// It returns the answer with each unsupported number marked
// evidence.Marker, the citations in order of first use (at most
// room.MaxCitations, those of a sentence that failed marked unverified),
// and what could not be verified.
func check(text string, passages []passage, words []string) (string, []room.Citation, []string) {
	var cites []room.Citation
	at := map[int]int{} // passage index -> citation index
	var unverified []string
	var b strings.Builder
	last := 0
	for _, loc := range sentenceRe.FindAllStringIndex(text, -1) {
		if loc[0] == loc[1] {
			continue
		}
		sent := text[loc[0]:loc[1]]
		var cited []int
		for _, m := range markerRe.FindAllStringSubmatch(sent, -1) {
			for _, f := range strings.Split(m[1], ",") {
				n, _ := strconv.Atoi(strings.TrimSpace(f))
				if n < 1 || n > len(passages) {
					unverified = append(unverified, fmt.Sprintf("citation [%d] points at no passage", n))
					continue
				}
				if !slices.Contains(cited, n-1) {
					cited = append(cited, n-1)
				}
			}
		}
		var ev evidence.Set
		for _, i := range cited {
			ev.AddPassage(passages[i].Context+"\n"+passages[i].Text, passages[i].page)
		}
		res := ev.Check(sent)
		b.WriteString(text[last:loc[0]])
		b.WriteString(res.Text)
		last = loc[1]
		for _, u := range res.Unverified {
			unverified = append(unverified, fmt.Sprintf("%s is not in the cited passages", u))
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
			if !res.OK() {
				cites[j].Verified = false
			}
		}
	}
	b.WriteString(text[last:])
	return strings.TrimSpace(b.String()), cites, unverified
}
