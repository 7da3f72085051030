package retrieve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/quarry-dev/quarry/internal/tokens"
)

// wordTokens is a cheap stand-in for a tokenizer: 1.3 tokens a word.
func wordTokens(s string) int {
	return int(math.Ceil(1.3 * float64(len(strings.Fields(s)))))
}

// checkChunks fails t unless chunks keep every promise ChunkPage makes
// for page. strict says that the page has no word or table row longer
// than a chunk may be, so that no chunk may begin or end inside a word
// or need widening into the one before, beyond Overlap.
func checkChunks(t testing.TB, page string, o ChunkOptions, chunks []PageChunk, strict bool) {
	t.Helper()
	o = o.normalized()
	// chunks are cut from the page with its broken words mended, which
	// keeps every offset: the slices are the mended page's
	r := []rune(Dehyphenate(page))
	if n := len([]rune(page)); len(r) != n {
		t.Fatalf("Dehyphenate(%.40q) has %d characters; want the page's %d", page, len(r), n)
	}
	lo, hi := 0, len(r)
	for lo < hi && isSpace(r[lo]) {
		lo++
	}
	for hi > lo && isSpace(r[hi-1]) {
		hi--
	}
	if hi-lo < o.MinChars {
		if len(chunks) != 0 {
			t.Fatalf("ChunkPage(%.40q) = %d chunks; want none, the page has %d characters", page, len(chunks), hi-lo)
		}
		return
	}
	if len(chunks) == 0 {
		t.Fatalf("ChunkPage(%.40q) = no chunks; want some for %d characters", page, hi-lo)
	}
	covered := lo
	for i, c := range chunks {
		where := fmt.Sprintf("chunk %d [%d,%d) of %d", i, c.Start, c.End, len(chunks))
		if c.Start < 0 || c.End > len(r) || c.Start >= c.End {
			t.Fatalf("%s: bad offsets for a page of %d characters", where, len(r))
		}
		if want := string(r[c.Start:c.End]); c.Text != want {
			t.Fatalf("%s: Text = %.60q; want the page's slice %.60q", where, c.Text, want)
		}
		if c.Text != strings.TrimFunc(c.Text, isSpace) {
			t.Errorf("%s: Text %.60q begins or ends with white space", where, c.Text)
		}
		n, p := c.End-c.Start, len([]rune(c.Prefix))
		if n < o.MinChars && !strict && (spaceRun(r, c.Start, -1) >= o.MaxChars/6 || spaceRun(r, c.End, 1) >= o.MaxChars/6) {
			n = o.MinChars // a few characters between long runs of white space
		}
		if n < o.MinChars || n+p > o.MaxChars {
			t.Errorf("%s: %d characters and %d of prefix; want %d to %d in all", where, n, p, o.MinChars, o.MaxChars)
		}
		if want := max(1, o.Count(c.Prefix+c.Text)); c.Tokens != want || c.Tokens < 1 || c.Tokens > o.MaxTokens {
			t.Errorf("%s: Tokens = %d; want Count = %d within 1..%d", where, c.Tokens, want, o.MaxTokens)
		}
		if c.Prefix != "" && (!strings.HasSuffix(c.Prefix, "\n") || !strings.Contains(string(r), strings.TrimSuffix(c.Prefix, "\n"))) {
			t.Errorf("%s: Prefix %q is not lines of the page ending in a newline", where, c.Prefix)
		}
		if i > 0 {
			prev := chunks[i-1]
			if c.Start <= prev.Start || c.End <= prev.End {
				t.Errorf("%s: does not follow [%d,%d)", where, prev.Start, prev.End)
			}
			// Without strict, a short chunk may have been widened
			// into the one before.
			if most := max(o.Overlap, 0); strict && prev.End-c.Start > most {
				t.Errorf("%s: overlaps [%d,%d) by %d characters; want at most %d", where, prev.Start, prev.End, prev.End-c.Start, most)
			}
		}
		for k := covered; k < c.Start; k++ {
			if !isSpace(r[k]) {
				t.Fatalf("%s: character %d (%q) is in no chunk", where, k, r[k])
			}
		}
		covered = max(covered, c.End)
		if strict && ((c.Start > 0 && !isSpace(r[c.Start-1])) || (c.End < len(r) && !isSpace(r[c.End]))) {
			t.Errorf("%s: cuts a word: %q|%q", where, string(r[max(0, c.Start-10):c.Start]), string(r[c.Start:min(len(r), c.Start+10)]))
		}
	}
	if covered < hi {
		t.Fatalf("characters %d to %d are in no chunk", covered, hi)
	}
	if again := ChunkPage(page, o); !reflect.DeepEqual(again, chunks) {
		t.Errorf("ChunkPage is not deterministic")
	}
}

// spaceRun returns the length of the white space before offset k (dir
// -1) or from it (dir 1).
func spaceRun(r []rune, k, dir int) int {
	n := 0
	if dir < 0 {
		k--
	}
	for k >= 0 && k < len(r) && isSpace(r[k]) {
		n++
		k += dir
	}
	return n
}

// checkRows fails t when a chunk begins or ends inside one of rows.
func checkRows(t testing.TB, chunks []PageChunk, rows [][2]int) {
	t.Helper()
	for _, row := range rows {
		for i, c := range chunks {
			if (c.Start > row[0] && c.Start < row[1]) || (c.End > row[0] && c.End < row[1]) {
				t.Errorf("chunk %d [%d,%d) cuts the row [%d,%d)", i, c.Start, c.End, row[0], row[1])
			}
		}
	}
}

// page builds a test page and remembers where its table rows are.
type page struct {
	b    strings.Builder
	n    int      // runes written
	rows [][2]int // the rows' text, in rune offsets
}

func (p *page) write(s string) {
	p.b.WriteString(s)
	p.n += len([]rune(s))
}

func (p *page) row(s string) {
	lead := len(s) - len(strings.TrimLeft(s, " "))
	p.rows = append(p.rows, [2]int{p.n + lead, p.n + len([]rune(strings.TrimRight(s, " ")))})
	p.write(s + "\n")
}

var vocabulary = strings.Fields(`the company sales revenue increased decreased percent million billion
	operating income margin segment organic growth acquisitions divestitures foreign currency
	translation impact quarter year compared with primarily driven by higher lower costs
	U.S. GAAP e.g. No. 3M's net cash provided used investing financing activities 1,577 (1,373)
	$ 5,363 12.5% 2018 Größe über café 東京都 😀 Inc. approximately one-time non-recurring`)

func sentence(rng *rand.Rand) string {
	w := make([]string, 4+rng.IntN(16))
	for i := range w {
		w[i] = vocabulary[rng.IntN(len(vocabulary))]
	}
	first := []rune(w[0])
	w[0] = string(unicode.ToUpper(first[0])) + string(first[1:])
	return strings.Join(w, " ") + []string{".", ".", ".", "?", "!", ".\""}[rng.IntN(6)]
}

// prose writes a paragraph wrapped at width like `pdftotext -layout`.
func (p *page) prose(rng *rand.Rand, width int) {
	var line []string
	n := 0
	for range 1 + rng.IntN(10) {
		for _, w := range strings.Fields(sentence(rng)) {
			if n+len(w) > width && len(line) > 0 {
				p.write(strings.Join(line, " ") + "\n")
				line, n = nil, 0
			}
			line = append(line, w)
			n += len(w) + 1
		}
	}
	p.write(strings.Join(line, " ") + "\n")
}

func amount(rng *rand.Rand) string {
	v := rng.IntN(20000)
	s := fmt.Sprintf("%d,%03d", v/1000, v%1000)
	if v < 1000 {
		s = fmt.Sprint(v)
	}
	if rng.IntN(4) == 0 {
		s = "(" + s + ")"
	}
	return s
}

// layoutTable writes a table as `pdftotext -layout` prints one: a caption,
// a years line, sections with labels, rows of amounts in columns.
func (p *page) layoutTable(rng *rand.Rand, rows, cols int) (header string) {
	header = "Years ended December 31\n(Millions)" + strings.Repeat(" ", 50)
	for c := range cols {
		header += fmt.Sprintf("%12d", 2018-c)
	}
	p.write("Years ended December 31\n")
	p.row(strings.TrimPrefix(header, "Years ended December 31\n"))
	for i := range rows {
		if i > 0 && rng.IntN(8) == 0 {
			p.write("\nCash Flows from " + vocabulary[rng.IntN(len(vocabulary))] + " Activities\n")
		}
		label := strings.Join(strings.Fields(sentence(rng))[:2+rng.IntN(3)], " ")
		s := fmt.Sprintf("%-58s", label)
		for range cols {
			s += fmt.Sprintf("%12s", amount(rng))
		}
		p.row(s)
	}
	return header + "\n"
}

// pipeTable writes a table as extraction from DOCX or HTML renders one.
func (p *page) pipeTable(rng *rand.Rand, rows int) {
	p.row("Region | Segment | 2018 | 2017")
	p.row("---|---|---|---")
	for range rows {
		p.row(fmt.Sprintf("%s | %s | %s | %s", vocabulary[rng.IntN(len(vocabulary))], vocabulary[rng.IntN(len(vocabulary))], amount(rng), amount(rng)))
	}
}

func randomPage(rng *rand.Rand) *page {
	p := &page{}
	p.write(strings.Repeat(" \n", rng.IntN(3)))
	for range 1 + rng.IntN(10) {
		switch k := rng.IntN(20); {
		case k < 12:
			p.prose(rng, 60+rng.IntN(100))
		case k < 16:
			p.layoutTable(rng, 2+rng.IntN(50), 1+rng.IntN(4))
		case k < 18:
			p.pipeTable(rng, 2+rng.IntN(60))
		default:
			p.write(strings.ToUpper(string([]rune(sentence(rng))[:20])) + "\n")
		}
		p.write([]string{"\n", "\n\n", "\n \n", "\n\n\n"}[rng.IntN(4)])
	}
	return p
}

func TestChunkPageProperties(t *testing.T) {
	options := []ChunkOptions{
		{Count: wordTokens},
		{Count: wordTokens, Overlap: -1},
		{Count: wordTokens, TargetChars: 400, MaxChars: 800, MinChars: 50, Overlap: 80},
		{Count: wordTokens, TargetChars: 2500, MaxChars: 3000, MaxTokens: 200},
		{Count: func(s string) int { return len([]rune(s)) / 2 }}, // dense: over 1000 tokens in 3000 characters
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		p := randomPage(rng)
		o := options[i%len(options)]
		chunks := ChunkPage(p.b.String(), o)
		checkChunks(t, p.b.String(), o, chunks, true)
		checkRows(t, chunks, p.rows)
		if t.Failed() {
			t.Fatalf("page %d with options %d:\n%s", i, i%len(options), p.b.String())
		}
	}
}

// A table longer than a chunk is cut between rows, and every piece after
// the first repeats the caption and the years line.
func TestChunkPageLongTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := &page{}
	p.prose(rng, 150)
	p.write("\n")
	first := p.n
	header := p.layoutTable(rng, 40, 3)
	tableEnd := p.n - 1
	p.write("\n")
	p.prose(rng, 150)
	text := p.b.String()
	o := ChunkOptions{Count: tokens.Count}
	chunks := ChunkPage(text, o)
	checkChunks(t, text, o, chunks, true)
	checkRows(t, chunks, p.rows)

	pieces := 0
	for i, c := range chunks {
		if c.End <= first || c.Start >= tableEnd {
			if c.Prefix != "" {
				t.Errorf("chunk %d outside the table has Prefix %q", i, c.Prefix)
			}
			continue
		}
		pieces++
		switch {
		case c.Start <= first && c.Prefix != "":
			t.Errorf("chunk %d holds the table's header but has Prefix %q too", i, c.Prefix)
		case c.Start > first && c.Prefix != header:
			t.Errorf("chunk %d continues the table with Prefix %q; want %q", i, c.Prefix, header)
		}
	}
	if pieces < 2 {
		t.Errorf("the table of %d characters is in %d chunks; want 2 or more", tableEnd-first, pieces)
	}
	for _, row := range p.rows {
		in := 0
		for _, c := range chunks {
			if c.Start <= row[0] && row[1] <= c.End {
				in++
			}
		}
		if in != 1 {
			t.Errorf("row %q is whole in %d chunks; want 1", string([]rune(text)[row[0]:row[1]]), in)
		}
	}
}

// A table that fits in a chunk is kept in one, with what surrounds it
// where there is room.
func TestChunkPageTableKeptWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 50 {
		p := &page{}
		for range 1 + rng.IntN(4) {
			p.prose(rng, 120)
			p.write("\n")
		}
		start := len(p.rows)
		if i%2 == 0 {
			p.layoutTable(rng, 5+rng.IntN(10), 3)
		} else {
			p.pipeTable(rng, 5+rng.IntN(30))
		}
		rows := p.rows[start:]
		for range rng.IntN(4) {
			p.write("\n")
			p.prose(rng, 120)
		}
		text := p.b.String()
		o := ChunkOptions{Count: wordTokens}
		chunks := ChunkPage(text, o)
		checkChunks(t, text, o, chunks, true)
		holders := 0
		for _, c := range chunks {
			if c.Start <= rows[0][0] && rows[len(rows)-1][1] <= c.End {
				holders++
			}
		}
		if holders == 0 {
			t.Fatalf("no chunk holds the whole table of %d characters:\n%s", rows[len(rows)-1][1]-rows[0][0], text)
		}
	}
}

func TestChunkPagePipeTableHeader(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	p := &page{}
	p.pipeTable(rng, 200)
	text := p.b.String()
	o := ChunkOptions{Count: wordTokens}
	chunks := ChunkPage(text, o)
	checkChunks(t, text, o, chunks, true)
	checkRows(t, chunks, p.rows)
	if len(chunks) < 2 {
		t.Fatalf("ChunkPage(200 rows) = %d chunks; want several", len(chunks))
	}
	for i, c := range chunks[1:] {
		if want := "Region | Segment | 2018 | 2017\n---|---|---|---\n"; c.Prefix != want {
			t.Errorf("chunk %d has Prefix %q; want %q", i+1, c.Prefix, want)
		}
	}
}

// Prose chunks repeat the end of the chunk before, from the start of a
// sentence, and stay near the target length.
func TestChunkPageOverlap(t *testing.T) {
	sentences := []string{
		"Sales in Industrial totaled $12.3 billion, up 3.4 percent in dollars.",
		"Organic sales increased in advanced materials and abrasives.",
		"Operating income margins were 21.2 percent, up 1.6 percentage points.",
		"Foreign currency translation increased sales by 0.3 percent.",
		"Acquisitions and divestitures reduced sales by 0.1 percent.",
	}
	var b strings.Builder
	for i := range 120 {
		b.WriteString(sentences[i*7%len(sentences)])
		if i%9 == 8 {
			b.WriteString("\n\n")
		} else if i%2 == 1 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	text := b.String()
	r := []rune(text)
	o := ChunkOptions{Count: wordTokens}
	chunks := ChunkPage(text, o)
	checkChunks(t, text, o, chunks, true)
	if len(chunks) < 4 {
		t.Fatalf("ChunkPage(%d characters) = %d chunks; want 4 or more", len(r), len(chunks))
	}
	for i, c := range chunks {
		if n := c.End - c.Start; n < 600 || n > 1800 {
			t.Errorf("chunk %d has %d characters; want about 1200", i, n)
		}
		if i == 0 {
			continue
		}
		prev := chunks[i-1]
		if prev.End-c.Start <= 0 {
			t.Errorf("chunk %d [%d,%d) does not overlap chunk %d [%d,%d)", i, c.Start, c.End, i-1, prev.Start, prev.End)
		}
		// The overlap begins at the first sentence in the last 150
		// characters of the chunk before.
		want := -1
		for k := prev.End - 150; k < prev.End && want < 0; k++ {
			if k > 1 && unicode.IsUpper(r[k]) && isSpace(r[k-1]) && r[k-2] == '.' {
				want = k
			}
		}
		if c.Start != want {
			t.Errorf("chunk %d starts at %d: %q; want %d", i, c.Start, string(r[c.Start:c.Start+20]), want)
		}
	}

	o.Overlap = -1
	chunks = ChunkPage(text, o)
	checkChunks(t, text, o, chunks, true)
	for i := 1; i < len(chunks); i++ {
		if chunks[i].Start < chunks[i-1].End {
			t.Errorf("with Overlap -1, chunk %d [%d,%d) overlaps chunk %d [%d,%d)", i, chunks[i].Start, chunks[i].End, i-1, chunks[i-1].Start, chunks[i-1].End)
		}
	}
}

func TestChunkPageBoundaries(t *testing.T) {
	para := func(n int) string { // n sentences of 50 characters
		return strings.Repeat("Sales increased by seven percent in every region. ", n)[:n*50-1]
	}
	tests := []struct {
		name string
		page string
		ends []int // where the chunks end
	}{
		{"one chunk when the page is short enough", para(14) + "\n\n" + para(14), []int{1400}},
		{"a blank line", para(20) + "\n\n" + para(20), []int{999, 2000}},
		{"a blank line before a line end nearer the target", para(16) + "\n\n" + para(4) + "\n" + para(20), []int{799, 2000}},
		{"a line end ending a sentence", para(18) + "\n" + para(22), []int{899, 1999}},
		{"a sentence end before a space", "Sales increased by four percent in every region " + para(40), []int{1047, 2047}},
		{"no short tail", para(70) + "\n\nEnd.", []int{1149, 2349, 3505}},
	}
	for _, tt := range tests {
		o := ChunkOptions{Count: wordTokens, Overlap: -1}
		chunks := ChunkPage(tt.page, o)
		checkChunks(t, tt.page, o, chunks, true)
		var ends []int
		for _, c := range chunks {
			ends = append(ends, c.End)
		}
		if !reflect.DeepEqual(ends, tt.ends) {
			t.Errorf("%s: chunks end at %v; want %v", tt.name, ends, tt.ends)
		}
	}
}

// A word longer than a chunk is cut, every piece within the limits.
func TestChunkPageLongWord(t *testing.T) {
	word := strings.Repeat("abcdefghij", 1000)
	for _, page := range []string{word, "Before it. " + word + " After it.", strings.Repeat("€", 10000)} {
		for _, o := range []ChunkOptions{{Count: wordTokens}, {Count: tokens.Count}} {
			chunks := ChunkPage(page, o)
			checkChunks(t, page, o, chunks, false)
			if len(chunks) < 4 {
				t.Errorf("ChunkPage(%.20q...) = %d chunks; want 4 or more", page, len(chunks))
			}
		}
	}
}

func TestChunkPageShort(t *testing.T) {
	for _, page := range []string{"", "   \n\n \t ", "Thirty characters of text here", "\n\n  " + strings.Repeat("x", 49) + "  \n"} {
		if chunks := ChunkPage(page, ChunkOptions{Count: wordTokens}); len(chunks) != 0 {
			t.Errorf("ChunkPage(%q) = %v; want no chunks", page, chunks)
		}
	}
	page := "\n  " + strings.Repeat("y", 50) + " \n"
	want := []PageChunk{{Text: strings.Repeat("y", 50), Start: 3, End: 53, Tokens: 2}}
	if got := ChunkPage(page, ChunkOptions{Count: wordTokens}); !reflect.DeepEqual(got, want) {
		t.Errorf("ChunkPage(%q) = %v; want %v", page, got, want)
	}
}

func TestChunkPageOffsetsAreCharacters(t *testing.T) {
	page := strings.Repeat("Größe über 東京都 😀 café. ", 200)
	o := ChunkOptions{Count: wordTokens}
	chunks := ChunkPage(page, o)
	checkChunks(t, page, o, chunks, true)
	if last := chunks[len(chunks)-1]; last.End != len([]rune(strings.TrimSpace(page))) {
		t.Errorf("last chunk ends at %d; want %d, in characters", last.End, len([]rune(strings.TrimSpace(page))))
	}
}

func TestChunkPageNeedsCount(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("ChunkPage without Count did not panic")
		}
	}()
	ChunkPage(strings.Repeat("text ", 100), ChunkOptions{})
}

func FuzzChunkPage(f *testing.F) {
	// Small seeds: the fuzzer minimizes every new input it finds
	// interesting, which takes long for long ones.
	rng := rand.New(rand.NewPCG(11, 12))
	for range 8 {
		r := []rune(randomPage(rng).b.String())
		f.Add(string(r[:min(len(r), 1500)]), uint16(rng.IntN(3000)))
	}
	f.Add(strings.Repeat("x", 5000), uint16(300))
	f.Add("a  b  c\n1  2  3\n"+strings.Repeat("word ", 30), uint16(120))
	f.Add("| a | b |\n|---|---|\n| 1 | 2 |\n", uint16(0))
	// Found by the fuzzer: a short chunk widened into white space.
	f.Add("                      d  \xde؋ \xd3  \x01             0       0\n0 0           \x02\x02\x02\x02\x02\x02\x02\x02 C                           \x00   rrr         @\x000\x00\x00\x00d  000 0 0 0 \x9f 0 0 0", uint16(1))
	// Found by the fuzzer: a word broken at a line's end, mended in place.
	f.Add("000000000000000000000000000000000000 Aaa-\na0000000", uint16(0))
	f.Fuzz(func(t *testing.T, text string, size uint16) {
		o := ChunkOptions{Count: wordTokens}
		if size > 0 {
			o.MaxChars = 100 + int(size)%2900
			o.TargetChars = o.MaxChars * 2 / 5
		}
		checkChunks(t, text, o, ChunkPage(text, o), false)
	})
}

// benchPage is 3,000 lines, about 200 KB, of filing text: paragraphs
// and layout tables.
func benchPage() string {
	rng := rand.New(rand.NewPCG(13, 14))
	p := &page{}
	for i := 0; strings.Count(p.b.String(), "\n") < 3000; i++ {
		if i%3 == 2 {
			p.layoutTable(rng, 5+rng.IntN(40), 1+rng.IntN(3))
		} else {
			p.prose(rng, 60+rng.IntN(40))
		}
		p.write("\n")
	}
	return p.b.String()
}

// BenchmarkChunkPage measures the chunker alone, with a counter that
// costs nothing.
func BenchmarkChunkPage(b *testing.B) {
	page := benchPage()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		ChunkPage(page, ChunkOptions{Count: func(s string) int { return len(s)/4 + 1 }})
	}
	b.ReportMetric(float64(strings.Count(page, "\n")), "lines")
	b.ReportMetric(float64(len(page))/1000, "kB")
}

// BenchmarkChunkPageTokens counts with cl100k_base, as the data room does.
func BenchmarkChunkPageTokens(b *testing.B) {
	page := benchPage()
	tokens.Count("warm up")
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		ChunkPage(page, ChunkOptions{Count: tokens.Count})
	}
}

// BenchmarkChunkPageFinanceBench chunks real filings, as `pdftotext
// -layout` prints them, when FinanceBench's PDFs and pdftotext are on this
// machine, checks every chunk of every page, and reports how many chunks
// a page gives, how many continue a table under its header, and how many
// begin or end inside a word.
func BenchmarkChunkPageFinanceBench(b *testing.B) {
	pdfs, _ := filepath.Glob("/work/shared/bench/financebench/pdfs/*.pdf")
	if _, err := exec.LookPath("pdftotext"); err != nil || len(pdfs) == 0 {
		b.Skip("needs pdftotext and /work/shared/bench/financebench/pdfs")
	}
	var pages []string
	size := 0
	for _, pdf := range pdfs {
		out, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", pdf, "-").Output()
		if err != nil {
			b.Fatalf("pdftotext %s: %v", pdf, err)
		}
		pages = append(pages, strings.Split(string(out), "\f")...)
		size += len(out)
	}
	o := ChunkOptions{Count: tokens.Count}
	chunks, prefixed, cutWords := 0, 0, 0
	for _, p := range pages {
		cs := ChunkPage(p, o)
		checkChunks(b, p, o, cs, false)
		chunks += len(cs)
		r := []rune(p)
		for _, c := range cs {
			if c.Prefix != "" {
				prefixed++
			}
			if (c.Start > 0 && !isSpace(r[c.Start-1])) || (c.End < len(r) && !isSpace(r[c.End])) {
				cutWords++
			}
		}
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			ChunkPage(p, o)
		}
	}
	b.ReportMetric(float64(len(pages)), "pages")
	b.ReportMetric(float64(chunks)/float64(len(pages)), "chunks/page")
	b.ReportMetric(float64(prefixed), "prefixed")
	b.ReportMetric(float64(cutWords), "cut-words")
}
