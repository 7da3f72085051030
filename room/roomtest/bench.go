package roomtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
)

// Bench50k times both searches of a store in one room of 50,000 chunks
// (50 documents of 1,000 chunks, loadBenchRoom, 384-dimension vectors),
// acting as the room's owner so that a store's access checks (on
// PostgreSQL, its row-level security policies) are in the path. Each
// search reports its p50 and p95 latency over its iterations: three words
// of the vocabulary, 40 chunks (Words); the terms of benchQuestions in
// turn, 300 chunks with all their terms or the 16 rarest (Questions,
// Questions16), and as agent/ask searches them, the 16 rarest read up to
// benchPostings postings (Questions16P), the same within 3 documents, as
// a question routed to them (Routed16P), and 40 chunks with the 6 rarest,
// the room-wide net beside that (Net6P); 40 nearest vectors (Vectors).
// Every store runs it, so their numbers compare:
//
//	go test ./sqlite ./postgres -run - -bench Search50k -benchtime 200x -timeout 30m
func Bench50k(b *testing.B, st room.Store) {
	const docs, perDoc, dims = 50, 1000, 384
	r, owner := loadBenchRoom(b, st, docs, perDoc, dims)
	benchSearches(b, st, room.WithActor(context.Background(), owner), r.ID, dims)
}

// benchWords are the commonest words of the benchmark's vocabulary, most
// common first, as a room of filings uses them: the rest of its 20,000
// words are made up (w123). Ranks follow a Zipf law, so "million" is in
// nearly every chunk, "revenue" in about one in five and "goodwill" in a
// few hundred.
var benchWords = strings.Fields(`the of and in to million total net for year
	company 2022 2021 income our as or by financial december operating cash on tax
	assets revenue sales is with 2020 expenses costs statements results interest
	share stock period value related fair including which are based certain
	business from operations liabilities per equity other at increase decrease
	consolidated billion compared primarily due capital approximately fiscal quarter
	adjusted products services segment customers market management risk changes
	provision deferred credit debt long-term term notes payable receivable
	accounts inventories property plant equipment depreciation amortization
	investments gross margin earnings diluted basic shares common dividends
	dividend paid declared repurchase program purchases additions expenditures
	activities investing financing flow free acquisitions acquired goodwill
	intangible impairment lease leases pension benefit compensation employees
	restructuring charges legal contingencies revenues recognized contracts
	performance obligations backlog guidance outlook effective rate statutory
	foreign currency exchange hedging derivative borrowings facility revolving
	covenant maturity senior unsecured bonds coupon liquidity resources
	headcount workforce inventory merchandise warehouse stores franchise
	subscribers advertising royalties licensing patents litigation settlement
	3m amcor pepsico boeing verizon adobe costco walmart nike netflix`)

// benchQuestions are questions a deal team asks of filings, written the
// way FinanceBench writes them: their terms (retrieve.Terms) are what
// agent/ask searches.
var benchQuestions = []string{
	"What is the FY2022 capital expenditure amount (in USD millions) for 3M? Give a response to the question by relying on the details shown in the cash flow statement.",
	"What was the total revenue of Amcor in fiscal 2022?",
	"Does PepsiCo have an improving gross margin profile as of 2022? If gross margin is not a useful metric for a company like this, then please state that and explain why.",
	"What is Boeing's year-end FY2021 total amount of inventories (in USD millions)? Base your judgement on information provided in the balance sheet.",
	"How much did Verizon pay in dividends in 2022 and how does that compare with the prior year?",
	"What are the major acquisitions that Adobe completed in fiscal 2022, and how much goodwill was recognized?",
	"What drove the change in Costco's operating income between FY2021 and FY2022?",
	"Using the cash flow statement, what was Walmart's free cash flow in fiscal 2022, defined as operating cash flow minus capital expenditures?",
	"What is Nike's effective tax rate for fiscal 2022 and what explains the difference from the statutory rate?",
	"How many paid subscribers did Netflix report at the end of 2022, and what was the change in streaming revenue?",
	"What is the quick ratio of 3M as of the end of FY2022, computed from cash, marketable securities, receivables and current liabilities?",
	"Which reportable segment of Amcor had the largest decline in adjusted EBIT margin in 2022?",
	"What were PepsiCo's restructuring and impairment charges in 2022, and which segments did they affect?",
	"What is the amount of long-term debt maturing within the next five years for Boeing, according to the notes?",
	"Did Verizon's revolving credit facility have any borrowings outstanding at year end, and what covenants apply to it?",
	"What share repurchase program did Adobe announce and how many shares were repurchased in fiscal 2022?",
	"What was Costco's membership fee revenue in FY2022 and how many paid members did it have?",
	"What legal contingencies and litigation settlements did Walmart disclose related to opioids, and how much was accrued?",
	"How did foreign currency exchange rates affect Nike's revenues in fiscal 2022, and what hedging does it use?",
	"What is the diluted earnings per share of Netflix for 2022 compared with 2021, and what drove the change in net income?",
}

// loadBenchRoom fills a new room with docs documents of perDoc chunks,
// ~60 words each from a 20,000-word Zipf vocabulary whose commonest words
// are benchWords, with dims-dimension vectors; it returns the room and
// the id of its owner.
func loadBenchRoom(tb testing.TB, st room.Store, docs, perDoc, dims int) (*room.Room, string) {
	ctx := Ctx()
	rng := rand.New(rand.NewPCG(1, 2))
	word := benchVocabulary(rng)
	owner := &room.User{ID: quarry.NewID(), Name: "bench", CreatedAt: time.Now()}
	mustBench(tb, st.CreateUser(ctx, owner, ""))
	r := &room.Room{ID: quarry.NewID(), Name: "bench", CreatedBy: owner.ID, CreatedAt: time.Now()}
	mustBench(tb, st.CreateRoom(ctx, r, owner.ID))
	start := time.Now()
	for i := range docs {
		d := &room.Document{ID: quarry.NewID(), RoomID: r.ID, Name: fmt.Sprintf("doc-%d.pdf", i), Format: "pdf", Status: room.StatusPending,
			UploadedBy: owner.ID, CreatedAt: time.Now(), UpdatedAt: time.Now()}
		mustBench(tb, st.CreateDocument(ctx, d))
		var pages []room.Page
		var chunks []room.Chunk
		for c := range perDoc {
			if c%10 == 0 {
				pages = append(pages, room.Page{ID: quarry.NewID(), DocumentID: d.ID, Number: len(pages) + 1, Text: "page"})
			}
			words := make([]string, 60)
			for w := range words {
				words[w] = word()
			}
			text := strings.Join(words, " ")
			vec := make([]float32, dims)
			for k := range vec {
				vec[k] = rng.Float32()*2 - 1
			}
			chunks = append(chunks, room.Chunk{ID: quarry.NewID(), DocumentID: d.ID, PageID: pages[len(pages)-1].ID, Index: c, Text: text,
				TokenCount: 80, StartChar: 0, EndChar: len(text), Embedding: vec, EmbeddingModel: "bench"})
		}
		mustBench(tb, st.Complete(ctx, d, pages, chunks))
	}
	tb.Logf("loaded %d chunks in %v", docs*perDoc, time.Since(start).Round(time.Second))
	return r, owner.ID
}

// benchVocabulary returns a source of words drawn by a Zipf law over
// 20,000 ranks: benchWords first, then every other word of
// benchQuestions at every 23rd rank (in 0.2-4% of the chunks), made-up
// words between.
func benchVocabulary(rng *rand.Rand) func() string {
	vocab := make([]string, 20000)
	for k := range vocab {
		vocab[k] = fmt.Sprintf("w%d", k)
	}
	copy(vocab, benchWords)
	next := len(benchWords)
	for _, q := range benchQuestions {
		for _, t := range retrieve.Terms(q) {
			if !slices.Contains(vocab[:next], t) {
				vocab[next] = t
				next += 23
			}
		}
	}
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	return func() string { return vocab[zipf.Uint64()] }
}

// benchPostings is the MaxPostings agent/ask searches with.
const benchPostings = 4000

func benchSearches(b *testing.B, st room.Store, ctx context.Context, roomID string, dims int) {
	rng := rand.New(rand.NewPCG(3, 4))
	word := benchVocabulary(rng)
	timed := func(name string, search func(i int) error) {
		b.Run(name, func(b *testing.B) {
			var times []time.Duration
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				if err := search(i); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(t0))
			}
			slices.Sort(times)
			pct := func(p float64) float64 {
				return float64(times[min(len(times)-1, int(p*float64(len(times))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.95), "p95-ms")
		})
	}
	chunks := func(q room.ChunkQuery) error {
		_, err := st.SearchChunks(ctx, roomID, q)
		return err
	}
	terms := make([][]string, len(benchQuestions))
	for i, q := range benchQuestions {
		terms[i] = retrieve.Terms(q)
	}
	timed("Words", func(int) error {
		return chunks(room.ChunkQuery{Terms: []string{word(), word(), word()}, Limit: 40})
	})
	timed("Questions", func(i int) error {
		return chunks(room.ChunkQuery{Terms: terms[i%len(terms)], Limit: 300})
	})
	timed("Questions16", func(i int) error {
		return chunks(room.ChunkQuery{Terms: terms[i%len(terms)], Limit: 300, MaxTerms: 16})
	})
	timed("Questions16P", func(i int) error {
		return chunks(room.ChunkQuery{Terms: terms[i%len(terms)], Limit: 300, MaxTerms: 16, MaxPostings: benchPostings})
	})
	docs, err := st.ListDocuments(ctx, roomID)
	if err != nil || len(docs) < 3 {
		b.Fatalf("ListDocuments = %d, %v; want the room's documents", len(docs), err)
	}
	routed := []string{docs[0].ID, docs[1].ID, docs[2].ID}
	timed("Routed16P", func(i int) error {
		return chunks(room.ChunkQuery{Terms: terms[i%len(terms)], DocumentIDs: routed, Limit: 300, MaxTerms: 16, MaxPostings: benchPostings})
	})
	timed("Net6P", func(i int) error {
		return chunks(room.ChunkQuery{Terms: terms[i%len(terms)], Limit: 40, MaxTerms: 6, MaxPostings: benchPostings})
	})
	timed("Vectors", func(int) error {
		q := make([]float32, dims)
		for k := range q {
			q[k] = rng.Float32()*2 - 1
		}
		hs, err := st.SearchVectors(ctx, roomID, room.VectorQuery{Vector: q, Model: "bench", Limit: 40})
		if err == nil && len(hs) != 40 {
			err = fmt.Errorf("SearchVectors = %d hits; want 40", len(hs))
		}
		return err
	})
}

func mustBench(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
