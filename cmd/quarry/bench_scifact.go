package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/ask"
)

// scifactDoc is one abstract of a BEIR corpus.jsonl.
type scifactDoc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// scifactQuery is one claim of a BEIR queries.jsonl.
type scifactQuery struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

// scifactScore is the JSON output of quarry bench scifact.
type scifactScore struct {
	Split         string  `json:"split"`
	NDCGAt10      float64 `json:"ndcg_at_10"`
	RecallAt100   float64 `json:"recall_at_100"`
	Queries       int     `json:"queries"`
	Documents     int     `json:"documents"`
	Chunks        int     `json:"chunks"`
	IngestSeconds float64 `json:"ingest_seconds"`
	MeanQueryMS   float64 `json:"mean_query_ms"`
	P95QueryMS    float64 `json:"p95_query_ms"`
}

// scifactDepth is how many pages each claim retrieves: enough for the
// 100 documents recall@100 looks at, abstracts having a page or two.
const scifactDepth = 1000

// runBenchSciFact ingests the SciFact abstracts into one room, each a
// text document named by its id with its title as the first line, ranks
// them for each claim of a qrels split with the rooms' retrieval (a
// document ranks as its best page), and scores the rankings with nDCG@10
// and recall@100 as BEIR does.
func runBenchSciFact(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench scifact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "benchmark data directory (default $QUARRY_SCIFACT_DATA or ../shared/bench/scifact)")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	cache := fs.String("cache", "", "keep the ingested room in this directory and reuse it on the next run")
	split := fs.String("split", "test", "the qrels to score: test (the evaluation split) or train (for tuning)")
	verbose := fs.Bool("verbose", false, "print one line per claim on stderr")
	workers := fs.Int("workers", 2, "documents processed at once")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *split != "test" && *split != "train" {
		return &usageError{fmt.Sprintf("unknown split %q (want test or train)", *split)}
	}
	dir, err := benchDataDir(*dataDir, getenv, "QUARRY_SCIFACT_DATA", "scifact")
	if err != nil {
		return err
	}
	set, err := readSciFact(dir, *split)
	if err != nil {
		return err
	}
	br, err := openBenchRoom(ctx, *cache, "scifact", "SciFact abstracts")
	if err != nil {
		return err
	}
	defer br.Close()
	files := make([]benchFile, len(set.docs))
	for i, d := range set.docs {
		body := d.Title + "\n\n" + d.Text
		files[i] = benchFile{d.ID + ".txt", func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }}
	}
	docs, stats, err := ingestFiles(ctx, br.svc, br.owner.ID, br.room.ID, files, *workers, stderr)
	if err != nil {
		return err
	}
	score := scifactScore{Split: *split, Queries: len(set.queries), Documents: len(docs)}
	if stats.documents > 0 {
		score.IngestSeconds = round3(stats.seconds)
	}
	for _, d := range docs {
		score.Chunks += d.ChunkCount
	}
	var ms []float64
	for _, q := range set.queries {
		t0 := time.Now()
		pages, err := ask.Retrieve(ctx, br.store, ask.Request{RoomID: br.room.ID, Docs: docs, Question: q.Text, K: scifactDepth})
		if err != nil {
			return err
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
		ranked := rankDocuments(pages, q.ID)
		rel := set.qrels[q.ID]
		ndcg, recall := ndcgAt(ranked, rel, 10), recallAt(ranked, rel, 100)
		score.NDCGAt10 += ndcg
		score.RecallAt100 += recall
		if *verbose {
			fmt.Fprintf(stderr, "%s ndcg@10=%.3f r@100=%.2f relevant at %v: %s\n", q.ID, ndcg, recall, ranksOf(ranked, rel), q.Text)
		}
	}
	n := float64(len(set.queries))
	score.NDCGAt10 = round3(score.NDCGAt10 / n)
	score.RecallAt100 = round3(score.RecallAt100 / n)
	var total float64
	for _, m := range ms {
		total += m
	}
	score.MeanQueryMS = round3(total / n)
	slices.Sort(ms)
	score.P95QueryMS = round3(percentile(ms, 0.95))
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(score)
	}
	fmt.Fprintf(stdout, "SciFact (%s): %d claims over %d abstracts (%d chunks), offline\n", score.Split, score.Queries, score.Documents, score.Chunks)
	if score.IngestSeconds > 0 {
		fmt.Fprintf(stdout, "ingestion: %.1f s\n", score.IngestSeconds)
	}
	fmt.Fprintf(stdout, "nDCG@10 %.3f  recall@100 %.3f  (BM25 reference: 0.679 and 0.925)\n", score.NDCGAt10, score.RecallAt100)
	fmt.Fprintf(stdout, "retrieval: %.1f ms per claim, p95 %.1f ms\n", score.MeanQueryMS, score.P95QueryMS)
	return nil
}

// scifactSet is a BEIR data set read for one split: every document, the
// split's queries in qrels order, and their graded judgments.
type scifactSet struct {
	docs    []scifactDoc
	queries []scifactQuery
	qrels   map[string]map[string]int
}

// readSciFact reads dir's corpus.jsonl, queries.jsonl and
// qrels/SPLIT.tsv (BEIR layout). Every judged query must be in
// queries.jsonl and every judged document in the corpus. Errors:
// NOT_FOUND for a missing file, INVALID for a malformed one.
func readSciFact(dir, split string) (*scifactSet, error) {
	set := &scifactSet{}
	ids := map[string]bool{}
	err := readJSONLines(filepath.Join(dir, "corpus.jsonl"), func(d scifactDoc) error {
		switch {
		case d.ID == "":
			return quarry.Errorf(quarry.ECodeInvalid, "a document without an _id")
		case ids[d.ID]:
			return quarry.Errorf(quarry.ECodeInvalid, "document %s appears twice", d.ID)
		case strings.TrimSpace(d.Title+d.Text) == "":
			return quarry.Errorf(quarry.ECodeInvalid, "document %s has no title and no text", d.ID)
		}
		ids[d.ID] = true
		set.docs = append(set.docs, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(set.docs) == 0 {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "%s has no documents", filepath.Join(dir, "corpus.jsonl"))
	}
	claims := map[string]string{}
	err = readJSONLines(filepath.Join(dir, "queries.jsonl"), func(q scifactQuery) error {
		if q.ID == "" {
			return quarry.Errorf(quarry.ECodeInvalid, "a query without an _id")
		}
		claims[q.ID] = q.Text
		return nil
	})
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "qrels", split+".tsv")
	var order []string
	if set.qrels, order, err = readQrels(path); err != nil {
		return nil, err
	}
	for _, qid := range order {
		text, ok := claims[qid]
		if !ok {
			return nil, quarry.Errorf(quarry.ECodeInvalid, "%s judges query %s, which queries.jsonl does not have", path, qid)
		}
		for did := range set.qrels[qid] {
			if !ids[did] {
				return nil, quarry.Errorf(quarry.ECodeInvalid, "%s judges document %s, which corpus.jsonl does not have", path, did)
			}
		}
		set.queries = append(set.queries, scifactQuery{qid, text})
	}
	return set, nil
}

// readQrels reads a BEIR qrels file: a header, then lines "query-id TAB
// corpus-id TAB score". It returns the positive judgments by query, and
// the queries with one in the order they first appear.
func readQrels(path string) (map[string]map[string]int, []string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, quarry.Errorf(quarry.ECodeNotFound, "%s not found", path)
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	qrels := map[string]map[string]int{}
	var order []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if n == 1 && strings.HasPrefix(line, "query-id") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			return nil, nil, quarry.Errorf(quarry.ECodeInvalid, "%s line %d: want query-id, corpus-id and score separated by tabs, got %q", path, n, line)
		}
		grade, err := strconv.Atoi(strings.TrimSpace(fields[2]))
		if err != nil {
			return nil, nil, quarry.Errorf(quarry.ECodeInvalid, "%s line %d: score %q is not an integer", path, n, fields[2])
		}
		if grade <= 0 {
			continue
		}
		qid, did := strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1])
		if qrels[qid] == nil {
			qrels[qid] = map[string]int{}
			order = append(order, qid)
		}
		qrels[qid][did] = grade
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if len(order) == 0 {
		return nil, nil, quarry.Errorf(quarry.ECodeInvalid, "%s has no positive judgment", path)
	}
	return qrels, order, nil
}

// rankDocuments turns pages, best first, into document ids (the names
// without ".txt"), each at its best page. Like BEIR it drops a document
// whose id is the query's.
func rankDocuments(pages []ask.PageHit, queryID string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range pages {
		id := strings.TrimSuffix(p.DocumentName, ".txt")
		if !seen[id] && id != queryID {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// ndcgAt is nDCG@k as trec_eval's ndcg_cut (and so BEIR) computes it: the
// gain of the document at rank r is its judged grade, discounted by
// log2(r+1), and the ideal DCG orders the query's judged grades best
// first.
func ndcgAt(ranked []string, rel map[string]int, k int) float64 {
	var dcg float64
	for i, id := range ranked[:min(k, len(ranked))] {
		dcg += float64(rel[id]) / math.Log2(float64(i+2))
	}
	grades := make([]int, 0, len(rel))
	for _, g := range rel {
		grades = append(grades, g)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(grades)))
	var ideal float64
	for i, g := range grades[:min(k, len(grades))] {
		ideal += float64(g) / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// recallAt is the share of the judged-relevant documents among the first
// k.
func recallAt(ranked []string, rel map[string]int, k int) float64 {
	if len(rel) == 0 {
		return 0
	}
	found := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			found++
		}
	}
	return float64(found) / float64(len(rel))
}

// ranksOf lists the 1-based ranks of the relevant documents, 0 for one
// not retrieved.
func ranksOf(ranked []string, rel map[string]int) []int {
	var out []int
	for id := range rel {
		out = append(out, slices.Index(ranked, id)+1)
	}
	slices.Sort(out)
	return out
}
