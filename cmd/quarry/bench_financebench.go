package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	// Latency is retrieval timed in a larger room, with --latency-chunks.
	Latency *latencyScore `json:"latency,omitempty"`
}

// latencyScore is how long retrieval takes per question in a room of
// Chunks chunks (the filings ingested again under other names).
type latencyScore struct {
	Chunks int     `json:"chunks"`
	P50MS  float64 `json:"p50_ms"`
	P95MS  float64 `json:"p95_ms"`
	MaxMS  float64 `json:"max_ms"`
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
	latencyChunks := fs.Int("latency-chunks", 0, "also time retrieval in a room of at least this many chunks (the filings ingested again under other names)")
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
	br, err := openBenchRoom(ctx, *cache, "financebench", "FinanceBench filings")
	if err != nil {
		return err
	}
	defer br.Close()
	st, svc, owner, r := br.store, br.svc, br.owner, br.room
	score := financeScore{Questions: len(qs), RecallAt: map[string]float64{}, RecallAtInDoc: map[string]float64{}}
	docs, err := ingestDir(ctx, svc, owner.ID, r.ID, filepath.Join(dir, "pdfs"), 1, *workers, stderr, &score)
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
		pages, err := ask.Retrieve(ctx, st, ask.Request{RoomID: r.ID, Docs: docs, Question: q.Question, K: 20})
		if err != nil {
			return err
		}
		askTime += time.Since(t0)
		d, ok := byName[q.DocName]
		var inDoc []ask.PageHit
		if ok {
			if inDoc, err = ask.Retrieve(ctx, st, ask.Request{RoomID: r.ID, Docs: docs, Question: q.Question, K: 20, Only: []string{d.ID}}); err != nil {
				return err
			}
		}
		for _, k := range recallKs {
			score.RecallAt[strconv.Itoa(k)] += pageRecall(pages, gold, k)
			score.RecallAtInDoc[strconv.Itoa(k)] += pageRecall(inDoc, gold, k)
		}
		a := ask.Extract(q.Question, pages, len(docs), ask.RarityOf(ctx, st, r.ID, q.Question))
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
	if *latencyChunks > 0 {
		chunks := 0
		for _, d := range docs {
			chunks += d.ChunkCount
		}
		copies := (*latencyChunks + chunks - 1) / max(chunks, 1)
		if score.Latency, err = timeRetrieval(ctx, svc, owner.ID, filepath.Join(dir, "pdfs"), copies, *workers, qs, stderr); err != nil {
			return err
		}
	}
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
	if l := score.Latency; l != nil {
		fmt.Fprintf(stdout, "retrieval in a room of %d chunks: p50 %.1f ms, p95 %.1f ms, max %.1f ms\n", l.Chunks, l.P50MS, l.P95MS, l.MaxMS)
	}
	return nil
}

// timeRetrieval ingests the filings copies times into a room of their
// own and times each question's retrieval there.
func timeRetrieval(ctx context.Context, svc *rooms.Service, userID, dir string, copies, workers int, qs []financeQuestion, stderr io.Writer) (*latencyScore, error) {
	r, err := svc.Room(ctx, userID, "financebench-latency")
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		r, err = svc.CreateRoom(ctx, userID, "financebench-latency", "FinanceBench filings, several times over")
	}
	if err != nil {
		return nil, err
	}
	docs, err := ingestDir(ctx, svc, userID, r.ID, dir, copies, workers, stderr, &financeScore{})
	if err != nil {
		return nil, err
	}
	l := &latencyScore{}
	for _, d := range docs {
		l.Chunks += d.ChunkCount
	}
	// The first search reads the room's word counts; it is not a
	// question's time.
	if _, err := ask.Retrieve(ctx, svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: qs[0].Question, K: 20}); err != nil {
		return nil, err
	}
	var ms []float64
	for _, q := range qs {
		t0 := time.Now()
		if _, err := ask.Retrieve(ctx, svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: q.Question, K: 20}); err != nil {
			return nil, err
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
	}
	slices.Sort(ms)
	l.P50MS, l.P95MS, l.MaxMS = round3(percentile(ms, 0.50)), round3(percentile(ms, 0.95)), round3(ms[len(ms)-1])
	return l, nil
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
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
	var out []financeQuestion
	err := readJSONLines(path, func(q financeQuestion) error {
		out = append(out, q)
		return nil
	})
	return out, err
}

// readJSONLines decodes each non-blank line of a JSON Lines file as a T
// and passes it to each. Errors: NOT_FOUND for a missing file, INVALID
// naming the line for one that is not a T, or each's error with the line.
func readJSONLines[T any](path string, each func(T) error) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return quarry.Errorf(quarry.ECodeNotFound, "%s not found", path)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return quarry.Errorf(quarry.ECodeInvalid, "%s line %d: %w", path, n, err)
		}
		if err := each(v); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// benchRoom is a benchmark's room in a store of its own: in the --cache
// directory, kept for the next run, or in a temporary one that Close
// removes.
type benchRoom struct {
	store *sqlite.Rooms
	svc   *rooms.Service
	owner *room.User
	room  *room.Room
	tmp   string
}

// openBenchRoom opens the store in cache (a temporary directory when
// cache is "") and the local owner's room called name, creating it when
// it is not there yet.
func openBenchRoom(ctx context.Context, cache, name, description string) (*benchRoom, error) {
	b := &benchRoom{}
	dir := cache
	if dir == "" {
		tmp, err := os.MkdirTemp("", "quarry-"+name+"-")
		if err != nil {
			return nil, err
		}
		dir, b.tmp = tmp, tmp
	}
	st, err := sqlite.OpenRooms(filepath.Join(dir, "db", "rooms.db"))
	if err != nil {
		b.Close()
		return nil, err
	}
	b.store, b.svc = st, rooms.New(rooms.Config{Store: st, Dir: dir})
	if b.owner, err = b.svc.EnsureUser(ctx, room.LocalOwner); err != nil {
		b.Close()
		return nil, err
	}
	b.room, err = b.svc.Room(ctx, b.owner.ID, name)
	if quarry.ErrorCode(err) == quarry.ECodeNotFound {
		b.room, err = b.svc.CreateRoom(ctx, b.owner.ID, name, description)
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// Close closes the store and removes a temporary one.
func (b *benchRoom) Close() error {
	var err error
	if b.store != nil {
		err = b.store.Close()
	}
	if b.tmp != "" {
		err = cmpErr(err, os.RemoveAll(b.tmp))
	}
	return err
}

// benchFile is a document to ingest: its name in the room and its bytes.
type benchFile struct {
	name string
	open func() (io.ReadCloser, error)
}

// ingestDir uploads and processes every file of dir into a room, copies
// times (the second copy of a.pdf is named "copy2-a.pdf"), unless a
// document of that name is already there and completed.
func ingestDir(ctx context.Context, svc *rooms.Service, userID, roomID, dir string, copies, workers int, stderr io.Writer, score *financeScore) ([]room.Document, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []benchFile
	for k := 1; k <= copies; k++ {
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			name, path := e.Name(), filepath.Join(dir, e.Name())
			open := func() (io.ReadCloser, error) { return os.Open(path) }
			if k > 1 {
				// A copy is another document: a room keeps one of each
				// content, so each copy ends with a comment line of its
				// own after the PDF's end, which readers pass over.
				name = fmt.Sprintf("copy%d-%s", k, name)
				open = func() (io.ReadCloser, error) { return withTrailer(path, fmt.Sprintf("\n%% copy %d\n", k)) }
			}
			files = append(files, benchFile{name, open})
		}
	}
	docs, stats, err := ingestFiles(ctx, svc, userID, roomID, files, workers, stderr)
	if err != nil {
		return nil, err
	}
	if stats.documents > 0 {
		score.IngestSeconds = round3(stats.seconds)
		score.PagesPerSecond = round3(float64(stats.pages) / stats.seconds)
	}
	return docs, nil
}

// ingestStats is what ingestFiles did: documents processed, their pages,
// and how long it took.
type ingestStats struct {
	documents, pages int
	seconds          float64
}

// ingestFiles uploads and processes files into a room, workers at a time,
// except those a completed document of the same name already holds
// (documents left pending or failed by an earlier run are deleted first).
// It returns the room's documents. It prints a line per document, or per
// tenth of them when there are more than 100.
func ingestFiles(ctx context.Context, svc *rooms.Service, userID, roomID string, files []benchFile, workers int, stderr io.Writer) ([]room.Document, ingestStats, error) {
	var stats ingestStats
	have, err := svc.Documents(ctx, userID, roomID)
	if err != nil {
		return nil, stats, err
	}
	done := map[string]bool{}
	for _, d := range have {
		if d.Status == room.StatusCompleted {
			done[d.Name] = true
		} else if err := svc.DeleteDocument(ctx, userID, d.ID); err != nil {
			return nil, stats, err
		}
	}
	var todo []benchFile
	for _, f := range files {
		if !done[f.name] {
			todo = append(todo, f)
		}
	}
	every := max(1, len(todo)/10)
	if len(todo) <= 100 {
		every = 1
	}
	start := time.Now()
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, max(1, workers))
	var wg sync.WaitGroup
	for _, u := range todo {
		name := u.name
		f, err := u.open()
		if err != nil {
			wg.Wait()
			return nil, stats, err
		}
		d, err := svc.Upload(ctx, userID, roomID, name, f)
		f.Close()
		if err != nil {
			wg.Wait()
			return nil, stats, err
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
				stats.documents++
				stats.pages += got.PageCount
				if every == 1 {
					fmt.Fprintf(stderr, "ingested %s: %d pages, %d chunks\n", name, got.PageCount, got.ChunkCount)
				} else if stats.documents%every == 0 || stats.documents == len(todo) {
					fmt.Fprintf(stderr, "ingested %d of %d documents\n", stats.documents, len(todo))
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, stats, firstErr
	}
	stats.seconds = time.Since(start).Seconds()
	docs, err := svc.Documents(ctx, userID, roomID)
	return docs, stats, err
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// withTrailer opens path to read it with trailer after its end.
func withTrailer(path, trailer string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(f, strings.NewReader(trailer)), f}, nil
}
