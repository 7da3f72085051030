package docparse

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/docparse/docparsetest"
)

// TestExtractImage: a scanned page uploaded as PNG or JPEG is one page of
// text read by OCR, with its confidence and a note; what is no image, or
// one too large to read, is refused with its code before tesseract runs.
func TestExtractImage(t *testing.T) {
	docparsetest.RequireTools(t, "tesseract")
	scan := docparsetest.ScanImage("QUARTERLY REVENUE REPORT", "Total units sold 4521")
	var p, j bytes.Buffer
	if err := png.Encode(&p, scan); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, scan, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, c := range []struct {
		name string
		data []byte
		kind string
	}{{"scan.png", p.Bytes(), "PNG"}, {"Scan.JPG", j.Bytes(), "JPEG"}, {"scan.jpeg", j.Bytes(), "JPEG"}} {
		doc, err := extract(t, c.name, c.data, DefaultOptions())
		checkDocument(t, doc, err)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if doc.Format != FormatImage || len(doc.Pages) != 1 || !doc.OCRAttempted {
			t.Fatalf("%s: format %s, %d pages, OCR %v; want one image page read by OCR", c.name, doc.Format, len(doc.Pages), doc.OCRAttempted)
		}
		pg := doc.Pages[0]
		for _, w := range []string{"QUARTERLY REVENUE REPORT", "Total units sold 4521"} {
			if !strings.Contains(pg.Text, w) {
				t.Errorf("%s: text %q; want it to hold %q", c.name, pg.Text, w)
			}
		}
		if !pg.OCR || pg.OCRConfidence == nil || *pg.OCRConfidence <= 0.5 || *pg.OCRConfidence > 1 {
			t.Errorf("%s: OCR %v, confidence %v; want OCR with a confidence in (0.5, 1]", c.name, pg.OCR, pg.OCRConfidence)
		}
		if len(doc.Notes) != 1 || !strings.HasPrefix(doc.Notes[0], "a "+c.kind+" image: its text comes from OCR") {
			t.Errorf("%s: notes %q", c.name, doc.Notes)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}

	var huge bytes.Buffer
	if err := png.Encode(&huge, image.NewGray(image.Rect(0, 0, 5000, 3500))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		code string
	}{
		{"notes.png", []byte("this is text, not a PNG"), quarry.ECodeMalformedDocument},
		{"photo.jpg", p.Bytes()[:40], quarry.ECodeMalformedDocument},
		{"poster.png", huge.Bytes(), quarry.ECodeFileTooLarge},
	} {
		_, err := extract(t, c.name, c.data, DefaultOptions())
		if got := quarry.ErrorCode(err); got != c.code {
			t.Errorf("%s: error %v (%s); want %s", c.name, err, got, c.code)
		}
	}
}
