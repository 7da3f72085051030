package docparse

import (
	"context"
	"os"
	"testing"
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
	requireTools(b, "pdfinfo", "pdftotext")
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
