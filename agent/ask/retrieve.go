package ask

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/sync/errgroup"

	"github.com/quarry-dev/quarry/retrieve"
	"github.com/quarry-dev/quarry/room"
)

// Store is what asking needs of a room's store.
type Store interface {
	SearchChunks(ctx context.Context, roomID string, q room.ChunkQuery) ([]room.ChunkHit, error)
	SearchVectors(ctx context.Context, roomID string, q room.VectorQuery) ([]room.ChunkHit, error)
	TermChunks(ctx context.Context, roomID string, terms []string) (map[string]int, int, error)
}

// Request is a question to retrieve pages for.
type Request struct {
	RoomID string
	// Docs are the room's documents; their metadata routes the question.
	Docs     []room.Document
	Question string
	// K is how many pages to return, best first.
	K int
	// Only, when set, limits retrieval to these documents.
	Only []string
	// Broad searches the whole room by words without preferring the
	// documents the question names, for callers that must hear every
	// source (research) rather than the issuer's own filings.
	Broad bool
	// Vector is the question's embedding by Model, when an embedder is
	// configured: chunks are then also found by meaning, and the two
	// rankings fused.
	Vector []float32
	Model  string
}

// PageHit is a page found for a question, with the chunks of it that
// matched, best first.
type PageHit struct {
	DocumentID   string `json:"document_id"`
	DocumentName string `json:"document_name"`
	// Title is the document's title (room.DocMeta's): the words by which
	// a question may name it though its pages do not say them.
	Title      string          `json:"-"`
	PageNumber int             `json:"page_number"`
	Score      float64         `json:"score"`
	Chunks     []room.ChunkHit `json:"-"`
}

// Retrieval weights. A chunk's score is its BM25 score divided by the
// best one's, plus docWeight times how well its document's own metadata
// (issuer, years, form) matches what the question names, also scaled to
// the best document. A question that names an issuer and a year is mostly
// about that filing; one that names none is ranked by its words alone.
const (
	docWeight = 1.0
	// searchDepth is how many chunks each search returns.
	searchDepth = 300
	// routedDocs is how many best-matching documents are searched again
	// on their own, so that their passages are not crowded out.
	routedDocs = 3
	// maxTerms is how many of a question's search terms are searched, the
	// rarest in the room.
	maxTerms = 16
	// maxTermsRouted is how many the room-wide search keeps when the
	// question's documents are also searched on their own.
	maxTermsRouted = 6
	// netDepth is how many chunks that room-wide net returns.
	netDepth = 40
	// maxPostings is how many of the room's chunks a search's words may
	// be in together before the commonest are left to score what the
	// rarer find (room.ChunkQuery's MaxPostings): in a room of 50,000
	// chunks a search of every word reads most of the index.
	maxPostings = 4000
)

// Retrieve ranks the pages of a room's completed documents for a
// question, best first.
func Retrieve(ctx context.Context, st Store, req Request) ([]PageHit, error) {
	pages, err := retrievePages(ctx, st, req)
	titles := map[string]string{}
	for _, d := range req.Docs {
		titles[d.ID] = d.Meta.Title
	}
	for i := range pages {
		pages[i].Title = titles[pages[i].DocumentID]
	}
	return pages, err
}

func retrievePages(ctx context.Context, st Store, req Request) ([]PageHit, error) {
	if len(req.Vector) == 0 {
		return retrieveWords(ctx, st, req)
	}
	var pages []PageHit
	var vec []room.ChunkHit
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		pages, err = retrieveWords(gctx, st, req)
		return err
	})
	g.Go(func() (err error) {
		vec, err = st.SearchVectors(gctx, req.RoomID, room.VectorQuery{Vector: req.Vector, Model: req.Model, DocumentIDs: req.Only, Limit: vectorDepth})
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return fuse(pages, vec, req.K), nil
}

// vectorDepth is how many chunks the search by meaning returns.
const vectorDepth = 100

// fuse adds the chunks found by meaning to the pages found by words: each
// chunk's cosine, scaled so that the best is 1 and the worst returned 0,
// is added to its page's score, and pages only meaning found come in with
// that alone. Words and meaning weigh the same.
func fuse(pages []PageHit, vec []room.ChunkHit, k int) []PageHit {
	if len(vec) == 0 {
		return pages[:min(k, len(pages))]
	}
	var lexTop float64
	for _, p := range pages {
		lexTop = max(lexTop, p.Score)
	}
	lexTop = max(lexTop, 1)
	hi, lo := vec[0].Score, vec[len(vec)-1].Score
	byKey := map[pageKey]*PageHit{}
	var out []*PageHit
	for _, p := range pages {
		p.Score /= lexTop
		byKey[pageKey{p.DocumentID, p.PageNumber}] = &p
		out = append(out, &p)
	}
	seen := map[pageKey]bool{}
	for _, h := range vec {
		s := 1.0
		if hi > lo {
			s = (h.Score - lo) / (hi - lo)
		}
		key := pageKey{h.DocumentID, h.PageNumber}
		p := byKey[key]
		if p == nil {
			p = &PageHit{DocumentID: h.DocumentID, DocumentName: h.DocumentName, PageNumber: h.PageNumber}
			byKey[key] = p
			out = append(out, p)
		}
		if !slices.ContainsFunc(p.Chunks, func(c room.ChunkHit) bool { return c.ID == h.ID }) {
			h.Score = s
			p.Chunks = append(p.Chunks, h)
		}
		// A page counts its best chunk by meaning once.
		if !seen[key] {
			seen[key] = true
			p.Score += s
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	res := make([]PageHit, 0, min(k, len(out)))
	for _, p := range out[:min(k, len(out))] {
		res = append(res, *p)
	}
	return res
}

// retrieveWords ranks pages by the question's words, the documents it
// names and the statements it needs.
func retrieveWords(ctx context.Context, st Store, req Request) ([]PageHit, error) {
	question, roomID, docs, k, only := req.Question, req.RoomID, req.Docs, req.K, req.Only
	if len(req.Vector) > 0 {
		// Fusion needs more than the k pages words alone would keep.
		k = max(k, 3*k)
	}
	q := parseQuestion(question)
	if !holdsFilings(docs) {
		// The words filings use for a question's ("margin": gross
		// profit, operating income) are searched only in a room of
		// filings: in a manual's room a margin is a page's.
		q.terms = slices.DeleteFunc(q.terms, func(t string) bool { return !slices.Contains(q.plain, t) })
	}
	if len(q.respelled) > 0 {
		// The other spelling is searched only in a room that has it and
		// not the question's: a word no chunk holds would take the place
		// of one that does, and a room that spells it both ways finds it
		// as asked.
		var words []string
		for v, t := range q.respelled {
			words = append(words, v, t)
		}
		if n, _, err := st.TermChunks(ctx, roomID, words); err == nil {
			unneeded := func(v string) bool { t, ok := q.respelled[v]; return ok && (n[v] == 0 || n[t] > 0) }
			q.terms, q.plain = slices.DeleteFunc(q.terms, unneeded), slices.DeleteFunc(q.plain, unneeded)
		}
	}
	if len(q.terms) == 0 {
		return nil, nil
	}
	need := statementsFor(question)
	// The searches a question needs are independent: they run at once,
	// each into its own slot, and are merged in a fixed order.
	var (
		s        searches
		prior    map[string]float64
		best     float64
		stmtDocs []string
	)
	if len(only) > 0 {
		s.add(room.ChunkQuery{Terms: q.terms, DocumentIDs: only, Limit: searchDepth, MaxTerms: maxTerms})
		if need != 0 && len(only) <= 2 {
			stmtDocs = only
		}
	} else {
		prior = map[string]float64{}
		rare := rareIn(ctx, st, roomID, q.terms)
		for _, d := range docs {
			if d.Status != room.StatusCompleted || req.Broad {
				continue
			}
			p := q.match(d, rare)
			prior[d.ID] = p
			best = max(best, p)
		}
		// When the question names documents, they are searched on their
		// own too; the room-wide search is never cut for them (a word of
		// a title must not keep the rest of the room from answering),
		// except when every document routed to is a filing whose cover
		// names its issuer's trading symbols: then the question's issuer
		// is known for certain, and its filings are where its numbers are.
		var routed []string
		if best > 0 {
			routed = routeDocs(prior, best)
		}
		if best == 0 || !allFilings(documentsByID(docs, routed)) {
			s.add(room.ChunkQuery{Terms: q.terms, Limit: searchDepth, MaxTerms: maxTerms})
		} else {
			s.add(room.ChunkQuery{Terms: q.terms, Limit: netDepth, MaxTerms: maxTermsRouted})
		}
		if best > 0 {
			s.add(room.ChunkQuery{Terms: q.terms, DocumentIDs: routed, Limit: searchDepth, MaxTerms: maxTerms})
			if need != 0 {
				stmtDocs = bestDocs(prior, best)
			}
		}
	}
	// The statements' pages are in the documents' metadata; documents
	// processed before it was recorded are searched for them by title.
	var bonus map[pageKey]float64
	searchStatements := false
	if stmtDocs != nil {
		if known, ok := statementPagesOf(documentsByID(docs, stmtDocs), need); ok {
			bonus = map[pageKey]float64{}
			for p := range known {
				bonus[p] = statementWeight
			}
		} else {
			searchStatements = true
			s.add(room.ChunkQuery{Terms: statementTerms(need), DocumentIDs: stmtDocs, Limit: searchDepth})
		}
	}
	results, err := s.run(ctx, st, roomID)
	if err != nil {
		return nil, err
	}
	var hits []room.ChunkHit
	for i, r := range results {
		if searchStatements && i == len(results)-1 {
			found, b := statementPages(r, need)
			hits, bonus = append(hits, found...), b
			continue
		}
		hits = append(hits, r...)
	}
	if opts := options(question); len(opts) > 0 {
		// "What does -k do?": the pages that have the option as written
		// come first, whatever else matched the word the index holds.
		if bonus == nil {
			bonus = map[pageKey]float64{}
		}
		for _, h := range hits {
			if slices.ContainsFunc(opts, func(o string) bool { return hasOption(h.Text, o) }) {
				bonus[pageKey{h.DocumentID, h.PageNumber}] = optionWeight
			}
		}
	}
	if authorRe.MatchString(question) {
		// "Who wrote hepunits?": who wrote a document is on its cover,
		// which need not say "wrote" and may rank below pages that say
		// its name more often.
		titles := map[string]string{}
		for _, d := range docs {
			titles[d.ID] = d.Meta.Title
		}
		marked := markedWords(question)
		for _, h := range hits {
			if h.PageNumber != 1 {
				continue
			}
			own := documentWords([]PageHit{{DocumentName: h.DocumentName, Title: titles[h.DocumentID]}}, marked)
			if slices.ContainsFunc(q.plain, func(t string) bool { return own[t] }) {
				if bonus == nil {
					bonus = map[pageKey]float64{}
				}
				bonus[pageKey{h.DocumentID, 1}] = coverWeight
			}
		}
	}
	return rankPages(hits, prior, best, bonus, k), nil
}

// coverWeight lifts the cover of a document whose author is asked for.
const coverWeight = 1.0

// optionWeight lifts the pages that name an option the question asks about.
const optionWeight = 1.0

// holdsFilings reports whether any of docs is a filing: its cover or
// its name gave a form (10-K, 8-K, an earnings release ...), trading
// symbols or the pages of its statements.
func holdsFilings(docs []room.Document) bool {
	return slices.ContainsFunc(docs, func(d room.Document) bool {
		if d.Meta.FormType != "" || len(d.Meta.Tickers) > 0 {
			return true
		}
		for _, pages := range d.Meta.Statements {
			if len(pages) > 0 {
				return true
			}
		}
		return false
	})
}

// allFilings reports whether every one of docs is a filing whose cover
// gave its issuer's trading symbols.
func allFilings(docs []room.Document) bool {
	for _, d := range docs {
		if len(d.Meta.Tickers) == 0 {
			return false
		}
	}
	return len(docs) > 0
}

// documentsByID picks the documents of ids from docs.
func documentsByID(docs []room.Document, ids []string) []room.Document {
	var out []room.Document
	for _, d := range docs {
		if slices.Contains(ids, d.ID) {
			out = append(out, d)
		}
	}
	return out
}

// searches are lexical searches to run at once.
type searches struct{ qs []room.ChunkQuery }

func (s *searches) add(q room.ChunkQuery) {
	q.MaxPostings = maxPostings
	s.qs = append(s.qs, q)
}

// run runs the searches concurrently and returns their hits in the order
// they were added.
func (s *searches) run(ctx context.Context, st Store, roomID string) ([][]room.ChunkHit, error) {
	out := make([][]room.ChunkHit, len(s.qs))
	g, ctx := errgroup.WithContext(ctx)
	for i, q := range s.qs {
		g.Go(func() error {
			hits, err := st.SearchChunks(ctx, roomID, q)
			out[i] = hits
			return err
		})
	}
	return out, g.Wait()
}

// statementWeight is what being the statement a question needs adds to a
// page's score, next to its words (at most 1) and its document (at most
// docWeight).
const statementWeight = 0.8

// statementPages keeps the hits of a search for statement titles that
// are on pages titled as the statements need names: their chunks, scored
// below any page the question's own words found, and the bonus each page
// gets.
func statementPages(hits []room.ChunkHit, need statement) ([]room.ChunkHit, map[pageKey]float64) {
	var out []room.ChunkHit
	bonus := map[pageKey]float64{}
	for _, h := range hits {
		heading, _, _ := strings.Cut(h.Context, "\n")
		if statementOf(heading)&need == 0 {
			continue
		}
		h.Score = 0
		out = append(out, h)
		bonus[pageKey{h.DocumentID, h.PageNumber}] = statementWeight
	}
	return out, bonus
}

// bestDocs are the documents whose metadata matches the question best.
func bestDocs(prior map[string]float64, best float64) []string {
	var ids []string
	for id, p := range prior {
		if p == best {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids[:min(2, len(ids))]
}

// routeDocs picks the documents whose metadata matches nearly as well as
// the best one's.
func routeDocs(prior map[string]float64, best float64) []string {
	var ids []string
	for id, p := range prior {
		if p >= 0.75*best {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		if prior[ids[i]] != prior[ids[j]] {
			return prior[ids[i]] > prior[ids[j]]
		}
		return ids[i] < ids[j]
	})
	return ids[:min(routedDocs, len(ids))]
}

// pageKey names a page of a document.
type pageKey struct {
	doc  string
	page int
}

// rankPages scores chunks, keeps each chunk once (its best score), and
// groups them by page, a page scoring as its best chunk plus its bonus.
func rankPages(hits []room.ChunkHit, prior map[string]float64, best float64, bonus map[pageKey]float64, k int) []PageHit {
	var top float64
	for _, h := range hits {
		top = max(top, h.Score)
	}
	if top <= 0 {
		return nil
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	seen := map[string]bool{}
	pages := map[pageKey]*PageHit{}
	for _, h := range hits {
		if seen[h.ID] {
			continue
		}
		seen[h.ID] = true
		s := h.Score / top
		if best > 0 {
			s += docWeight * prior[h.DocumentID] / best
		}
		kk := pageKey{h.DocumentID, h.PageNumber}
		s += bonus[kk]
		h.Score = s
		p := pages[kk]
		if p == nil {
			p = &PageHit{DocumentID: h.DocumentID, DocumentName: h.DocumentName, PageNumber: h.PageNumber}
			pages[kk] = p
		}
		p.Chunks = append(p.Chunks, h)
		p.Score = max(p.Score, s)
	}
	out := make([]PageHit, 0, len(pages))
	for _, p := range pages {
		sort.SliceStable(p.Chunks, func(i, j int) bool { return p.Chunks[i].Score > p.Chunks[j].Score })
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if out[i].DocumentName != out[j].DocumentName {
			return out[i].DocumentName < out[j].DocumentName
		}
		return out[i].PageNumber < out[j].PageNumber
	})
	return out[:min(k, len(out))]
}

// question is what retrieval reads from a question.
type question struct {
	text  string
	words []string // every word, lower case
	terms []string // the search terms, widened
	plain []string // the search terms, not widened by the words of filings
	// respelled are the terms added as the other English spells a word
	// of the question ("color" for "colour"), with the question's own
	// spelling: searched where the room has them and not the question's.
	respelled map[string]string
	years     []int
	forms     []string
}

var (
	qYearRe   = regexp.MustCompile(`(?i)\b(?:FY|fiscal(?:\s+year)?\s*)?'?((?:19|20)\d\d)\b`)
	qFYRe     = regexp.MustCompile(`(?i)\bFY\s*'?(\d\d)\b`)
	quarterQ  = regexp.MustCompile(`(?i)\b(Q[1-4]|quarter|quarterly|three months|six months|nine months)\b`)
	annualQ   = regexp.MustCompile(`(?i)\b(10-?K|annual report|annual)\b`)
	eightKQ   = regexp.MustCompile(`(?i)\b8-?K\b`)
	earningsQ = regexp.MustCompile(`(?i)\b(earnings release|press release|earnings)\b`)
)

func parseQuestion(text string) question {
	q := question{text: text, words: retrieve.Words(text)}
	// A word is searched as either English spells it ("colour": color).
	for _, t := range retrieve.Terms(text) {
		for i, v := range retrieve.Spellings(t) {
			if !slices.Contains(q.plain, v) {
				q.plain = append(q.plain, v)
				if i > 0 {
					if q.respelled == nil {
						q.respelled = map[string]string{}
					}
					q.respelled[v] = t
				}
			}
		}
	}
	q.terms = expandFinance(q.plain)
	for _, o := range options(text) {
		// "-k" is searched as the word the index holds for it, k, which
		// Terms leaves out as a single letter
		if w := strings.ToLower(strings.TrimLeft(o, "-")); !slices.Contains(q.terms, w) {
			q.terms = append(q.terms, w)
			q.plain = append(q.plain, w)
		}
	}
	for _, m := range qYearRe.FindAllStringSubmatch(text, -1) {
		y, _ := strconv.Atoi(m[1])
		if !slices.Contains(q.years, y) {
			q.years = append(q.years, y)
		}
	}
	for _, m := range qFYRe.FindAllStringSubmatch(text, -1) {
		if y := fullYear(m[1]); !slices.Contains(q.years, y) {
			q.years = append(q.years, y)
		}
	}
	switch {
	case eightKQ.MatchString(text):
		q.forms = []string{"8-K"}
	case earningsQ.MatchString(text):
		q.forms = []string{"earnings release"}
	case quarterQ.MatchString(text):
		q.forms = []string{"10-Q", "earnings release"}
	case annualQ.MatchString(text):
		q.forms = []string{"10-K"}
	}
	return q
}

// corporate words say nothing about which company is meant.
var corporate = map[string]bool{"inc": true, "incorporated": true, "corp": true, "corporation": true, "company": true,
	"co": true, "ltd": true, "limited": true, "plc": true, "the": true, "and": true, "holdings": true, "group": true,
	"llc": true, "lp": true, "sa": true, "ag": true, "nv": true, "se": true, "of": true, "companies": true}

// companyWords are the words of a company's name that identify it.
func companyWords(name string) []string {
	var out []string
	for _, w := range retrieve.Words(name) {
		if !corporate[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// rareIn returns whether a word of the question is rare in the room: in
// at most rareShare of its chunks. Every word is when the store cannot
// say.
func rareIn(ctx context.Context, st Store, roomID string, terms []string) func(string) bool {
	chunks, passages, err := st.TermChunks(ctx, roomID, terms)
	return func(w string) bool {
		n, ok := chunks[w]
		return err != nil || !ok || float64(n) <= rareShare*float64(passages)
	}
}

// rareShare is the share of a room's chunks a word of a file's name may
// be in and still name that document rather than a topic of the room
// ("memory" in a room of manuals is a topic, whatever file is called
// Memory-Usage.html).
const rareShare = 0.1

// match scores how well a document's metadata matches what the question
// names: the issuer its cover gives (share of its name's words the
// question has, written apart or together: "Ulta Beauty" for ULTABEAUTY),
// the year and the form. A file's own name counts only when the question
// has all of its words, one of them rare in the room: a word of a title
// that the room uses everywhere names no document.
func (q question) match(d room.Document, rare func(string) bool) float64 {
	var company float64
	if ws := companyWords(d.Meta.Company); len(ws) > 0 {
		found := 0
		for _, w := range ws {
			if q.hasWord(w) {
				found++
			}
		}
		company = float64(found) / float64(len(ws))
		if q.abbreviates(ws) {
			company = 1
		}
	}
	if ws := companyWords(companyFromName(strings.TrimSuffix(d.Name, extOf(d.Name)))); len(ws) > 0 {
		all := !slices.ContainsFunc(ws, func(w string) bool { return !q.hasWord(w) })
		if all && slices.ContainsFunc(ws, rare) || q.abbreviates(ws) {
			company = 1
		}
	}
	for _, t := range d.Meta.Tickers {
		if q.hasTicker(t) {
			company = 1
		}
	}
	if company == 0 {
		return 0
	}
	s := company
	if len(q.years) > 0 && len(d.Meta.Years) > 0 {
		switch {
		case slices.Contains(q.years, d.Meta.Years[0]):
			s += 0.5
		case slices.ContainsFunc(d.Meta.Years, func(y int) bool { return slices.Contains(q.years, y) }):
			s += 0.3
		}
	}
	if len(q.forms) > 0 && slices.Contains(q.forms, d.Meta.FormType) {
		s += 0.25
	}
	return s
}

// abbreviates reports whether a word of the question, of at least four
// letters, is the company's words cut short and run together ("Amex" for
// American Express, "FedEx" for Federal Express), each word giving its
// first letters, in order.
func (q question) abbreviates(companyWords []string) bool {
	if len(companyWords) < 2 {
		return false
	}
	for _, w := range q.words {
		if len(w) >= 4 && len(w) <= 12 && prefixesOf(w, companyWords) {
			return true
		}
	}
	return false
}

// prefixesOf reports whether w is a non-empty prefix of each of words in
// turn, run together.
func prefixesOf(w string, words []string) bool {
	if len(words) == 0 {
		return w == ""
	}
	for n := min(len(w), len(words[0])); n >= 1; n-- {
		if w[:n] == words[0][:n] && prefixesOf(w[n:], words[1:]) {
			return true
		}
	}
	return false
}

// hasTicker reports whether the question names a trading symbol: as a
// word in any case when it has three letters or more, written in capitals
// when it has two (BA, GE).
func (q question) hasTicker(t string) bool {
	if len(t) >= 3 {
		return q.hasWord(strings.ToLower(t))
	}
	for _, w := range strings.FieldsFunc(q.text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if w == t {
			return true
		}
	}
	return false
}

// hasWord reports whether the question has w as a word or as two
// adjacent words written together.
func (q question) hasWord(w string) bool {
	for i, x := range q.words {
		if x == w || i+1 < len(q.words) && x+q.words[i+1] == w {
			return true
		}
	}
	return false
}

func extOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[i:]
	}
	return ""
}
