package docparse

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/quarry-dev/quarry/docparse/docparsetest"
)

// benchPDF is a 503-page 10-K from the FinanceBench corpus, read in place
// when this machine has it.
const benchPDF = "/work/shared/bench/financebench/pdfs/PEPSICO_2022_10K.pdf"

// BenchmarkExtractPDF reports pages/s of text extraction (pdftotext in
// batches on all cores, without OCR).
func BenchmarkExtractPDF(b *testing.B) {
	if _, err := os.Stat(benchPDF); err != nil {
		b.Skip("benchmark PDF not present:", err)
	}
	docparsetest.RequireTools(b, "pdfinfo", "pdftotext")
	pages := 0
	for b.Loop() {
		doc, err := Extract(context.Background(), benchPDF, "PEPSICO_2022_10K.pdf", Options{})
		if err != nil {
			b.Fatal(err)
		}
		pages += len(doc.Pages)
	}
	b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkExtractTextOneLine reads 5 MB of text without a line break or
// a space, which is cut into pages by characters: linear time (it was
// quadratic, seconds here and minutes at the 100 MB limit).
func BenchmarkExtractTextOneLine(b *testing.B) {
	path := writeFile(b, "line.txt", bytes.Repeat([]byte("x"), 5<<20))
	for b.Loop() {
		doc, err := Extract(context.Background(), path, "line.txt", Options{MaxPages: 10_000})
		if err != nil || len(doc.Pages) != (5<<20+PageChars-1)/PageChars {
			b.Fatalf("Extract = %v; want %d pages", err, (5<<20+PageChars-1)/PageChars)
		}
	}
}
