package docparse

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/quarry-dev/quarry"
)

// MaxDOCXXML is the most bytes word/document.xml may expand to: a DOCX is
// a ZIP archive, and a small one can hold a huge document (a zip bomb).
const MaxDOCXXML = 50 << 20

// maxCoreXML bounds docProps/core.xml, which holds the title.
const maxCoreXML = 1 << 20

// extractDOCX reads word/document.xml: paragraphs, tabs and line breaks,
// tables as one line a row with cells separated by " | ". Page breaks
// (explicit ones and those Word recorded when it last laid the document
// out) separate pages; without any, the text is cut into pages of about
// PageChars characters. Headers, footers, footnotes and comments are left
// out.
func extractDOCX(path, name string, size int64, o Options) (*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	notDOCX := quarry.Errorf(quarry.ECodeMalformedDocument, "%s is not a valid Word document (.docx)", name)
	zr, err := zip.NewReader(f, size)
	if err != nil {
		head := make([]byte, 512)
		n, _ := f.ReadAt(head, 0)
		if what := sniff(head[:n]); what != "" {
			return nil, notDOCX.WithHint("its content looks like " + what + "; upload it with the right extension")
		}
		return nil, notDOCX.WithHint("open it in Word and save it again as .docx")
	}
	var body, core *zip.File
	for _, zf := range zr.File {
		switch zf.Name {
		case "word/document.xml":
			body = zf
		case "docProps/core.xml":
			core = zf
		}
	}
	if body == nil {
		return nil, notDOCX.WithHint("it is a ZIP archive without word/document.xml; open it in Word and save it again as .docx")
	}
	if body.UncompressedSize64 > MaxDOCXXML {
		return nil, expandsError(name)
	}
	rc, err := body.Open()
	if err != nil {
		return nil, notDOCX.WithHint("the archive is damaged; open it in Word and save it again")
	}
	defer rc.Close()
	// archive/zip fails a file that inflates past its declared size; the
	// limit is a second guard.
	lr := &io.LimitedReader{R: rc, N: MaxDOCXXML + 1}
	w := &docxWalker{}
	err = w.walk(lr)
	if lr.N <= 0 {
		return nil, expandsError(name)
	}
	if err != nil {
		if errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, notDOCX.WithHint("the archive is damaged; open it in Word and save it again")
		}
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "%s is not a valid Word document (.docx): its text is damaged (line %d: %s)", name, se.Line, se.Msg).
				WithHint("open it in Word and save it again")
		}
		return nil, notDOCX.WithHint("open it in Word and save it again as .docx")
	}
	doc := &Document{Title: w.title}
	if core != nil {
		if t := docxCoreTitle(core); t != "" {
			doc.Title = t
		}
	}
	texts := w.pages
	if len(texts) <= 1 {
		texts = paginate(normalize(strings.Join(texts, "\n\n")), PageChars)
	}
	if len(texts) > o.MaxPages {
		return nil, tooManyPages(name, len(texts), o.MaxPages)
	}
	for _, t := range texts {
		doc.Pages = append(doc.Pages, Page{Text: normalize(t)})
	}
	return doc, nil
}

func expandsError(name string) error {
	return quarry.Errorf(quarry.ECodeMalformedDocument, "%s expands beyond %d MB of document text", name, MaxDOCXXML>>20).
		WithHint("a Word document this large is unusual; split it, or save it as PDF")
}

// docxCoreTitle returns dc:title from docProps/core.xml, or "".
func docxCoreTitle(zf *zip.File) string {
	if zf.UncompressedSize64 > maxCoreXML {
		return ""
	}
	rc, err := zf.Open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	var props struct {
		Title string `xml:"title"`
	}
	if err := xml.NewDecoder(io.LimitReader(rc, maxCoreXML)).Decode(&props); err != nil {
		return ""
	}
	return strings.TrimSpace(normalize(props.Title))
}

// docxWalker turns the WordprocessingML body into pages of text.
type docxWalker struct {
	pages []string        // finished pages, the last one open
	page  strings.Builder // the open page
	title string          // the first Title or Heading1 paragraph

	tables  []*docxTable
	pending bool // a page break inside a table, taken after it

	depthP, inRun, inText, inPPr int
	skip                         int // depth inside mc:Fallback, whose content repeats mc:Choice
	para                         strings.Builder
	paraStyle                    string
	outer                        []docxPara // paragraphs holding the open one (text boxes)
}

// docxPara is a paragraph interrupted by one inside it.
type docxPara struct{ text, style string }

type docxTable struct {
	rows [][]string
	row  []string
	cell strings.Builder
}

func (w *docxWalker) walk(r io.Reader) error {
	d := xml.NewDecoder(r)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if w.skip > 0 || t.Name.Local == "Fallback" {
				w.skip++
				continue
			}
			w.start(t)
		case xml.EndElement:
			if w.skip > 0 {
				w.skip--
				continue
			}
			w.end(t)
		case xml.CharData:
			if w.skip == 0 && w.inText > 0 {
				w.para.Write(t)
			}
		}
	}
	w.endPage()
	return nil
}

func (w *docxWalker) start(t xml.StartElement) {
	switch t.Name.Local {
	case "p":
		w.depthP++
		if w.depthP > 1 {
			w.outer = append(w.outer, docxPara{w.para.String(), w.paraStyle})
		}
		w.para.Reset()
		w.paraStyle = ""
	case "pPr":
		w.inPPr++
	case "pStyle":
		if w.inPPr > 0 {
			w.paraStyle = attr(t, "val")
		}
	case "pageBreakBefore":
		if w.inPPr > 0 && on(attr(t, "val")) && strings.TrimSpace(w.para.String()) == "" {
			w.pageBreak()
		}
	case "r":
		w.inRun++
	case "t":
		if w.inRun > 0 {
			w.inText++
		}
	case "tab":
		if w.inRun > 0 {
			w.para.WriteByte('\t')
		}
	case "br", "cr":
		if w.inRun == 0 {
			break
		}
		if attr(t, "type") == "page" {
			w.flushPara(false)
			w.pageBreak()
		} else {
			w.para.WriteByte('\n')
		}
	case "lastRenderedPageBreak":
		if w.inRun > 0 {
			w.flushPara(false)
			w.pageBreak()
		}
	case "noBreakHyphen":
		if w.inRun > 0 {
			w.para.WriteByte('-')
		}
	case "sym":
		if w.inRun > 0 {
			w.para.WriteString(" ")
		}
	case "tbl":
		w.flushPara(false)
		w.tables = append(w.tables, &docxTable{})
	case "tr":
		if tb := w.table(); tb != nil {
			tb.row = nil
		}
	case "tc":
		if tb := w.table(); tb != nil {
			tb.cell.Reset()
		}
	}
}

func (w *docxWalker) end(t xml.EndElement) {
	switch t.Name.Local {
	case "p":
		text := w.para.String()
		if w.title == "" && (w.paraStyle == "Title" || w.paraStyle == "Heading1") {
			w.title = strings.TrimSpace(strings.Join(strings.Fields(text), " "))
		}
		w.flushPara(true)
		if w.depthP--; len(w.outer) > 0 && w.depthP > 0 {
			p := w.outer[len(w.outer)-1]
			w.outer = w.outer[:len(w.outer)-1]
			w.para.WriteString(p.text)
			w.paraStyle = p.style
		}
	case "pPr":
		w.inPPr--
	case "r":
		w.inRun--
	case "t":
		if w.inText > 0 {
			w.inText--
		}
	case "tc":
		if tb := w.table(); tb != nil {
			tb.row = append(tb.row, strings.Join(strings.Fields(tb.cell.String()), " "))
		}
	case "tr":
		if tb := w.table(); tb != nil {
			tb.rows = append(tb.rows, tb.row)
			tb.row = nil
		}
	case "tbl":
		tb := w.table()
		if tb == nil {
			break
		}
		w.tables = w.tables[:len(w.tables)-1]
		lines := tableLines(tb.rows)
		if outer := w.table(); outer != nil {
			// A table in a cell joins the cell's text, row after row.
			outer.cell.WriteString(" " + strings.Join(lines, "; ") + " ")
			break
		}
		if len(lines) > 0 {
			w.writeBlock(strings.Join(lines, "\n"))
		}
		if w.pending {
			w.pending = false
			w.pageBreak()
		}
	}
}

// table is the innermost open table, or nil.
func (w *docxWalker) table() *docxTable {
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[len(w.tables)-1]
}

// flushPara moves the paragraph's text to the open table cell or page;
// end says the paragraph ended (rather than being cut by a page break).
func (w *docxWalker) flushPara(end bool) {
	text := w.para.String()
	w.para.Reset()
	if tb := w.table(); tb != nil {
		tb.cell.WriteString(text)
		if end {
			tb.cell.WriteByte(' ')
		}
		return
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	if end {
		w.writeBlock(text)
		return
	}
	w.page.WriteString(text)
}

// writeBlock appends a paragraph or table to the open page, after a blank
// line.
func (w *docxWalker) writeBlock(s string) {
	w.page.WriteString(s)
	w.page.WriteString("\n\n")
}

// pageBreak closes the open page. Breaks with nothing between them count
// once: Word records the break it laid out right after an explicit one.
// Inside a table the break waits for the table's end.
func (w *docxWalker) pageBreak() {
	if w.table() != nil {
		w.pending = true
		return
	}
	if strings.TrimSpace(w.page.String()) == "" {
		return
	}
	w.endPage()
}

func (w *docxWalker) endPage() {
	w.flushPara(false)
	if t := w.page.String(); strings.TrimSpace(t) != "" {
		w.pages = append(w.pages, t)
	}
	w.page.Reset()
}

// tableLines renders rows as lines with cells separated by " | ". Rows
// without text are dropped, and so are empty cells at a row's end.
func tableLines(rows [][]string) []string {
	var lines []string
	for _, r := range rows {
		end := len(r)
		for end > 0 && r[end-1] == "" {
			end--
		}
		if end == 0 {
			continue
		}
		lines = append(lines, strings.Join(r[:end], " | "))
	}
	return lines
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// on reads an OOXML boolean attribute; absent means true.
func on(v string) bool {
	switch v {
	case "0", "false", "off":
		return false
	}
	return true
}
