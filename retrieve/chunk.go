package retrieve

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ChunkOptions sizes the chunks ChunkPage cuts. Zero fields take the
// defaults, which are the data room's document_chunks rules: 50 to 3000
// characters and 1 to 1000 cl100k_base tokens per chunk.
type ChunkOptions struct {
	// TargetChars is the length aimed at; default 1200. Chunks fall
	// roughly between half and one and a half times it, where the
	// boundaries allow.
	TargetChars int
	// MaxChars caps len(Prefix)+len(Text) in characters; default 3000.
	MaxChars int
	// MinChars is the shortest chunk; default 50 (at most MaxChars/2).
	MinChars int
	// MaxTokens caps Count(Prefix+Text); default 1000.
	MaxTokens int
	// Overlap is how many characters of the end of a prose chunk the next
	// chunk repeats, starting at a sentence or word; default 150, at most
	// TargetChars/4, negative for none. Tables are never repeated this way.
	Overlap int
	// Count returns the number of tokens in a text (tokens.Count for
	// cl100k_base). It is required, and it is called about once per chunk.
	Count func(string) int
}

// PageChunk is one chunk of a page's text.
//
// Start and End are offsets in characters (runes, as []rune(page) reads
// the page, invalid UTF-8 being one U+FFFD per byte), not bytes, because
// the data room stores character offsets: Text is exactly
// string([]rune(page)[Start:End]), Start < End, and Text neither begins
// nor ends with white space.
//
// Prefix is context that is not part of the slice: when a table is longer
// than one chunk, every chunk after the first that starts inside it
// carries the table's header lines ("(Millions)  2018  2017  2016") in
// Prefix, ending with a newline. The text to embed and to store as the
// chunk's content is Prefix + Text (see Content); Tokens counts it, and
// MaxChars caps its length.
type PageChunk struct {
	Text   string `json:"text"`
	Prefix string `json:"prefix,omitempty"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Tokens int    `json:"tokens"`
}

// Content returns the chunk's searchable text, Prefix + Text.
func (c PageChunk) Content() string { return c.Prefix + c.Text }

// ChunkPage cuts the text of one page into chunks, in page order, with
// Start and End strictly increasing.
//
// A chunk ends at the best boundary near the target length: a blank line
// or the edge of a table, then the end of a line (one that ends a sentence
// first), then the end of a sentence, then a space; never inside a word.
// Tables (runs of lines whose columns are separated by two or more spaces,
// as `pdftotext -layout` prints them, or by " | ") are kept whole when
// they fit in MaxChars; a longer table is cut only between rows into
// pieces of about equal length, and each piece after the first repeats
// the header lines in Prefix. A line that looks like a table row is never
// cut either, unless it alone is longer than a chunk may be.
//
// Every chunk holds MinChars to MaxChars characters (Prefix included in
// the maximum) and 1 to MaxTokens tokens. A page whose text, without
// surrounding white space, is shorter than MinChars gives no chunk at all
// (the caller keeps the page without chunks), as does white space. The
// exceptions: a word longer than a chunk may be is cut where it must be;
// a chunk can be shorter when runs of white space longer than a chunk
// surround a few characters; a chunk made long enough by widening it
// into the one before can overlap it by more than Overlap; and a
// counter that finds more than MaxTokens tokens in MinChars
// characters leaves chunks of MinChars characters over the token limit
// (cl100k_base counts at most 4 tokens per character).
//
// Words a hyphen breaks at a line's end are mended first (Dehyphenate),
// in place: Start and End index the page as given.
//
// ChunkPage is deterministic. It panics when o.Count is nil.
func ChunkPage(page string, o ChunkOptions) []PageChunk {
	if o.Count == nil {
		panic("retrieve: ChunkOptions.Count is nil")
	}
	c := newChunker([]rune(Dehyphenate(page)), o.normalized())
	if c.end-c.start < c.o.MinChars {
		return nil
	}
	var out []PageChunk
	s, frontier := c.start, c.start
	for {
		ch := c.chunkAt(s, frontier)
		out = append(out, ch)
		if ch.End >= c.end {
			break
		}
		frontier = ch.End
		s = c.overlapStart(ch.Start, ch.End, c.skipSpace(ch.End))
	}
	return c.fixShort(out)
}

func (o ChunkOptions) normalized() ChunkOptions {
	if o.MaxChars <= 0 {
		o.MaxChars = 3000
	}
	if o.MinChars <= 0 {
		o.MinChars = 50
	}
	o.MinChars = min(o.MinChars, max(1, o.MaxChars/2))
	if o.TargetChars <= 0 {
		o.TargetChars = 1200
	}
	o.TargetChars = min(max(o.TargetChars, o.MinChars), o.MaxChars)
	if o.MaxTokens <= 0 {
		o.MaxTokens = 1000
	}
	if o.Overlap == 0 {
		o.Overlap = 150
	}
	o.Overlap = min(o.Overlap, o.TargetChars/4) // negative: none
	return o
}

// Boundary levels: a chunk ends at the highest level near its target.
const (
	levelNone         = iota // inside a table row, or inside a table that fits
	levelSpace               // between words
	levelSentence            // after the end of a sentence
	levelLine                // at a line break
	levelSentenceLine        // at a line break that ends a sentence
	levelParagraph           // at a blank line or a table's edge
)

// cut is a run of white space r[p:q] where a chunk may end (at p) and the
// next begin (at q).
type cut struct {
	p, q int
	// level is the boundary's level; relaxed is its level when no other
	// boundary is left, when rows and tables that fit may be cut too.
	level, relaxed int8
}

type line struct {
	begin   int // offset of the line's first rune
	lo, hi  int // its text without surrounding white space; lo == hi when blank
	row     bool
	figures bool // has a digit
	amount  int8 // has an amount (see hasAmount): 0 not known yet, 1 no, 2 yes
	gaps    int  // runs of 2+ spaces or tabs between words
	table   int  // index in chunker.tables, or -1
}

func (l line) blank() bool { return l.lo == l.hi }

type table struct {
	start, end int // offsets of its text
	fits       bool
	header     string // lines repeated in Prefix, or ""
	headerEnd  int    // offset where the header lines end
}

type chunker struct {
	o          ChunkOptions
	r          []rune
	start, end int // the page's text without surrounding white space
	lines      []line
	tables     []table
	cuts       []cut
}

func newChunker(r []rune, o ChunkOptions) *chunker {
	c := &chunker{o: o, r: r}
	c.start = c.skipSpace(0)
	c.end = len(r)
	for c.end > c.start && isSpace(r[c.end-1]) {
		c.end--
	}
	c.readLines()
	c.findTables()
	c.findCuts()
	return c
}

func isSpace(r rune) bool {
	return r == ' ' || (r >= '\t' && r <= '\r') || (r > 0x7f && unicode.IsSpace(r))
}

func (c *chunker) skipSpace(p int) int {
	for p < len(c.r) && isSpace(c.r[p]) {
		p++
	}
	return p
}

func (c *chunker) readLines() {
	r := c.r
	for b := 0; b <= len(r); {
		e := b
		for e < len(r) && r[e] != '\n' {
			e++
		}
		l := line{begin: b, lo: b, hi: e, table: -1}
		for l.lo < l.hi && isSpace(r[l.lo]) {
			l.lo++
		}
		for l.hi > l.lo && isSpace(r[l.hi-1]) {
			l.hi--
		}
		c.readRow(&l)
		c.lines = append(c.lines, l)
		b = e + 1
	}
}

// readRow decides whether a line looks like a row of a table: columns
// apart by two or more gaps of 2+ spaces or tabs (with a number or a gap
// of 3+ spaces, so that prose with double spaces is no table), a label
// and a number 3+ spaces apart ("Total    $ 5,363"), " | " separators, or
// Markdown's "| a | b |".
func (c *chunker) readRow(l *line) {
	r := c.r
	wide, sep, pipes := false, false, 0
	for k := l.lo; k < l.hi; k++ {
		switch {
		case r[k] >= '0' && r[k] <= '9':
			l.figures = true
		case r[k] == '|':
			pipes++
			sep = sep || (k > l.lo && k < l.hi-1 && r[k-1] == ' ' && r[k+1] == ' ')
		case isSpace(r[k]):
			j := k
			for j < l.hi && isSpace(r[j]) {
				j++
			}
			if j-k >= 2 || r[k] == '\t' {
				l.gaps++
				wide = wide || j-k >= 3 || r[k] == '\t'
			}
			k = j - 1
		}
	}
	pipe := sep || (pipes >= 2 && r[l.lo] == '|')
	l.row = pipe || (l.gaps >= 2 && (wide || l.figures)) || (wide && c.endsInNumber(*l))
}

// endsInNumber reports whether the last word of a line is a number, such
// as "2018", "(1,577)" or "12.5%".
func (c *chunker) endsInNumber(l line) bool {
	k := l.hi
	for k > l.lo && !isSpace(c.r[k-1]) {
		k--
	}
	last := strings.Trim(string(c.r[k:l.hi]), "$€£()%-+*")
	return last != "" && strings.Trim(last, "0123456789,.") == "" && strings.ContainsAny(last, "0123456789")
}

// findTables groups rows into tables. A table is a run of two or more
// rows, with numbered lines of two columns, short labels ("Cash Flows from
// Investing Activities") and up to two blank lines between rows, plus up
// to two short caption lines right above the first row ("Years ended
// December 31").
func (c *chunker) findTables() {
	ls := c.lines
	for i := 0; i < len(ls); i++ {
		if !ls[i].row {
			continue
		}
		last, rows, amounts := i, 1, c.amount(i)
		for {
			next, blanks, labels := -1, 0, 0
			for j := last + 1; j < len(ls) && j <= last+4; j++ {
				switch {
				case ls[j].row || (ls[j].gaps >= 1 && ls[j].figures):
					next = j
				case ls[j].blank() && blanks < 2:
					blanks++
					continue
				case !ls[j].blank() && labels < 2 && c.isLabel(ls[j], true):
					labels++
					continue
				}
				break
			}
			if next < 0 || (blanks > 0 && amounts && !c.amount(next)) {
				break // the end, or a new header after a blank line: the next table
			}
			last, rows, amounts = next, rows+1, amounts || c.amount(next)
		}
		if rows < 2 {
			continue // a lone row is kept whole but is no table
		}
		first := i
		for first > 0 && i-first < 2 && ls[first-1].table < 0 && !ls[first-1].blank() && c.isLabel(ls[first-1], false) {
			first--
		}
		t := table{start: ls[first].lo, end: ls[last].hi}
		t.fits = t.end-t.start <= c.o.MaxChars
		c.header(&t, first, last)
		for j := first; j <= last; j++ {
			ls[j].table = len(c.tables)
		}
		c.tables = append(c.tables, t)
		i = last
	}
}

// isLabel reports whether a line is short and does not end like a
// sentence: a caption above a table or a section label inside one
// ("Sales change analysis:"). A caption does not end with a colon either,
// which is how a sentence introducing the table ends.
func (c *chunker) isLabel(l line, inside bool) bool {
	longest, end := 60, ".:;,"
	if inside {
		longest, end = 100, ".;,"
	}
	if l.row || l.hi-l.lo > longest {
		return false
	}
	return !strings.ContainsRune(end, c.r[l.hi-1])
}

// header finds a table's header: its first lines up to a blank line or
// the first line with an amount, without the section labels that end
// them ("Business Segments"). Years and small numbers such as the 31 of
// "December 31" do not count as amounts. A header has at most six lines:
// when more lines have no amount, only the first is taken, as the column
// names of a table of words.
func (c *chunker) header(t *table, first, last int) {
	const most = 6
	var hdr []int
	for j := first; j <= last && len(hdr) <= most; j++ {
		l := c.lines[j]
		if l.blank() || c.amount(j) {
			break
		}
		hdr = append(hdr, j)
		if c.isRule(l) {
			break
		}
	}
	for len(hdr) > 1 && c.lines[hdr[len(hdr)-1]].gaps == 0 && !c.isRule(c.lines[hdr[len(hdr)-1]]) {
		hdr = hdr[:len(hdr)-1]
	}
	if len(hdr) > most {
		hdr = hdr[:1]
	}
	if len(hdr) == 0 || hdr[len(hdr)-1] >= last {
		return
	}
	lo, hi := c.lines[hdr[0]].lo, c.lines[hdr[len(hdr)-1]].hi
	if hi-lo+1 > c.o.MaxChars/3 {
		return // too long to repeat
	}
	t.header = string(c.r[lo:hi]) + "\n"
	t.headerEnd = hi
}

// amount reports whether line i has an amount, reading it once.
func (c *chunker) amount(i int) bool {
	l := &c.lines[i]
	if l.amount == 0 {
		l.amount = 1
		if l.figures && c.hasAmount(*l) {
			l.amount = 2
		}
	}
	return l.amount == 2
}

// hasAmount reports whether a line has a number that is not a year or,
// on a line without currency or percent signs, a number of one or two
// digits: "(1,577)", "$ 5,363", "12.5%", "104", "$ 88" are amounts,
// "2018" and "December 31" are not.
func (c *chunker) hasAmount(l line) bool {
	r := c.r[l.lo:l.hi]
	money := false
	for _, x := range r {
		money = money || x == '$' || x == '€' || x == '£' || x == '%'
	}
	for a := 0; a < len(r); {
		b := a
		for b < len(r) && !isSpace(r[b]) && r[b] != '|' {
			b++
		}
		f := r[a:b]
		for len(f) > 0 && strings.ContainsRune("($-+€£", f[0]) {
			f = f[1:]
		}
		for len(f) > 0 && strings.ContainsRune(")%*,.;:", f[len(f)-1]) {
			f = f[:len(f)-1]
		}
		digits, marks := 0, 0
		for _, x := range f {
			switch {
			case x >= '0' && x <= '9':
				digits++
			case x == ',' || x == '.':
				marks++
			}
		}
		if digits > 0 && digits+marks == len(f) {
			year := len(f) == 4 && ((f[0] == '1' && f[1] == '9') || (f[0] == '2' && f[1] == '0'))
			if marks > 0 || (digits >= 3 && !year) || (money && !year) {
				return true
			}
		}
		a = b + 1
	}
	return false
}

// isRule reports whether a line only draws a table's rule, "|---|:--|".
func (c *chunker) isRule(l line) bool {
	return strings.Trim(string(c.r[l.lo:l.hi]), "|-:+= ") == "" && strings.ContainsRune(string(c.r[l.lo:l.hi]), '-')
}

// lineOf returns the index of the line holding offset p.
func (c *chunker) lineOf(p int) int {
	return sort.Search(len(c.lines), func(i int) bool { return c.lines[i].begin > p }) - 1
}

// tableAt returns the table whose text holds offset p, or nil.
func (c *chunker) tableAt(p int) *table {
	if t := c.lines[c.lineOf(p)].table; t >= 0 && p >= c.tables[t].start && p < c.tables[t].end {
		return &c.tables[t]
	}
	return nil
}

func (c *chunker) findCuts() {
	r := c.r
	c.cuts = make([]cut, 0, len(r)/6)
	li := 0 // the line of p-1
	for p := c.start; p < c.end; {
		if !isSpace(r[p]) {
			p++
			continue
		}
		q, nl := p, 0
		for q < len(r) && isSpace(r[q]) {
			switch r[q] {
			case '\n':
				nl++
			case '\f':
				nl += 2
			}
			q++
		}
		for li+1 < len(c.lines) && c.lines[li+1].begin <= p-1 {
			li++
		}
		mi := li
		for mi+1 < len(c.lines) && c.lines[mi+1].begin <= q {
			mi++
		}
		c.cuts = append(c.cuts, c.classify(p, q, nl, c.lines[li], c.lines[mi]))
		p = q
	}
}

// classify rates the cut r[p:q], which holds nl line breaks, between
// lines l and m (the same line when nl is 0).
func (c *chunker) classify(p, q, nl int, l, m line) cut {
	sentence := c.endsSentence(p, q)
	cu := cut{p: p, q: q}
	switch {
	case nl == 0 && (l.row || l.table >= 0):
		cu.relaxed = levelSpace
		if sentence {
			cu.relaxed = levelSentence
		}
	case nl == 0 && sentence:
		cu.level = levelSentence
	case nl == 0:
		cu.level = levelSpace
	case l.table >= 0 && l.table == m.table:
		cu.relaxed = levelLine
		if nl >= 2 {
			cu.relaxed = levelSentenceLine // a blank line between a table's sections
		}
		if !c.tables[l.table].fits {
			cu.level = cu.relaxed
		}
	case l.table >= 0 || m.table >= 0 || nl >= 2:
		cu.level = levelParagraph
	case sentence:
		cu.level = levelSentenceLine
	default:
		cu.level = levelLine
	}
	cu.relaxed = max(cu.relaxed, cu.level)
	return cu
}

// endsSentence reports whether the text before offset p ends a sentence:
// ".", "!" or "?", perhaps followed by closing quotes or brackets, after a
// word that is no abbreviation ("U.S.", "No.", "Mr."), and not followed
// by a lower-case word.
func (c *chunker) endsSentence(p, q int) bool {
	r := c.r
	k := p - 1
	for k > 0 && strings.ContainsRune(`"')]’”»`, r[k]) {
		k--
	}
	switch r[k] {
	case '!', '?':
	case '.':
		w := k
		for w > 0 && !isSpace(r[w-1]) {
			w--
		}
		word := strings.TrimLeft(string(r[w:k]), `"'([“‘`)
		if word == "" || strings.ContainsRune(word, '.') {
			return false
		}
		if rs := []rune(word); len(rs) <= 2 && unicode.IsUpper(rs[0]) {
			return false
		}
	default:
		return false
	}
	return q >= len(r) || !unicode.IsLower(r[q])
}

// chunkAt cuts the chunk that starts at s. frontier is the end of the
// previous chunk, which this one must pass; s is before it when the chunk
// repeats the end of the previous one. When the chunk has too many
// tokens, it is cut again shorter.
func (c *chunker) chunkAt(s, frontier int) PageChunk {
	starts := []int{s}
	if s < frontier {
		starts = append(starts, c.skipSpace(frontier)) // without the overlap
	}
	for _, s := range starts {
		prefix := c.prefixAt(s)
		room := c.o.MaxChars - utf8.RuneCountInString(prefix)
		for {
			e, ok := c.choose(s, frontier, room)
			if !ok {
				break
			}
			ch := c.chunk(s, e, prefix)
			if ch.Tokens <= c.o.MaxTokens || room <= c.o.MinChars {
				return ch
			}
			room = max(c.o.MinChars, min(e-s-1, (e-s)*c.o.MaxTokens*9/(10*ch.Tokens)))
		}
	}
	panic("retrieve: no chunk after the previous one") // choose cannot fail without overlap
}

func (c *chunker) chunk(s, e int, prefix string) PageChunk {
	text := string(c.r[s:e])
	return PageChunk{Text: text, Prefix: prefix, Start: s, End: e, Tokens: max(1, c.o.Count(prefix+text))}
}

// prefixAt returns the header to repeat before a chunk starting at s:
// that of the table s is in, when s is past the table's header.
func (c *chunker) prefixAt(s int) string {
	if t := c.tableAt(s); t != nil && t.header != "" && s > t.headerEnd {
		return t.header
	}
	return ""
}

// choose returns where the chunk starting at s ends: after frontier, at
// most room characters from s, leaving at least MinChars characters after
// it or none. ok is false when no such end exists.
func (c *chunker) choose(s, frontier, room int) (e int, ok bool) {
	lo, hi := max(s+c.o.MinChars, frontier+1), min(s+room, c.end)
	if lo > hi && hi < c.end {
		return 0, false
	}
	if t := c.bigTable(s); t != nil {
		if t.end-s <= room && (t.end-s >= c.o.MinChars || t.end == c.end) && t.end > frontier {
			return t.end, true
		}
		n := (t.end - s + room - 1) / room // pieces of equal length
		aim := s + (t.end-s)/n
		if cu, ok := c.best(max(lo, s+(aim-s)*3/4), min(hi, t.end), aim, levelLine, false); ok {
			return cu.p, true
		}
		if cu, ok := c.best(lo, min(hi, t.end), aim, levelLine, false); ok {
			return cu.p, true
		}
	}
	rest := c.end - s
	n := max(1, (rest+c.o.TargetChars/2)/c.o.TargetChars)
	aim := s + rest/n
	if n == 1 && rest <= room {
		return c.end, true
	}
	if cu, ok := c.best(max(lo, s+(aim-s)/2), min(hi, s+(aim-s)*3/2), aim, levelSpace, false); ok {
		return cu.p, true
	}
	if rest <= room {
		return c.end, true
	}
	if cu, ok := c.best(lo, hi, aim, levelSpace, false); ok {
		return cu.p, true
	}
	if cu, ok := c.best(lo, hi, aim, levelSpace, true); ok {
		return cu.p, true
	}
	if cu, ok := c.best(lo, hi, aim, levelNone, true); ok {
		return cu.p, true // a row longer than a chunk, cut between its words
	}
	// A word longer than a chunk: cut it.
	e = min(max(aim, lo), hi)
	if c.end-e < c.o.MinChars {
		e = max(lo, c.end-c.o.MinChars)
	}
	for e > s+1 && isSpace(c.r[e-1]) {
		e--
	}
	return e, e > frontier
}

// bigTable returns the table too long for one chunk that s is in, or that
// starts soon enough after s that its lead-in joins its first piece.
func (c *chunker) bigTable(s int) *table {
	if t := c.tableAt(s); t != nil && !t.fits {
		return t
	}
	i := sort.Search(len(c.tables), func(i int) bool { return c.tables[i].start >= s })
	if i < len(c.tables) && !c.tables[i].fits && c.tables[i].start-s <= c.o.TargetChars/2 {
		return &c.tables[i]
	}
	return nil
}

// best returns the cut with p in [lo, hi] of the highest level (at least
// minLevel) nearest to aim, leaving at least MinChars characters after it.
func (c *chunker) best(lo, hi, aim int, minLevel int8, relaxed bool) (cut, bool) {
	var b cut
	found := false
	bestLevel := int8(-1)
	for i := sort.Search(len(c.cuts), func(i int) bool { return c.cuts[i].p >= lo }); i < len(c.cuts) && c.cuts[i].p <= hi; i++ {
		cu := c.cuts[i]
		lv := cu.level
		if relaxed {
			lv = cu.relaxed
		}
		if lv < minLevel || c.end-cu.q < c.o.MinChars {
			continue
		}
		if !found || lv > bestLevel || (lv == bestLevel && abs(cu.p-aim) < abs(b.p-aim)) {
			b, bestLevel, found = cu, lv, true
		}
	}
	return b, found
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// overlapStart returns where the chunk after [s, e) starts: next, or
// earlier so that it repeats up to Overlap characters of prose from the
// end of [s, e), beginning at a sentence (or a line) if one begins there,
// else at a word. Table rows are never repeated, and a chunk that starts
// a table repeats nothing.
func (c *chunker) overlapStart(s, e, next int) int {
	if c.o.Overlap <= 0 || next >= c.end || c.tableAt(next) != nil || !isSpace(c.r[e]) {
		return next // nothing follows, a table follows, or a word was cut
	}
	lo := max(e-c.o.Overlap, s+(e-s)/2+1)
	for i := c.lineOf(lo); i < len(c.lines) && c.lines[i].begin < e; i++ {
		if c.lines[i].row || c.lines[i].table >= 0 {
			lo = max(lo, c.lines[i].hi+1)
		}
	}
	line, word := -1, -1
	for i := sort.Search(len(c.cuts), func(i int) bool { return c.cuts[i].q >= lo }); i < len(c.cuts) && c.cuts[i].q < e; i++ {
		switch cu := c.cuts[i]; {
		case cu.level == levelSentence || cu.level >= levelSentenceLine:
			return cu.q
		case cu.level == levelLine && line < 0:
			line = cu.q
		case cu.level == levelSpace && word < 0:
			word = cu.q
		}
	}
	switch {
	case line >= 0:
		return line
	case word >= 0:
		return word
	}
	return next
}

// fixShort makes chunks shorter than MinChars (left by cut words or tight
// limits) long enough: joined to the previous or the next chunk when that
// fits, else given characters of a neighbour by moving the boundary
// between them, else, as a last resort, widened back into the previous
// chunk (then the two can overlap by more than Overlap). Only a few
// characters between runs of white space longer than a chunk can stay
// short.
func (c *chunker) fixShort(out []PageChunk) []PageChunk {
	end := func(i int) int { // the end of chunk i, -1 before the first
		if i < 0 {
			return -1
		}
		return out[i].End
	}
	start := func(i int) int { // the start of chunk i, past the end after the last
		if i >= len(out) {
			return len(c.r) + 1
		}
		return out[i].Start
	}
	for i := 0; i < len(out); i++ {
		if out[i].End-out[i].Start >= c.o.MinChars {
			continue
		}
		if i > 0 {
			if m, ok := c.join(out[i-1], out[i]); ok {
				out[i-1] = m
				out = append(out[:i], out[i+1:]...)
				i--
				continue
			}
		}
		if i+1 < len(out) {
			if m, ok := c.join(out[i], out[i+1]); ok {
				out[i] = m
				out = append(out[:i+1], out[i+2:]...)
				continue
			}
		}
		if i > 0 {
			if a, b, ok := c.rebalance(out[i-1], out[i], end(i-2), start(i+1)); ok {
				out[i-1], out[i] = a, b
				continue
			}
		}
		if i+1 < len(out) {
			if a, b, ok := c.rebalance(out[i], out[i+1], end(i-1), start(i+2)); ok {
				out[i], out[i+1] = a, b
				continue
			}
		}
		// Widen it to MinChars and on to the start (or end) of a word if
		// one is within another MinChars, else into the word.
		s, e := out[i].Start, out[i].End
		if i > 0 {
			floor := out[i-1].Start + 1
			s = max(floor, e-c.o.MinChars)
			w := s
			for w > max(floor, s-c.o.MinChars) && (isSpace(c.r[w]) || !isSpace(c.r[w-1])) {
				w--
			}
			if !isSpace(c.r[w]) && isSpace(c.r[w-1]) {
				s = w
			}
			for s > floor && isSpace(c.r[s]) {
				s--
			}
		} else if i+1 < len(out) {
			ceil := out[i+1].End - 1
			e = min(ceil, s+c.o.MinChars)
			w := e
			for w < min(ceil, e+c.o.MinChars) && (isSpace(c.r[w-1]) || !isSpace(c.r[w])) {
				w++
			}
			if !isSpace(c.r[w-1]) && isSpace(c.r[w]) {
				e = w
			}
			for e < ceil && isSpace(c.r[e-1]) {
				e++
			}
		}
		s = c.skipSpace(s)
		for e > s && isSpace(c.r[e-1]) {
			e--
		}
		prefix := c.prefixAt(s)
		if utf8.RuneCountInString(prefix)+e-s > c.o.MaxChars {
			prefix = ""
		}
		// White space longer than a chunk around a few characters can
		// leave no way to widen them; then the chunk stays short.
		if ch := c.chunk(s, e, prefix); e > s && c.fits(ch) {
			out[i] = ch
		}
	}
	return out
}

// rebalance moves the boundary between a and the chunk after it, b, to a
// cut that gives the shorter of them MinChars characters with as little
// change as it can, preferring cuts that split no row. The new boundary
// stays after before, the end of the chunk before a, and b keeps
// starting before after, the start of the chunk after b. ok is false
// when no cut keeps both chunks to the limits.
func (c *chunker) rebalance(a, b PageChunk, before, after int) (PageChunk, PageChunk, bool) {
	lo, hi := max(a.Start+c.o.MinChars, before+1), min(b.End-c.o.MinChars, after-1)
	shortB := b.End-b.Start < c.o.MinChars
	first := sort.Search(len(c.cuts), func(i int) bool { return c.cuts[i].p >= lo })
	for _, anyCut := range []bool{false, true} {
		pick := -1
		for i := first; i < len(c.cuts) && c.cuts[i].q <= hi; i++ {
			if cu := c.cuts[i]; anyCut || cu.level > levelNone || cu.relaxed >= levelLine {
				pick = i
				if !shortB {
					break // the first cut past MinChars
				}
			}
		}
		if pick < 0 {
			continue
		}
		cu := c.cuts[pick]
		na, nb := c.chunk(a.Start, cu.p, a.Prefix), c.chunk(cu.q, b.End, c.prefixAt(cu.q))
		if c.fits(na) && c.fits(nb) {
			return na, nb, true
		}
	}
	return a, b, false
}

// fits reports whether a chunk keeps to MaxChars and MaxTokens.
func (c *chunker) fits(ch PageChunk) bool {
	return utf8.RuneCountInString(ch.Prefix)+ch.End-ch.Start <= c.o.MaxChars && ch.Tokens <= c.o.MaxTokens
}

// join returns a and b as one chunk if it keeps to the limits.
func (c *chunker) join(a, b PageChunk) (PageChunk, bool) {
	if utf8.RuneCountInString(a.Prefix)+b.End-a.Start > c.o.MaxChars {
		return PageChunk{}, false
	}
	m := c.chunk(a.Start, b.End, a.Prefix)
	return m, c.fits(m)
}
