package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/agent/ask"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
)

// financeQuestion is one FinanceBench record, as much of it as scoring
// needs.
type financeQuestion struct {
	ID       string `json:"financebench_id"`
	DocName  string `json:"doc_name"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Evidence []struct {
		DocName string `json:"doc_name"`
		Page0   int    `json:"evidence_page_num"`
	} `json:"evidence"`
}

// financeScore is the JSON output of quarry bench financebench.
type financeScore struct {
	Questions      int                `json:"questions"`
	RecallAt       map[string]float64 `json:"recall_at"`
	RecallAtInDoc  map[string]float64 `json:"recall_at_in_doc"`
	AnswerHit      float64            `json:"answer_hit"`
	Documents      int                `json:"documents"`
	Pages          int                `json:"pages"`
	IngestSeconds  float64            `json:"ingest_seconds"`
	PagesPerSecond float64            `json:"pages_per_second"`
	MeanAskMS      float64            `json:"mean_ask_ms"`
}

var recallKs = []int{1, 5, 10, 20}

// runBenchFinanceBench ingests the FinanceBench PDFs into one room and
// scores page retrieval and offline answers on its questions: gold-page
// recall at 1, 5, 10 and 20 across the room and within the question's
// document, and the share of answers that quote the gold number.
func runBenchFinanceBench(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench financebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "benchmark data directory (default $QUARRY_FINANCEBENCH_DATA or ../shared/bench/financebench)")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	cache := fs.String("cache", "", "keep the ingested room in this directory and reuse it on the next run")
	verbose := fs.Bool("verbose", false, "print one line per question on stderr")
	workers := fs.Int("workers", 2, "documents processed at once")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	dir, err := benchDataDir(*dataDir, getenv, "QUARRY_FINANCEBENCH_DATA", "financebench")
	if err != nil {
		return err
	}
	qs, err := readFinanceQuestions(filepath.Join(dir, "questions.jsonl"))
	if err != nil {
		return err
	}
	store := *cache
	if store == "" {
		tmp, err := os.MkdirTemp("", "quarry-financebench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		store = tmp
	}
	st, err := sqlite.OpenRooms(filepath.Join(store, "db", "rooms.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	svc := &rooms.Service{Store: st, Dir: store}
	owner, err := svc.EnsureUser(ctx, rooms.LocalOwner)
	if err != nil {
		return err
	}
	score := financeScore{Questions: len(qs), RecallAt: map[string]float64{}, RecallAtInDoc: map[string]float64{}}
	r, err := svc.Room(ctx, owner.ID, "financebench")
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		r, err = svc.CreateRoom(ctx, owner.ID, "financebench", "FinanceBench filings")
	}
	if err != nil {
		return err
	}
	docs, err := ingestDir(ctx, svc, owner.ID, r.ID, filepath.Join(dir, "pdfs"), *workers, stderr, &score)
	if err != nil {
		return err
	}
	byName := map[string]room.Document{}
	for _, d := range docs {
		byName[strings.TrimSuffix(d.Name, filepath.Ext(d.Name))] = d
		score.Pages += d.PageCount
	}
	score.Documents = len(docs)
	hits := 0
	var askTime time.Duration
	for _, q := range qs {
		gold := map[string]bool{}
		for _, e := range q.Evidence {
			gold[fmt.Sprintf("%s#%d", e.DocName, e.Page0+1)] = true
		}
		t0 := time.Now()
		pages, err := ask.Retrieve(ctx, st, r.ID, docs, q.Question, 20)
		if err != nil {
			return err
		}
		askTime += time.Since(t0)
		d, ok := byName[q.DocName]
		var inDoc []ask.PageHit
		if ok {
			if inDoc, err = ask.Retrieve(ctx, st, r.ID, docs, q.Question, 20, d.ID); err != nil {
				return err
			}
		}
		for _, k := range recallKs {
			score.RecallAt[strconv.Itoa(k)] += pageRecall(pages, gold, k)
			score.RecallAtInDoc[strconv.Itoa(k)] += pageRecall(inDoc, gold, k)
		}
		a := ask.Extract(q.Question, pages, len(docs))
		hit := answerHasNumber(a.Text, q.Answer)
		if hit {
			hits++
		}
		if *verbose {
			top := ""
			for _, p := range pages[:min(3, len(pages))] {
				top += fmt.Sprintf(" %s#%d", strings.TrimSuffix(p.DocumentName, ".pdf"), p.PageNumber)
			}
			fmt.Fprintf(stderr, "%s r@5=%.2f in-doc r@5=%.2f answer=%v gold=%v top:%s\n", q.ID, pageRecall(pages, gold, 5), pageRecall(inDoc, gold, 5), hit, keys(gold), top)
		}
	}
	n := float64(len(qs))
	for k := range score.RecallAt {
		score.RecallAt[k] = round3(score.RecallAt[k] / n)
		score.RecallAtInDoc[k] = round3(score.RecallAtInDoc[k] / n)
	}
	score.AnswerHit = round3(float64(hits) / n)
	score.MeanAskMS = round3(float64(askTime.Milliseconds()) / n)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(score)
	}
	fmt.Fprintf(stdout, "FinanceBench: %d questions over %d documents (%d pages), offline\n", score.Questions, score.Documents, score.Pages)
	fmt.Fprintf(stdout, "ingestion: %.1f s, %.0f pages/s\n", score.IngestSeconds, score.PagesPerSecond)
	fmt.Fprintf(stdout, "%-22s %6s %6s %6s %6s\n", "gold-page recall", "@1", "@5", "@10", "@20")
	fmt.Fprintf(stdout, "%-22s %6.3f %6.3f %6.3f %6.3f\n", "across the room", score.RecallAt["1"], score.RecallAt["5"], score.RecallAt["10"], score.RecallAt["20"])
	fmt.Fprintf(stdout, "%-22s %6.3f %6.3f %6.3f %6.3f\n", "within the document", score.RecallAtInDoc["1"], score.RecallAtInDoc["5"], score.RecallAtInDoc["10"], score.RecallAtInDoc["20"])
	fmt.Fprintf(stdout, "answers quoting the gold number: %.3f\nretrieval: %.1f ms per question\n", score.AnswerHit, score.MeanAskMS)
	return nil
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// pageRecall is the share of the gold pages among the first k pages.
func pageRecall(pages []ask.PageHit, gold map[string]bool, k int) float64 {
	if len(gold) == 0 {
		return 0
	}
	found := 0
	for _, p := range pages[:min(k, len(pages))] {
		if gold[fmt.Sprintf("%s#%d", strings.TrimSuffix(p.DocumentName, filepath.Ext(p.DocumentName)), p.PageNumber)] {
			found++
		}
	}
	return float64(found) / float64(len(gold))
}

var benchNumberRe = regexp.MustCompile(`-?\d[\d,]*(\.\d+)?`)

// answerHasNumber reports whether the answer quotes the gold answer's
// first number (commas and signs aside, to the gold's precision or within
// 0.5%).
func answerHasNumber(answer, goldAnswer string) bool {
	g := benchNumberRe.FindString(goldAnswer)
	if g == "" {
		return false
	}
	gv, err := strconv.ParseFloat(strings.ReplaceAll(g, ",", ""), 64)
	if err != nil || gv == 0 {
		return false
	}
	for _, a := range benchNumberRe.FindAllString(answer, -1) {
		av, err := strconv.ParseFloat(strings.ReplaceAll(a, ",", ""), 64)
		if err != nil {
			continue
		}
		if math.Abs(math.Abs(av)-math.Abs(gv)) <= 0.005*math.Abs(gv) {
			return true
		}
	}
	return false
}

func readFinanceQuestions(path string) ([]financeQuestion, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []financeQuestion
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var q financeQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, q)
	}
	return out, sc.Err()
}

// ingestDir uploads and processes every file of dir into a room, unless
// a document of that name is already there and completed.
func ingestDir(ctx context.Context, svc *rooms.Service, userID, roomID, dir string, workers int, stderr io.Writer, score *financeScore) ([]room.Document, error) {
	have, err := svc.Documents(ctx, userID, roomID)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, d := range have {
		if d.Status == room.StatusCompleted {
			done[d.Name] = true
		} else if err := svc.DeleteDocument(ctx, userID, d.ID); err != nil {
			return nil, err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var todo []string
	for _, e := range entries {
		if !e.IsDir() && !done[e.Name()] {
			todo = append(todo, e.Name())
		}
	}
	start := time.Now()
	pages := 0
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, max(1, workers))
	var wg sync.WaitGroup
	for _, name := range todo {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		d, err := svc.Upload(ctx, userID, roomID, name, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			err := svc.Process(ctx, d.ID)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				firstErr = cmpErr(firstErr, fmt.Errorf("%s: %w", name, err))
				return
			}
			if got, err := svc.Document(ctx, userID, d.ID); err == nil {
				pages += got.PageCount
				fmt.Fprintf(stderr, "ingested %s: %d pages, %d chunks\n", name, got.PageCount, got.ChunkCount)
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if len(todo) > 0 {
		score.IngestSeconds = round3(time.Since(start).Seconds())
		score.PagesPerSecond = round3(float64(pages) / time.Since(start).Seconds())
	}
	return svc.Documents(ctx, userID, roomID)
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
