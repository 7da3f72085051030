package researches

import (
	"context"
	"log/slog"
	"sync"

	"github.com/quarry-dev/quarry"
	agent "github.com/quarry-dev/quarry/agent/research"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/research"
)

// A research's audit trail goes to the shared log (Config.OpenLog,
// DATA_DIR/logs/research.jsonl), one entry per event, each under the
// research's id as its request id and the user who asked as its actor,
// and naming both in its data (research_id, user_id):
//
//   - research_started: the question, depth, room and whether the web
//     is searched, and the model (none when offline);
//   - stage: each stage the research enters (planning, executing, ...);
//   - tool_call: each search of a source (room_search, web_search: the
//     web's searches and page fetches), with its query, how many passages
//     it returned and their addresses, or its error;
//   - model_call: each call of the model, with its purpose, tokens and
//     error;
//   - sub_question, fact, contradiction: the decisions the result holds:
//     the plan's sub-questions, each fact kept with whether it was
//     verified, and each discrepancy with its sides, strategy and
//     resolution;
//   - source_failure: each page or search of the web that failed and was
//     left out;
//   - research_finished: the final status, the error of a failed one,
//     and the counts.

// trail writes one research's entries; its log is set while the research
// runs and nil otherwise (no log configured, or not yet running), when
// it writes nothing. It is safe for concurrent use: the sources of a
// research may be searched at once.
type trail struct {
	id, userID string
	warn       *slog.Logger

	mu  sync.Mutex
	log Log
}

// write appends one entry; a failed write is logged, not the research's
// failure: the research's result is still saved and shown.
func (t *trail) write(event string, data map[string]any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.log == nil {
		return
	}
	data["research_id"], data["user_id"] = t.id, t.userID
	if _, err := t.log.AppendFor(t.id, event, t.userID, data); err != nil && t.warn != nil {
		t.warn.Error("research audit entry not written", "id", t.id, "event", event, "err", err)
	}
}

// openLog opens the audit log for p's research and writes its start; nil
// without a log (or when it cannot be opened, which is logged).
func (s *Service) openLog(p *prepared) Log {
	if s.cfg.OpenLog == nil {
		return nil
	}
	l, err := s.cfg.OpenLog()
	if err != nil {
		s.log.Error("research audit log not opened", "id", p.req.ID, "err", err)
		return nil
	}
	p.trail.mu.Lock()
	p.trail.log, p.trail.warn = l, s.log
	p.trail.mu.Unlock()
	model := "none"
	if m := s.model(); m != nil {
		model = m.Name()
	}
	p.trail.write("research_started", map[string]any{"question": p.req.Query, "depth": string(p.req.Depth),
		"room_id": p.roomID, "web": p.web != nil, "model": model})
	return l
}

// closeLog detaches the research's trail from its log and closes it.
func (s *Service) closeLog(id string, l Log) {
	if l == nil {
		return
	}
	if err := l.Close(); err != nil {
		s.log.Error("research audit log not closed", "id", id, "err", err)
	}
}

// stage records a stage the research entered.
func (t *trail) stage(st research.Stage) {
	t.write("stage", map[string]any{"status": string(st.Status), "message": st.Message})
}

// corpus returns c with each search recorded as a tool call named tool
// of the source name. A corpus whose documents fail apart from its
// searches (agent.FailingCorpus, the web) stays one, so the report still
// lists what was not read.
func (t *trail) corpus(tool, name string, c agent.Corpus) agent.Corpus {
	a := &auditedCorpus{Corpus: c, t: t, tool: tool, source: name}
	if fc, ok := c.(agent.FailingCorpus); ok {
		return &auditedFailingCorpus{auditedCorpus: a, failures: fc}
	}
	return a
}

type auditedFailingCorpus struct {
	*auditedCorpus
	failures agent.FailingCorpus
}

func (c *auditedFailingCorpus) Failures() []agent.SourceFailure { return c.failures.Failures() }

type auditedCorpus struct {
	agent.Corpus
	t            *trail
	tool, source string
}

func (c *auditedCorpus) Search(ctx context.Context, query string, k int) ([]agent.Passage, error) {
	ps, err := c.Corpus.Search(ctx, query, k)
	urls := make([]string, 0, len(ps))
	for _, p := range ps {
		urls = append(urls, p.URL)
	}
	data := map[string]any{"tool": c.tool, "source": c.source, "query": query, "k": k, "passages": len(ps), "urls": urls}
	if err != nil {
		data["error"], data["code"] = err.Error(), quarry.ErrorCode(err)
	}
	c.t.write("tool_call", data)
	return ps, err
}

// model returns m with each call recorded, nil for nil.
func (t *trail) model(m llm.Model) llm.Model {
	if m == nil {
		return nil
	}
	return &auditedModel{Model: m, t: t}
}

type auditedModel struct {
	llm.Model
	t *trail
}

func (m *auditedModel) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	resp, err := m.Model.Complete(ctx, req)
	data := map[string]any{"model": m.Name(), "purpose": req.Purpose, "messages": len(req.Messages)}
	if resp != nil {
		data["input_tokens"], data["output_tokens"] = resp.Usage.InputTokens, resp.Usage.OutputTokens
		data["stop_reason"] = resp.StopReason
	}
	if err != nil {
		data["error"] = err.Error()
	}
	m.t.write("model_call", data)
	return resp, err
}

// decisions records what res decided, and how the research ended: req
// as it stands after the run, err the run's error.
func (t *trail) decisions(res *research.Result, req *research.Request, web WebCorpus, err error) {
	if res != nil && res.Plan != nil {
		for _, q := range res.Plan.SubQuestions {
			t.write("sub_question", map[string]any{"sub_question_id": q.ID, "text": q.Text, "aspect": q.Aspect,
				"priority": q.Priority, "status": string(q.Status), "results": len(q.SearchResults)})
		}
	}
	if res != nil {
		for _, f := range res.Facts {
			t.write("fact", map[string]any{"fact_id": f.ID, "kept": true, "verified": f.Verified, "text": f.Text,
				"source_url": f.SourceURL, "confidence": f.Confidence, "sub_question_id": f.SubQuestionID, "discrepancy_id": f.DiscrepancyID})
		}
		for _, d := range res.Discrepancies {
			t.write("contradiction", map[string]any{"discrepancy_id": d.ID, "topic": d.Topic, "fact_ids": d.FactIDs,
				"strategy": d.Strategy, "preferred": d.Preferred, "resolution": d.Resolution, "resolution_confidence": d.ResolutionConfidence})
		}
	}
	if web != nil {
		for _, f := range web.Failures() {
			t.write("source_failure", map[string]any{"failure": f})
		}
	}
	data := map[string]any{"status": string(req.Status)}
	if req.Error != "" {
		data["error"] = req.Error
	} else if err != nil {
		data["error"], data["code"] = err.Error(), quarry.ErrorCode(err)
	}
	if res != nil {
		data["facts"], data["discrepancies"], data["sources"] = len(res.Facts), len(res.Discrepancies), len(res.Sources)
	}
	t.write("research_finished", data)
	t.mu.Lock()
	t.log = nil
	t.mu.Unlock()
}
