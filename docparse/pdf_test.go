package docparse

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/docparse/docparsetest"
)

// tablePage is a page with a small table whose columns only layout mode
// keeps apart.
func tablePage() docparsetest.Page {
	var p docparsetest.Page
	for i, row := range [][3]string{{"Region", "2022", "2023"}, {"EMEA", "1,200", "1,450"}, {"APAC", "880", "1,020"}} {
		y := 700 - 16*float64(i)
		for j, x := range []float64{72, 300, 420} {
			p.Lines = append(p.Lines, docparsetest.Line{X: x, Y: y, Size: 11, Text: row[j]})
		}
	}
	return p
}

func samplePDF() []byte {
	return docparsetest.PDF([]docparsetest.Page{
		docparsetest.TextPage("Quarterly report", "Revenue grew 12% (constant currency)"),
		docparsetest.TextPage("Page two: risks", "Supply chain"),
		tablePage(),
	}, docparsetest.PDFOptions{Title: "Annual Report 2023"})
}

func TestExtractPDF(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	doc, err := extract(t, "Annual.PDF", samplePDF(), DefaultOptions())
	checkDocument(t, doc, err)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Format != FormatPDF || doc.Title != "Annual Report 2023" || doc.OCRAttempted || len(doc.Notes) > 0 {
		t.Errorf("Extract = format %q, title %q, OCR %v, notes %q; want pdf, the title, no OCR, no notes", doc.Format, doc.Title, doc.OCRAttempted, doc.Notes)
	}
	if len(doc.Pages) != 3 {
		t.Fatalf("Extract has %d pages; want 3", len(doc.Pages))
	}
	want := []string{"Quarterly report\nRevenue grew 12% (constant currency)", "Page two: risks\nSupply chain"}
	for i, w := range want {
		if got := doc.Pages[i].Text; got != w {
			t.Errorf("page %d = %q; want %q", i+1, got, w)
		}
	}
	// Layout mode keeps each table row on one line, its columns apart.
	table := doc.Pages[2].Text
	for _, row := range []string{`Region\s{2,}2022\s{2,}2023`, `EMEA\s{2,}1,200\s{2,}1,450`, `APAC\s{2,}880\s{2,}1,020`} {
		if !regexp.MustCompile(`(?m)^\s*` + row + `$`).MatchString(table) {
			t.Errorf("page 3 = %q; want a line matching %s", table, row)
		}
	}
}

func TestExtractPDFManyPages(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	// More pages than a batch, so batches run at once and are joined.
	var pages []docparsetest.Page
	for i := range maxPDFBatch + 44 {
		pages = append(pages, docparsetest.TextPage("page", strconv.Itoa(i+1)))
	}
	doc, err := extract(t, "long.pdf", docparsetest.PDF(pages, docparsetest.PDFOptions{}), Options{})
	checkDocument(t, doc, err)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != len(pages) {
		t.Fatalf("Extract has %d pages; want %d", len(doc.Pages), len(pages))
	}
	for i, p := range doc.Pages {
		if want := "page\n" + strconv.Itoa(i+1); p.Text != want {
			t.Fatalf("page %d = %q; want %q", i+1, p.Text, want)
		}
	}
}

func TestExtractPDFErrors(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	valid := samplePDF()
	var five []docparsetest.Page
	for range 5 {
		five = append(five, docparsetest.TextPage("text"))
	}
	tests := []struct {
		name string
		data []byte
		o    Options
		code string
		msg  string
	}{
		{"cut.pdf", valid[:200], Options{}, quarry.ECodeMalformedDocument, "cut.pdf is damaged"},
		{"junk.pdf", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("garbage \x00\xff"), 500)...), Options{}, quarry.ECodeMalformedDocument, "junk.pdf is damaged"},
		{"locked.pdf", docparsetest.PDF([]docparsetest.Page{docparsetest.TextPage("secret")}, docparsetest.PDFOptions{UserPassword: "hunter2"}), Options{}, quarry.ECodeMalformedDocument, "locked.pdf is encrypted"},
		{"none.pdf", docparsetest.PDF(nil, docparsetest.PDFOptions{}), Options{}, quarry.ECodeMalformedDocument, "none.pdf is damaged and cannot be read (Syntax Error: Invalid page count 0)"},
		{"five.pdf", docparsetest.PDF(five, docparsetest.PDFOptions{}), Options{MaxPages: 3}, quarry.ECodeFileTooLarge, "five.pdf has 5 pages; the limit is 3"},
		{"dense.pdf", valid, Options{MaxPageChars: 20}, quarry.ECodeFileTooLarge, "page 1 of dense.pdf has 53 characters; the limit is 20"},
		{"blank.pdf", docparsetest.PDF([]docparsetest.Page{{}, {}}, docparsetest.PDFOptions{}), Options{}, quarry.ECodeMalformedDocument, "blank.pdf has no text layer and OCR is turned off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := extract(t, tt.name, tt.data, tt.o)
			checkDocument(t, doc, err)
			if code := quarry.ErrorCode(err); code != tt.code {
				t.Fatalf("Extract(%s) = %v; want code %s", tt.name, err, tt.code)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Extract(%s) = %q; want it to say %q", tt.name, err, tt.msg)
			}
		})
	}
}

// TestEncryptedPDFIsReal checks the hand-made encryption: poppler reads the
// text with the password.
func TestEncryptedPDFIsReal(t *testing.T) {
	docparsetest.RequireTools(t, "pdftotext")
	path := writeFile(t, "locked.pdf", docparsetest.PDF([]docparsetest.Page{docparsetest.TextPage("secret words")}, docparsetest.PDFOptions{UserPassword: "hunter2"}))
	out, err := exec.Command("pdftotext", "-upw", "hunter2", path, "-").Output()
	if err != nil || !strings.Contains(string(out), "secret words") {
		t.Errorf("pdftotext -upw = %q, %v; want the text", out, err)
	}
}

func scannedPDF() []byte {
	return docparsetest.PDF([]docparsetest.Page{
		docparsetest.TextPage("Cover page"),
		{Scan: docparsetest.ScanImage("QUARTERLY REVENUE REPORT", "Total units sold 4521")},
	}, docparsetest.PDFOptions{})
}

func TestExtractPDFOCR(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext", "pdftoppm", "tesseract")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	doc, err := extract(t, "scan.pdf", scannedPDF(), DefaultOptions())
	checkDocument(t, doc, err)
	if err != nil {
		t.Fatal(err)
	}
	if !doc.OCRAttempted {
		t.Error("OCRAttempted = false; want true")
	}
	p1, p2 := doc.Pages[0], doc.Pages[1]
	if p1.OCR || p1.Text != "Cover page" {
		t.Errorf("page 1 = %q (OCR %v); want its text layer", p1.Text, p1.OCR)
	}
	if !p2.OCR || p2.OCRConfidence == nil || *p2.OCRConfidence <= 0.5 || *p2.OCRConfidence > 1 {
		t.Errorf("page 2: OCR %v, confidence %v; want OCR with a confidence in (0.5, 1]", p2.OCR, p2.OCRConfidence)
	}
	for _, w := range []string{"QUARTERLY REVENUE REPORT", "Total units sold 4521"} {
		if !strings.Contains(p2.Text, w) {
			t.Errorf("page 2 = %q; want it to hold %q", p2.Text, w)
		}
	}
	if len(doc.Notes) != 1 || !strings.HasPrefix(doc.Notes[0], "page 2 has no text layer: its text comes from OCR (mean confidence 0.") {
		t.Errorf("Notes = %q; want one about OCR on page 2", doc.Notes)
	}
	left, _ := os.ReadDir(tmp)
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestExtractPDFBlankPage: a page with nothing drawn on it is noted as
// blank without OCR; a faint scan beside it is still read.
func TestExtractPDFBlankPage(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext", "pdftoppm", "tesseract")
	t.Setenv("TMPDIR", t.TempDir())
	data := docparsetest.PDF([]docparsetest.Page{
		docparsetest.TextPage("Cover page"), {},
		{Scan: docparsetest.ScanImage("APPENDIX TABLES")},
	}, docparsetest.PDFOptions{})
	doc, err := extract(t, "blank-page.pdf", data, DefaultOptions())
	checkDocument(t, doc, err)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Pages[1].Text != "" || doc.Pages[1].OCR || !strings.Contains(doc.Pages[2].Text, "APPENDIX TABLES") {
		t.Errorf("pages 2 and 3 = %q (OCR %v), %q; want page 2 empty without OCR and page 3 read", doc.Pages[1].Text, doc.Pages[1].OCR, doc.Pages[2].Text)
	}
	want := "page 2 has no text layer and nothing drawn (blank): it is empty"
	if !slices.Contains(doc.Notes, want) {
		t.Errorf("Notes = %q; want %q", doc.Notes, want)
	}
}

func TestExtractPDFWithoutOCR(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	data := scannedPDF()
	doc, err := extract(t, "scan.pdf", data, Options{OCR: false})
	checkDocument(t, doc, err)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"page 2 has no text layer and OCR is turned off: it is empty"}
	if doc.OCRAttempted || doc.Pages[1].Text != "" || doc.Pages[1].OCR || strings.Join(doc.Notes, "|") != want[0] {
		t.Errorf("Extract without OCR = OCR %v, page 2 %q, notes %q; want no OCR, an empty page 2 and %q", doc.OCRAttempted, doc.Pages[1].Text, doc.Notes, want)
	}

	// Without tesseract on the PATH.
	onlyPoppler(t)
	doc, err = extract(t, "scan.pdf", data, DefaultOptions())
	checkDocument(t, doc, err)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(doc.Notes, "|"); got != "page 2 has no text layer and tesseract-ocr is not installed: it is empty" {
		t.Errorf("Notes = %q; want that tesseract is missing", got)
	}
	scanOnly := docparsetest.PDF([]docparsetest.Page{{Scan: docparsetest.ScanImage("scanned")}, {Scan: docparsetest.ScanImage("pages")}}, docparsetest.PDFOptions{})
	_, err = extract(t, "scan-only.pdf", scanOnly, DefaultOptions())
	if quarry.ErrorCode(err) != quarry.ECodeMalformedDocument || !strings.Contains(err.Error(), "scan-only.pdf has no text layer and OCR (tesseract-ocr) is not installed") {
		t.Errorf("Extract(scan-only.pdf) = %v; want MALFORMED_DOCUMENT, no text layer and no tesseract", err)
	}
}

// onlyPoppler sets PATH to a directory holding only the poppler programs.
func onlyPoppler(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"pdfinfo", "pdftotext", "pdftoppm"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
}

func TestExtractPDFWithoutPoppler(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := extract(t, "a.pdf", []byte("%PDF-1.4\n"), Options{})
	if quarry.ErrorCode(err) != quarry.ECodeUnavailable || !strings.Contains(err.Error(), "poppler-utils") {
		t.Errorf("Extract without poppler = %v; want UNAVAILABLE naming poppler-utils", err)
	}
}

func TestExtractCancelled(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := writeFile(t, "a.pdf", samplePDF())
	_, err := Extract(ctx, path, "a.pdf", Options{})
	if quarry.ErrorCode(err) != quarry.ECodeUnavailable || !errors.Is(err, context.Canceled) {
		t.Errorf("Extract(cancelled) = %v; want UNAVAILABLE wrapping context.Canceled", err)
	}
}

func TestRenderPage(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftoppm")
	path := writeFile(t, "a.pdf", samplePDF())
	img, err := RenderPage(context.Background(), path, 2, 72)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil {
		t.Fatalf("RenderPage is not a PNG: %v", err)
	}
	if cfg.Width != 612 || cfg.Height != 792 {
		t.Errorf("RenderPage at 72 dpi is %dx%d; want 612x792", cfg.Width, cfg.Height)
	}
	if len(img) < 1000 || len(img) > 1<<20 {
		t.Errorf("RenderPage is %d bytes; want 1 KB-1 MB", len(img))
	}
	for _, tt := range []struct {
		n, dpi int
		code   string
	}{
		{4, 72, quarry.ECodeNotFound},
		{0, 72, quarry.ECodeNotFound},
		{1, 0, quarry.ECodeInvalid},
		{1, 601, quarry.ECodeInvalid},
	} {
		if _, err := RenderPage(context.Background(), path, tt.n, tt.dpi); quarry.ErrorCode(err) != tt.code {
			t.Errorf("RenderPage(page %d, %d dpi) = %v; want %s", tt.n, tt.dpi, err, tt.code)
		}
	}
}

func TestWordBoxes(t *testing.T) {
	docparsetest.RequireTools(t, "pdfinfo", "pdftotext")
	path := writeFile(t, "a.pdf", samplePDF())
	layout, err := WordBoxes(context.Background(), path, 2)
	if err != nil {
		t.Fatal(err)
	}
	if layout.Width != 612 || layout.Height != 792 {
		t.Errorf("page size = %gx%g; want 612x792", layout.Width, layout.Height)
	}
	var words []string
	var risks *Word
	for i, w := range layout.Words {
		words = append(words, w.Text)
		if w.Text == "risks" {
			risks = &layout.Words[i]
		}
	}
	if strings.Join(words, " ") != "Page two: risks Supply chain" {
		t.Errorf("words = %q; want those of page 2", words)
	}
	// "Page two: risks" is 12-point text on a baseline 72 points below
	// the top of the page.
	if risks == nil || risks.XMin <= 72 || risks.XMax <= risks.XMin || risks.YMin < 55 || risks.YMax > 80 || risks.YMax <= risks.YMin {
		t.Errorf("box of %q = %+v; want it on the first line, right of the left margin", "risks", risks)
	}
	if _, err := WordBoxes(context.Background(), path, 9); quarry.ErrorCode(err) != quarry.ECodeNotFound {
		t.Errorf("WordBoxes(page 9) = %v; want NOT_FOUND", err)
	}
	locked := writeFile(t, "l.pdf", docparsetest.PDF([]docparsetest.Page{docparsetest.TextPage("x")}, docparsetest.PDFOptions{UserPassword: "pw"}))
	if _, err := WordBoxes(context.Background(), locked, 1); quarry.ErrorCode(err) != quarry.ECodeMalformedDocument {
		t.Errorf("WordBoxes(encrypted) = %v; want MALFORMED_DOCUMENT", err)
	}
}
