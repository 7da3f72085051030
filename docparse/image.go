package docparse

import (
	"context"
	"fmt"
	"image"
	_ "image/jpeg" // image.DecodeConfig reads JPEG scans
	_ "image/png"  // and PNG ones
	"os"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
)

// extractImage reads a scan or photo of one page (PNG or JPEG) with
// tesseract: one page, its text from OCR with tesseract's mean word
// confidence. Its size is checked before tesseract reads it, against the
// pixels OCR reads on a PDF page.
func extractImage(ctx context.Context, path, name string, o Options) (*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	cfg, kind, err := image.DecodeConfig(f)
	f.Close()
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "%s is not a PNG or JPEG image: %v", name, err)
	}
	if px := cfg.Width * cfg.Height; px > ocrMaxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, quarry.Errorf(quarry.ECodeFileTooLarge, "%s is %d x %d pixels; OCR reads images of at most %d million pixels",
			name, cfg.Width, cfg.Height, ocrMaxPixels/1_000_000).WithHint("scan it at 300 dpi or less, or scale it down")
	}
	if !o.OCR {
		return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "%s is an image, and OCR is off: its text cannot be read", name)
	}
	tesseract := lookTesseract()
	if tesseract == "" {
		return nil, quarry.Errorf(quarry.ECodeUnavailable, "reading scanned images needs tesseract, which is not installed on the server").
			WithHint("install tesseract-ocr (apt-get install tesseract-ocr tesseract-ocr-eng)")
	}
	dir, err := os.MkdirTemp("", "docparse-image-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	base := filepath.Join(dir, "page")
	what := "OCR of " + name
	res, err := run(ctx, job{prog: tesseract, args: []string{path, base, "--psm", "3", "txt", "tsv"}, env: []string{"OMP_THREAD_LIMIT=1"},
		maxOut: 1 << 20, timeout: budgets.ocrPage})
	if err != nil {
		return nil, childError(ctx, err, name, what)
	}
	if res.exitCode != 0 {
		return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "%s could not be read by OCR: %s", name, firstLine(res.stderr))
	}
	text, err := os.ReadFile(base + ".txt")
	if err != nil {
		return nil, err
	}
	conf, err := tsvConfidence(base + ".tsv")
	if err != nil {
		return nil, err
	}
	t := normalize(string(text))
	if strings.TrimSpace(t) == "" {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "OCR found no text in %s", name).WithHint("upload a sharper scan, at 300 dpi")
	}
	return &Document{Pages: []Page{{Text: t, OCR: true, OCRConfidence: &conf}}, OCRAttempted: true,
		Notes: []string{fmt.Sprintf("a %s image: its text comes from OCR (mean confidence %.2f)", strings.ToUpper(kind), conf)}}, nil
}
