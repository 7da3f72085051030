package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/quarry-dev/quarry/agent/analyze/closedform"
	"github.com/quarry-dev/quarry/duckdb"
	"github.com/quarry-dev/quarry/internal/dabench"
)

// runBenchDABench answers the DABench closed-form questions offline (no
// model, no network) with closedform.Answer, each over its CSV loaded
// into its own DuckDB engine, and scores them as upstream does with
// every question in the denominator: a missing answer is wrong.
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
	var fallbacks atomic.Int64
	opt := dabench.Options{Dir: dir, Only: only}
	if *verbose {
		opt.Progress = stderr
	}
	results, err := dabench.Run(ctx, opt, func(ctx context.Context, q dabench.Question) (string, error) {
		return answerDABench(ctx, q, &fallbacks)
	})
	if err != nil && results == nil {
		return err
	}
	s := dabench.Summarize(results)
	if *asJSON {
		return writeDABenchJSON(stdout, s)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "questions\t%d\n", s.Questions)
	fmt.Fprintf(tw, "fully correct (ABQ)\t%d\t%.1f%%\n", s.CorrectQuestions, 100*s.Accuracy)
	fmt.Fprintf(tw, "sub-answers (UASQ)\t\t%.1f%%\n", 100*s.SubanswerAccuracy)
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
	fmt.Fprintln(stdout, "\nAnswered offline by rules (agent/analyze/closedform); every question counts, a missing answer is wrong.")
	if n := fallbacks.Load(); n > 0 {
		fmt.Fprintf(stdout, "%d question(s) read their CSV with DuckDB's read_csv because the loader rejected the file.\n", n)
	}
	return err
}

// answerDABench answers one question over its CSV in a fresh engine.
// When the loader rejects the file (a header without names, a column it
// cannot profile), the question reads it with DuckDB's read_csv as text.
func answerDABench(ctx context.Context, q dabench.Question, fallbacks *atomic.Int64) (string, error) {
	e, err := duckdb.Open(duckdb.Options{MemoryLimit: "1GB", Threads: 1})
	if err != nil {
		return "", err
	}
	defer e.Close()
	table := duckdb.TableName(q.FileName, nil)
	if _, _, err := e.LoadCSV(ctx, table, q.Path); err != nil {
		fallbacks.Add(1)
		table = "read_csv('" + strings.ReplaceAll(q.Path, "'", "''") + "', header = true, all_varchar = true)"
	}
	specs := dabench.Specs(q.Format, q.Constraints)
	cs := make([]closedform.Spec, len(specs))
	for i, s := range specs {
		cs[i] = closedform.Spec{Name: s.Name, Decimals: s.Decimals, Kind: s.Kind}
	}
	vals, err := closedform.Answer(ctx, e, closedform.Question{
		Text: q.Question, Constraints: q.Constraints, Format: q.Format, Table: table,
	}, cs)
	if err != nil {
		return "", err
	}
	return dabench.Format(specs, vals), nil
}

// dabenchScore is one concept's line in the JSON output.
type dabenchScore struct {
	Questions int     `json:"questions"`
	Correct   int     `json:"correct"`
	Accuracy  float64 `json:"accuracy"`
}

// writeDABenchJSON prints {"questions", "correct", "accuracy",
// "subanswer_accuracy", "by_concept": {concept: {questions, correct,
// accuracy}}, "by_level": {...}}.
func writeDABenchJSON(w io.Writer, s dabench.Score) error {
	out := struct {
		Questions         int                     `json:"questions"`
		Correct           int                     `json:"correct"`
		Accuracy          float64                 `json:"accuracy"`
		SubanswerAccuracy float64                 `json:"subanswer_accuracy"`
		ByConcept         map[string]dabenchScore `json:"by_concept"`
		ByLevel           map[string]dabenchScore `json:"by_level"`
	}{Questions: s.Questions, Correct: s.CorrectQuestions, Accuracy: s.Accuracy, SubanswerAccuracy: s.SubanswerAccuracy,
		ByConcept: map[string]dabenchScore{}, ByLevel: map[string]dabenchScore{}}
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
