package docparse

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/docparse/docparsetest"
)

// fuzzExtract extracts data as name and checks the result's invariants:
// no panic, and either a *quarry.Error or pages numbered 1..n holding
// normalized UTF-8.
func fuzzExtract(t *testing.T, name string, data []byte, timeout time.Duration) {
	path := writeFile(t, "upload", data)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	doc, err := Extract(ctx, path, name, Options{MaxBytes: 1 << 20, MaxPages: 100, MaxPageChars: 50_000})
	checkDocument(t, doc, err)
}

func FuzzExtractText(f *testing.F) {
	for _, s := range []string{"", "a", "one\ftwo\f", "\xEF\xBB\xBFbom", "\xFF\xFEu\x00", "\xFE\xFF\x00u", "caf\xe9", "a\r\n\r\nb\rc\x00\x1b",
		"# Title\n\nbody", "```\n# x\n```\n# y", "T\n==", paragraphs(3, 2000), "\f\f\f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzExtract(t, "a.md", []byte(s), 10*time.Second)
		fuzzExtract(t, "a.txt", []byte(s), 10*time.Second)
	})
}

func FuzzExtractCSV(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "a;b\n1;\"x;y\"\n", "a\tb\n", "a|b\n1|2", "a,\"b\nc\",d", "a,\"unclosed", "x,say \"hi\"\n",
		"\n\n,,\n", "h\n" + paragraphs(2, 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzExtract(t, "a.csv", []byte(s), 10*time.Second)
	})
}

func FuzzExtractHTML(f *testing.F) {
	for _, s := range []string{"<title>t</title><p>x", "<table><tr><td>a<td>b<table><tr><td>c</table></table>", "<ol start=x><li>a</ol>",
		"<pre>  a\n b</pre>", "<meta charset=\"shift_jis\">\x82\xa0", "\xFF\xFE<\x00p\x00>\x00", "<svg><text>x</text></svg><math>y</math>",
		"<br><br><hr>&nbsp;&amp;", "<script>x</script>", "<head><title>a</title></head><body><h1>h</h1>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzExtract(t, "a.html", []byte(s), 10*time.Second)
	})
}

func FuzzExtractDOCX(f *testing.F) {
	run := "<w:r><w:t>text</w:t><w:tab/><w:br/><w:br w:type=\"page\"/><w:lastRenderedPageBreak/></w:r>"
	f.Add(docparsetest.DOCX("<w:p>"+run+"</w:p>", "title"))
	f.Add(docparsetest.DOCX("<w:tbl><w:tr><w:tc><w:p>"+run+"</w:p><w:tbl><w:tr><w:tc><w:p>"+run+"</w:p></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>", ""))
	f.Add(docparsetest.DOCX("<w:p><w:pPr><w:pageBreakBefore/><w:pStyle w:val=\"Heading1\"/></w:pPr><w:r><mc:AlternateContent><mc:Fallback><w:p/></mc:Fallback></mc:AlternateContent></w:r></w:p>", ""))
	f.Add(docparsetest.DOCX("<w:p><w:r><w:t>unclosed</w:r>", ""))
	f.Add(docparsetest.Zip(map[string][]byte{"word/document.xml": []byte("<x>")}))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("not a zip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzExtract(t, "a.docx", data, 10*time.Second)
	})
}

func FuzzExtractPDF(f *testing.F) {
	docparsetest.RequireTools(f, "pdfinfo", "pdftotext")
	valid := samplePDF()
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add(docparsetest.PDF([]docparsetest.Page{docparsetest.TextPage("x")}, docparsetest.PDFOptions{UserPassword: "pw"}))
	f.Add(docparsetest.PDF(nil, docparsetest.PDFOptions{}))
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"))
	f.Add([]byte("%PDF-"))
	for _, box := range boxSeeds() {
		f.Add(onePage(box))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// OCR is off here (Options.OCR is false): tesseract would make
		// each input take seconds.
		fuzzExtract(t, "a.pdf", data, 5*time.Second)
	})
}

// boxSeeds are pages whose boxes have made images far over the cap: a
// tiny CropBox on a huge MediaBox, a huge MediaBox, UserUnit, rotation,
// boxes past each other and upside down.
func boxSeeds() []docparsetest.Page {
	return []docparsetest.Page{
		{MediaBox: [4]float64{0, 0, 3000, 3000}, CropBox: [4]float64{0, 0, 100, 100}},
		{MediaBox: [4]float64{0, 0, 14400, 14400}},
		{MediaBox: [4]float64{0, 0, 100, 100}, UserUnit: 75000},
		{MediaBox: [4]float64{0, 0, 3000, 100}, Rotate: 90},
		{MediaBox: [4]float64{0, 0, 100, 100}, CropBox: [4]float64{-9e6, -9e6, 9e6, 9e6}, Rotate: -270},
		{MediaBox: [4]float64{500, 500, 0, 0}, CropBox: [4]float64{400, 400, 300, 300}},
	}
}

// FuzzRenderPage draws page 1 of any PDF: a *quarry.Error, or a PNG no
// larger than the pixel cap and the size the page was planned at.
func FuzzRenderPage(f *testing.F) {
	docparsetest.RequireTools(f, "pdfinfo", "pdftoppm")
	f.Add(samplePDF(), uint16(72))
	for _, box := range boxSeeds() {
		f.Add(onePage(box), uint16(300))
	}
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj 2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj 3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 1e9 1e9] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"), uint16(36))
	f.Fuzz(func(t *testing.T, data []byte, dpi uint16) {
		path := writeFile(t, "page.pdf", data)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		img, err := RenderPage(ctx, path, 1, int(dpi))
		if err != nil {
			var qe *quarry.Error
			if !errors.As(err, &qe) || qe.Code == quarry.ECodeInternal || strings.Contains(err.Error(), filepath.Dir(path)) {
				t.Fatalf("RenderPage = %v (%T); want a *quarry.Error with a code, without the path", err, err)
			}
			return
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		if err != nil {
			t.Fatalf("RenderPage is not a PNG: %v", err)
		}
		if cfg.Width*cfg.Height > maxPixels {
			t.Fatalf("RenderPage at %d dpi is %dx%d; the cap is %d pixels", dpi, cfg.Width, cfg.Height, maxPixels)
		}
	})
}
