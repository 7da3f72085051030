package docparse

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// extractHTML reads the text of an HTML page's body: scripts, styles and
// templates are left out, block elements start lines, list items get a
// marker, tables become one line a row with cells separated by " | ". The
// text is cut into pages of about PageChars characters at paragraphs.
// The character set comes from a byte order mark, a <meta> tag, or else is
// taken as UTF-8 (windows-1252 when the bytes are not UTF-8).
func extractHTML(data []byte, name string, o Options) (*Document, error) {
	data = htmlUTF8(data)
	root, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		// The parser fails on nesting deeper than 512 elements.
		return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "%s cannot be read as HTML: %w", name, err)
	}
	w := &htmlWalker{}
	w.walk(root)
	doc := &Document{Title: w.title}
	if doc.Title == "" {
		doc.Title = w.h1
	}
	for _, t := range paginate(normalize(w.b.String()), PageChars) {
		doc.Pages = append(doc.Pages, Page{Text: t})
	}
	return doc, nil
}

// htmlUTF8 decodes an HTML page to UTF-8 by its byte order mark or <meta>
// charset. Without either, or when a page that declares windows-1252 or
// ISO 8859-1 is valid UTF-8 anyway, it is UTF-8.
func htmlUTF8(data []byte) []byte {
	enc, name, _ := charset.DetermineEncoding(data, "")
	if name == "utf-8" || (name == "windows-1252" && utf8.Valid(data)) {
		return bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	}
	if decoded, err := enc.NewDecoder().Bytes(data); err == nil {
		return decoded
	}
	return data
}

// htmlWalker writes the text of a document tree.
type htmlWalker struct {
	textWriter
	title, h1 string
	pre       int // depth inside <pre>
}

// textWriter collapses whitespace the way a browser does and keeps at most
// one blank line between blocks.
type textWriter struct {
	b     strings.Builder
	nl    int  // newlines owed before the next text
	space bool // a space owed before the next text on the line
}

// text writes s; inside <pre> its whitespace is kept.
func (w *textWriter) text(s string, pre bool) {
	if pre {
		w.flush()
		w.b.WriteString(s)
		return
	}
	for len(s) > 0 {
		i := strings.IndexFunc(s, isHTMLSpace)
		if i == 0 {
			w.space = true
			s = strings.TrimLeftFunc(s, isHTMLSpace)
			continue
		}
		word := s
		if i > 0 {
			word, s = s[:i], s[i:]
		} else {
			s = ""
		}
		w.flush()
		w.b.WriteString(word)
	}
}

func (w *textWriter) flush() {
	if w.nl > 0 {
		if w.b.Len() > 0 {
			w.b.WriteString("\n\n"[:w.nl])
		}
		w.nl, w.space = 0, false
	}
	if w.space {
		if w.b.Len() > 0 && !strings.HasSuffix(w.b.String(), "\n") {
			w.b.WriteByte(' ')
		}
		w.space = false
	}
}

// newline owes n newlines (1: a line break, 2: a blank line).
func (w *textWriter) newline(n int) {
	w.nl = max(w.nl, n)
	w.space = false
}

// isHTMLSpace is HTML's whitespace, and no-break spaces, which pages use
// for layout.
func isHTMLSpace(r rune) bool { return unicode.IsSpace(r) }

// Blocks separated by a blank line, and by a line break.
var (
	paraBlocks = map[atom.Atom]bool{
		atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
		atom.Blockquote: true, atom.Pre: true, atom.Table: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
		atom.Figure: true, atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true,
		atom.Main: true, atom.Nav: true, atom.Aside: true, atom.Form: true, atom.Fieldset: true,
		atom.Address: true, atom.Details: true, atom.Hr: true,
	}
	lineBlocks = map[atom.Atom]bool{
		atom.Div: true, atom.Li: true, atom.Dt: true, atom.Dd: true, atom.Tr: true, atom.Caption: true,
		atom.Figcaption: true, atom.Summary: true, atom.Legend: true, atom.Option: true,
	}
	skipped = map[atom.Atom]bool{
		atom.Head: true, atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
		atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true, atom.Select: true, atom.Button: true,
	}
)

func (w *htmlWalker) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data, w.pre > 0)
		return
	case html.ElementNode:
	case html.DocumentNode:
		w.children(n)
		return
	default:
		return
	}
	switch {
	case n.DataAtom == atom.Title && w.title == "":
		w.title = strings.Join(strings.Fields(nodeText(n)), " ")
		return
	case n.DataAtom == atom.Head:
		// Only the title counts, wherever the parser left it.
		for c := range n.Descendants() {
			if c.Type == html.ElementNode && c.DataAtom == atom.Title && w.title == "" {
				w.title = strings.Join(strings.Fields(nodeText(c)), " ")
			}
		}
		return
	case skipped[n.DataAtom]:
		return
	case n.DataAtom == atom.Br:
		w.flush()
		w.b.WriteByte('\n')
		return
	case n.DataAtom == atom.Table:
		w.table(n)
		return
	}
	if n.DataAtom == atom.H1 && w.h1 == "" {
		w.h1 = strings.Join(strings.Fields(nodeText(n)), " ")
	}
	block := 0
	if paraBlocks[n.DataAtom] {
		block = 2
	} else if lineBlocks[n.DataAtom] {
		block = 1
	}
	if block > 0 {
		w.newline(block)
	}
	if n.DataAtom == atom.Li {
		w.flush()
		w.b.WriteString(listMarker(n))
	}
	if n.DataAtom == atom.Pre {
		w.pre++
		defer func() { w.pre-- }()
	}
	w.children(n)
	if block > 0 {
		w.newline(block)
	}
}

func (w *htmlWalker) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
}

// listMarker is "- " for an item of an unordered list, "N. " for the N-th
// item of an ordered one.
func listMarker(li *html.Node) string {
	if li.Parent == nil || li.Parent.DataAtom != atom.Ol {
		return "- "
	}
	n := 1
	for _, a := range li.Parent.Attr {
		if a.Key == "start" {
			if s, err := strconv.Atoi(a.Val); err == nil {
				n = s
			}
		}
	}
	for c := li.Parent.FirstChild; c != nil && c != li; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Li {
			n++
		}
	}
	return strconv.Itoa(n) + ". "
}

// table writes a table as one line a row, its cells separated by " | ".
// Rows without text are dropped, and so are empty cells at a row's end.
func (w *htmlWalker) table(t *html.Node) {
	var rows [][]string
	var caption string
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Tr:
				var row []string
				for td := c.FirstChild; td != nil; td = td.NextSibling {
					if td.Type == html.ElementNode && (td.DataAtom == atom.Td || td.DataAtom == atom.Th) {
						row = append(row, cellText(td))
					}
				}
				rows = append(rows, row)
			case atom.Caption:
				caption = cellText(c)
			case atom.Thead, atom.Tbody, atom.Tfoot:
				visit(c)
			}
		}
	}
	visit(t)
	lines := tableLines(rows)
	if caption != "" {
		lines = append([]string{caption}, lines...)
	}
	if len(lines) == 0 {
		return
	}
	w.newline(2)
	w.flush()
	w.b.WriteString(strings.Join(lines, "\n"))
	w.newline(2)
}

// cellText is a table cell's text on one line.
func cellText(n *html.Node) string {
	sub := &htmlWalker{}
	sub.children(n)
	return strings.Join(strings.FieldsFunc(sub.b.String(), isHTMLSpace), " ")
}

// nodeText is the text inside n.
func nodeText(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}
