package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analyses"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/internal/dabench"
)

// refusedPrefix starts the error of a question the product did not
// answer (the analysis failed, or needed clarification), so that the
// summary counts it apart from a wrong answer.
const refusedPrefix = "refused: "

// runBenchDABench asks the DABench closed-form questions through the
// product's path: each question, with its constraints, is the request of
// one analysis (the analyses service, as `quarry analyze` runs it, offline
// planner and tools, over the question's CSV), and its @name[value]
// answers are filled from the analysis's result by reading its tables
// alone. Scores are upstream's, every question in the denominator; a
// question the analysis did not answer (failed, NEEDS_CLARIFICATION) is
// counted as refused, apart from a wrong answer. The numbers are given
// for all questions and for the held-out half (dabench.HeldOut).
func runBenchDABench(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench dabench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "benchmark data directory (default $QUARRY_DABENCH_DATA or ../shared/bench/dabench)")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	onlyFlag := fs.String("only", "", "comma-separated question ids to answer (default: all)")
	verbose := fs.Bool("verbose", false, "print one line per question on stderr")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	var only []int
	for _, s := range strings.Split(*onlyFlag, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		id, err := strconv.Atoi(s)
		if err != nil {
			return &usageError{fmt.Sprintf("--only: %q is not a question id", s)}
		}
		only = append(only, id)
	}
	dir, err := benchDataDir(*dataDir, getenv, "QUARRY_DABENCH_DATA", "dabench")
	if err != nil {
		return err
	}
	// The analyses' records, artifacts and audit log go to a scratch data
	// dir, removed afterwards.
	work, err := os.MkdirTemp("", "quarry-dabench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	a, closeJob, err := openJob(ctx, jobOptions{dataDir: work, getenv: func(string) string { return "" }, stderr: &syncWriter{w: stderr}})
	if err != nil {
		return err
	}
	defer closeJob()
	opt := dabench.Options{Dir: dir, Only: only}
	if *verbose {
		opt.Progress = stderr
	}
	var mu sync.Mutex
	wrong := map[int]bool{} // questions with a value given and wrong
	results, err := dabench.Run(ctx, opt, func(ctx context.Context, q dabench.Question) (string, error) {
		resp, err := answerDABench(ctx, a.Analyses, q)
		mu.Lock()
		wrong[q.ID] = wrongValue(q, resp)
		mu.Unlock()
		return resp, err
	})
	if err != nil && results == nil {
		return err
	}
	var public, held []dabench.Result
	for _, r := range results {
		public = append(public, r)
		if dabench.HeldOut(r.ID) {
			held = append(held, r)
		}
	}
	all, heldOut := tallyDABench(public, wrong), tallyDABench(held, wrong)
	s := dabench.Summarize(results)
	if *asJSON {
		return writeDABenchJSON(stdout, s, all, heldOut)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tquestions\tright\trefused\tincomplete\twrong")
	for _, t := range []struct {
		name string
		c    dabenchCounts
	}{{"public", all}, {"held-out half", heldOut}} {
		fmt.Fprintf(tw, "%s\t%d\t%d  %.1f%%\t%d  %.1f%%\t%d  %.1f%%\t%d  %.1f%%\n", t.name, t.c.Questions, t.c.Right, pct(t.c.Right, t.c.Questions),
			t.c.Refused, pct(t.c.Refused, t.c.Questions), t.c.Incomplete, pct(t.c.Incomplete, t.c.Questions), t.c.Wrong, pct(t.c.Wrong, t.c.Questions))
	}
	fmt.Fprintf(tw, "\nsub-answers (UASQ)\t\t%.1f%%\n", 100*s.SubanswerAccuracy)
	fmt.Fprintf(tw, "proportional (PASQ)\t\t%.1f%%\n", 100*s.ProportionalAccuracy)
	fmt.Fprintln(tw, "\nconcept\tcorrect\taccuracy")
	for _, k := range sortedScoreKeys(s.ByConcept) {
		c := s.ByConcept[k]
		fmt.Fprintf(tw, "%s\t%d/%d\t%.1f%%\n", k, c.Correct, c.Questions, 100*c.Accuracy)
	}
	fmt.Fprintln(tw, "\nlevel\tcorrect\taccuracy")
	for _, k := range sortedScoreKeys(s.ByLevel) {
		c := s.ByLevel[k]
		fmt.Fprintf(tw, "%s\t%d/%d\t%.1f%%\n", k, c.Correct, c.Questions, 100*c.Accuracy)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "\nAsked through `quarry analyze`'s path (analyses service, offline planner, tools); answers read from each result's tables.")
	fmt.Fprintln(stdout, "right: every sub-answer right; refused: the analysis failed or asked for clarification; incomplete: answered,")
	fmt.Fprintln(stdout, "some answers missing from its tables, none wrong; wrong: an answer given is wrong. Held-out half: sha256(id) starts with an even byte.")
	return err
}

// answerDABench runs one question as an analysis and fills its answers
// from the result.
func answerDABench(ctx context.Context, m *analyses.Service, q dabench.Question) (string, error) {
	text := strings.TrimSpace(q.Question)
	if c := strings.TrimSpace(q.Constraints); c != "" {
		text += "\n" + c
	}
	req := analysis.Request{
		Intent:       text,
		DataSources:  []analysis.DataSource{{Type: analysis.SourceCSV, FilePath: q.Path}},
		Deliverables: []string{analysis.DeliverTables, analysis.DeliverSummary},
		Constraints:  analysis.Constraints{RowLimit: analysis.MaxRowLimit},
	}
	rec, err := m.StartLocal(ctx, req)
	if err != nil {
		return "", fmt.Errorf("%s%s: %s", refusedPrefix, quarry.ErrorCode(err), quarry.ErrorMessage(err))
	}
	res, err := m.Wait(ctx, rec.RequestID)
	if err != nil {
		return "", err
	}
	if res.Status == analysis.StatusFailed {
		code, msg := "FAILED", "the analysis failed"
		if res.Error != nil {
			code, msg = res.Error.Code, res.Error.Message
		}
		if len(msg) > 300 {
			msg = msg[:300] + "…" // the progress line's; the reasons are in the result
		}
		return "", fmt.Errorf("%s%s: %s", refusedPrefix, code, msg)
	}
	specs := dabench.Specs(q.Format, q.Constraints)
	return dabench.Format(specs, fillAnswers(res, specs)), nil
}

// fillAnswers reads each answer's value from the result's tables, never
// from the question: a one-row table's column of the answer's kind (text
// or number) whose name matches the answer's name (after synonyms: avg is mean, r and coefficient are a
// correlation's, p is a p-value's), or an outlier step's row count for a
// count of outliers. An answer two columns match equally well, or none,
// is left out rather than guessed.
func fillAnswers(res *analysis.Result, specs []dabench.Spec) map[string]string {
	type cell struct {
		step, col string
		v         any
	}
	var cells []cell
	outlierRows := map[string]int{}
	ops := map[string]string{}
	if res.Plan != nil {
		for _, t := range res.Plan.Subtasks {
			if op, ok := t.Arguments["operation"].(string); ok {
				ops[t.TaskID] = op
			}
		}
	}
	for _, o := range res.Observations {
		if o.Status != analysis.ObsSuccess {
			continue
		}
		if ops[o.TaskID] == analysis.OpOutliers && o.RowCount != nil {
			outlierRows[o.TaskID] = *o.RowCount
		}
		// The data as it is saved: in memory or read back, the same JSON.
		var table struct {
			Columns []string `json:"columns"`
			Rows    [][]any  `json:"rows"`
		}
		raw, err := json.Marshal(o.Data)
		if err != nil || json.Unmarshal(raw, &table) != nil {
			continue
		}
		if len(table.Rows) != 1 || o.RowCount == nil || *o.RowCount != 1 {
			continue
		}
		for j, name := range table.Columns {
			if j < len(table.Rows[0]) && table.Rows[0][j] != nil {
				cells = append(cells, cell{o.TaskID, name, table.Rows[0][j]})
			}
		}
	}
	out := map[string]string{}
	picked := map[string][]string{} // answer names by the cell they read
	for _, s := range specs {
		want := answerTokens(s.Name)
		if want["outlier"] && (want["count"] || want["number"]) && len(outlierRows) == 1 {
			for _, n := range outlierRows {
				out[s.Name] = strconv.Itoa(n)
			}
			continue
		}
		best, tie, pick := 0, false, cell{}
		for _, c := range cells {
			// A text answer is read from text, a number from a number.
			if _, isText := c.v.(string); s.Kind != "" && isText != (s.Kind == dabench.KindText) {
				continue
			}
			n := 0
			for t := range answerTokens(c.col) {
				if want[t] {
					n++
				}
			}
			switch {
			case n > best:
				best, tie, pick = n, false, c
			case n == best && n > 0:
				tie = true
			}
		}
		if best == 0 || tie {
			continue
		}
		if v, ok := formatAnswer(pick.v, s); ok {
			out[s.Name] = v
			key := pick.step + "\x00" + pick.col
			picked[key] = append(picked[key], s.Name)
		}
	}
	// Two answers read from one cell are two different things the result
	// did not tell apart ("first class" and "third class" average ages
	// both read the overall average): neither is given.
	for _, names := range picked {
		if len(names) > 1 {
			for _, n := range names {
				delete(out, n)
			}
		}
	}
	return out
}

// answerSynonyms map the words of answer and column names to one word.
var answerSynonyms = map[string]string{
	"avg": "mean", "average": "mean", "r": "coefficient", "corr": "coefficient", "correlation": "coefficient",
	"coef": "coefficient", "rho": "coefficient", "pvalue": "p", "pval": "p", "stat": "statistic", "tstat": "statistic",
	"t": "statistic", "f": "statistic", "chi2": "statistic", "chi": "statistic", "outliers": "outlier", "num": "number",
	"rsquared": "r_squared", "r2": "r_squared", "std": "std", "stddev": "std", "rows": "count",
}

// answerStop are words of a name that say nothing about which value it is.
var answerStop = map[string]bool{"value": true, "the": true, "of": true, "val": true, "and": true, "in": true}

// answerTokens are the words of a name, lower case, after synonyms.
func answerTokens(name string) map[string]bool {
	low := strings.ToLower(name)
	out := map[string]bool{}
	if strings.Contains(low, "r_squared") || strings.Contains(low, "r2") || strings.Contains(low, "rsquared") {
		out["r_squared"] = true
		low = strings.NewReplacer("r_squared", " ", "rsquared", " ", "r2", " ").Replace(low)
	}
	for _, w := range strings.FieldsFunc(low, func(r rune) bool { return r == '_' || r == ' ' || r == '-' }) {
		if answerStop[w] {
			continue
		}
		if s, ok := answerSynonyms[w]; ok {
			w = s
		}
		out[w] = true
	}
	return out
}

// formatAnswer writes v as the answer's spec asks: rounded to its
// decimals, an integer, or text.
func formatAnswer(v any, s dabench.Spec) (string, bool) {
	if text, ok := v.(string); ok {
		return text, s.Kind == dabench.KindText || s.Kind == ""
	}
	f := quarry.AsFloat(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	d := s.Decimals
	if d < 0 {
		// The format gives no decimals: a whole number is written whole,
		// anything else with two decimals, the set's convention (the
		// rule the closed-form solver had).
		d = 2
		if s.Kind == dabench.KindInteger || f == math.Trunc(f) && math.Abs(f) < 1e15 {
			d = 0
		}
	}
	if s.Kind == dabench.KindInteger {
		d = 0
	}
	out := strconv.FormatFloat(f, 'f', d, 64) // the binary value rounded, as Python's format
	if strings.HasPrefix(out, "-") && strings.Trim(out, "-0.") == "" {
		out = out[1:] // -0.00 is 0.00
	}
	return out, true
}

// dabenchCounts are a set's questions by outcome: right (every answer
// right), refused (not answered: the analysis failed, asked for
// clarification, or never finished), incomplete (answered, no answer given
// wrong, some missing from the result's tables) and wrong (an answer given
// is wrong: the outcome that matters most).
type dabenchCounts struct {
	Questions  int `json:"questions"`
	Right      int `json:"right"`
	Refused    int `json:"refused"`
	Incomplete int `json:"incomplete"`
	Wrong      int `json:"wrong"`
}

// tallyDABench counts the results by outcome; wrong says which questions
// had an answer given and wrong.
func tallyDABench(rs []dabench.Result, wrong map[int]bool) dabenchCounts {
	c := dabenchCounts{Questions: len(rs)}
	for _, r := range rs {
		switch {
		case r.Err != "":
			c.Refused++ // refused, or no answer at all (a timeout)
		case r.Total > 0 && r.Correct == r.Total:
			c.Right++
		case wrong[r.ID]:
			c.Wrong++
		default:
			c.Incomplete++
		}
	}
	return c
}

// wrongValue reports whether the response gives an answer the labels say
// is wrong (an answer left out is not one).
func wrongValue(q dabench.Question, response string) bool {
	labels := map[string]string{}
	for _, a := range q.Answers {
		labels[a[0]] = a[1] // a name labelled twice keeps its later value, as upstream's dict
	}
	for name, v := range dabench.Extract(response) {
		if want, ok := labels[name]; ok && !dabench.Correct(v, want) {
			return true
		}
	}
	return false
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// dabenchScore is one concept's line in the JSON output.
type dabenchScore struct {
	Questions int     `json:"questions"`
	Correct   int     `json:"correct"`
	Accuracy  float64 `json:"accuracy"`
}

// writeDABenchJSON prints {"questions", "correct", "accuracy",
// "subanswer_accuracy", "public": {questions, right, refused, incomplete,
// wrong}, "held_out": {...}, "by_concept": {concept: {questions,
// correct, accuracy}}, "by_level": {...}}.
func writeDABenchJSON(w io.Writer, s dabench.Score, public, held dabenchCounts) error {
	out := struct {
		Questions         int                     `json:"questions"`
		Correct           int                     `json:"correct"`
		Accuracy          float64                 `json:"accuracy"`
		SubanswerAccuracy float64                 `json:"subanswer_accuracy"`
		Public            dabenchCounts           `json:"public"`
		HeldOut           dabenchCounts           `json:"held_out"`
		ByConcept         map[string]dabenchScore `json:"by_concept"`
		ByLevel           map[string]dabenchScore `json:"by_level"`
	}{Questions: s.Questions, Correct: s.CorrectQuestions, Accuracy: s.Accuracy, SubanswerAccuracy: s.SubanswerAccuracy,
		Public: public, HeldOut: held, ByConcept: map[string]dabenchScore{}, ByLevel: map[string]dabenchScore{}}
	for k, c := range s.ByConcept {
		out.ByConcept[k] = dabenchScore{c.Questions, c.Correct, c.Accuracy}
	}
	for k, c := range s.ByLevel {
		out.ByLevel[k] = dabenchScore{c.Questions, c.Correct, c.Accuracy}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func sortedScoreKeys(m map[string]dabench.ConceptScore) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
