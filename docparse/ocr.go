package docparse

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/quarry-dev/quarry"
)

// OCR renders pages at ocrDPI, fewer dots when a page would go past
// maxPixels.
const (
	ocrDPI    = 300
	maxPixels = 50_000_000
)

// ocrEmptyPages OCRs doc's pages listed in empty (numbers, ascending) when
// it can, and says in doc.Notes what happened to them. A document with no
// text left at all is MALFORMED_DOCUMENT.
func ocrEmptyPages(ctx context.Context, doc *Document, empty []int, path, name string, o Options) error {
	tesseract := lookTesseract()
	if !o.OCR || tesseract == "" {
		why := "OCR is turned off"
		if o.OCR {
			why = "tesseract-ocr is not installed"
		}
		if len(empty) == len(doc.Pages) {
			e := quarry.Errorf(quarry.ECodeMalformedDocument, "%s has no text layer and OCR (tesseract-ocr) is not installed", name)
			if !o.OCR {
				e = quarry.Errorf(quarry.ECodeMalformedDocument, "%s has no text layer and OCR is turned off", name)
			}
			return e.WithHint("it is probably scanned: upload a version with text (run it through OCR first), or ask the administrator to install tesseract-ocr")
		}
		doc.Notes = append(doc.Notes, fmt.Sprintf("%s %s no text layer and %s: %s empty", pageList(empty), have(empty), why, they(empty)))
		return nil
	}
	doc.OCRAttempted = true
	results, err := ocrPages(ctx, tesseract, path, name, empty)
	if err != nil {
		return err
	}
	var read, none, failed []int
	var sum float64
	for i, r := range results {
		n := empty[i]
		switch {
		case r.err != nil:
			failed = append(failed, n)
		case strings.TrimSpace(r.text) == "":
			none = append(none, n)
		default:
			conf := r.confidence
			doc.Pages[n-1] = Page{Number: n, Text: r.text, OCR: true, OCRConfidence: &conf}
			read = append(read, n)
			sum += conf
		}
	}
	if len(read) > 0 {
		doc.Notes = append(doc.Notes, fmt.Sprintf("%s %s no text layer: %s text comes from OCR (mean confidence %.2f)",
			pageList(read), have(read), their(read), sum/float64(len(read))))
	}
	if len(none) > 0 {
		doc.Notes = append(doc.Notes, fmt.Sprintf("%s %s no text layer and OCR found no text: %s empty", pageList(none), have(none), they(none)))
	}
	if len(failed) > 0 {
		doc.Notes = append(doc.Notes, fmt.Sprintf("%s %s no text layer and OCR failed: %s empty", pageList(failed), have(failed), they(failed)))
	}
	if len(read) == 0 && len(empty) == len(doc.Pages) {
		what := "OCR found no text in it"
		if len(failed) > 0 {
			what = "OCR failed on it"
		}
		return quarry.Errorf(quarry.ECodeMalformedDocument, "%s has no text layer and %s", name, what).
			WithHint("upload a version with text, or a clearer scan")
	}
	return nil
}

func have(pages []int) string {
	if len(pages) == 1 {
		return "has"
	}
	return "have"
}

func they(pages []int) string {
	if len(pages) == 1 {
		return "it is"
	}
	return "they are"
}

func their(pages []int) string {
	if len(pages) == 1 {
		return "its"
	}
	return "their"
}

// ocrResult is one page's OCR.
type ocrResult struct {
	text       string
	confidence float64
	err        error
}

// ocrPages renders each page with pdftoppm and reads it with tesseract,
// one page per core (tesseract limited to one thread each, which uses the
// cores better than its own threads). A page that fails gets its error in
// its result; ending ctx fails them all.
func ocrPages(ctx context.Context, tesseract, path, name string, pages []int) ([]ocrResult, error) {
	pdftoppm, err := tool("pdftoppm")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "docparse-ocr-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	results := make([]ocrResult, len(pages))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	for i, n := range pages {
		sem <- struct{}{}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			results[i] = ocrPage(ctx, pdftoppm, tesseract, dir, path, name, n)
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctxError(ctx, name)
	}
	return results, nil
}

func ocrPage(ctx context.Context, pdftoppm, tesseract, dir, path, name string, n int) ocrResult {
	info, err := readPDFInfo(ctx, path, name, n)
	if err != nil {
		return ocrResult{err: err}
	}
	dpi := renderDPI(info.width, info.height, ocrDPI)
	base := filepath.Join(dir, "p"+strconv.Itoa(n))
	res, err := run(ctx, 1<<20, nil, pdftoppm, "-f", strconv.Itoa(n), "-l", strconv.Itoa(n), "-r", strconv.Itoa(dpi),
		"-gray", "-png", "-singlefile", path, base)
	if err == nil && res.exitCode != 0 {
		err = fmt.Errorf("pdftoppm: exit status %d: %s", res.exitCode, firstLine(res.stderr))
	}
	if err != nil {
		return ocrResult{err: err}
	}
	img := base + ".png"
	defer os.Remove(img)
	res, err = run(ctx, 1<<20, []string{"OMP_THREAD_LIMIT=1"}, tesseract, img, base, "--psm", "3", "txt", "tsv")
	defer os.Remove(base + ".txt")
	defer os.Remove(base + ".tsv")
	if err == nil && res.exitCode != 0 {
		err = fmt.Errorf("tesseract: exit status %d: %s", res.exitCode, firstLine(res.stderr))
	}
	if err != nil {
		return ocrResult{err: err}
	}
	text, err := os.ReadFile(base + ".txt")
	if err != nil {
		return ocrResult{err: err}
	}
	conf, err := tsvConfidence(base + ".tsv")
	if err != nil {
		return ocrResult{err: err}
	}
	return ocrResult{text: normalize(string(text)), confidence: conf}
}

// renderDPI is dpi, or less when a page of w x h points would take more
// than maxPixels; at least 1.
func renderDPI(w, h float64, dpi int) int {
	for dpi > 1 && w*h*float64(dpi)*float64(dpi)/(72*72) > maxPixels {
		dpi = dpi * 9 / 10
	}
	return dpi
}

// tsvConfidence is the mean confidence of the words in tesseract's TSV
// output, between 0 and 1.
func tsvConfidence(path string) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var sum float64
	var words int
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// level page block par line word left top width height conf text
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 12 || cols[0] != "5" || strings.TrimSpace(cols[11]) == "" {
			continue
		}
		c, err := strconv.ParseFloat(cols[10], 64)
		if err != nil || c < 0 {
			continue
		}
		sum += min(c, 100)
		words++
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if words == 0 {
		return 0, nil
	}
	return sum / float64(words) / 100, nil
}
