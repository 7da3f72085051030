package docparse

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/quarry-dev/quarry"
)

// OCR renders pages at ocrDPI, fewer dots when a page would go past
// ocrMaxPixels.
const ocrDPI = 300

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
	var read, blank, none, failed []int
	var sum float64
	for i, r := range results {
		n := empty[i]
		switch {
		case r.err != nil:
			failed = append(failed, n)
		case r.blank:
			blank = append(blank, n)
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
	if len(blank) > 0 {
		doc.Notes = append(doc.Notes, fmt.Sprintf("%s %s no text layer and nothing drawn (blank): %s empty", pageList(blank), have(blank), they(blank)))
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
	blank      bool // nothing is drawn on the page
	err        error
}

// ocrPages renders each page with pdftoppm and reads it with tesseract,
// one page per core (tesseract limited to one thread each, which uses the
// cores better than its own threads). A page that fails gets its error in
// its result, except a page that goes over a budget: its RESOURCE_LIMIT
// stops the others and is the document's error. Ending ctx fails them all.
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
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, n := range pages {
		sem <- struct{}{}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			results[i] = ocrPage(ctx, pdftoppm, tesseract, dir, path, name, n)
			if quarry.ErrorCode(results[i].err) == quarry.ECodeResourceLimit {
				cancel(results[i].err)
			}
		})
	}
	wg.Wait()
	if cause := context.Cause(ctx); quarry.ErrorCode(cause) == quarry.ECodeResourceLimit {
		return nil, cause
	}
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
	base := filepath.Join(dir, "p"+strconv.Itoa(n))
	if blank, err := blankPage(ctx, pdftoppm, info, path, base+"-preview", name, n); err != nil || blank {
		return ocrResult{err: err, blank: blank}
	}
	r, err := planRender(info, n, ocrDPI, ocrMaxPixels, true, name)
	if err != nil {
		return ocrResult{err: err}
	}
	img := base + ".png"
	defer os.Remove(img)
	what := fmt.Sprintf("drawing page %d of %s for OCR", n, name)
	res, err := run(ctx, job{prog: pdftoppm, args: append(r.args(), "-gray", "-png", path, base), maxOut: 1 << 20, timeout: budgets.render})
	if err != nil {
		return ocrResult{err: childError(ctx, err, name, what)}
	}
	if res.exitCode != 0 {
		return ocrResult{err: fmt.Errorf("pdftoppm: exit status %d: %s", res.exitCode, firstLine(res.stderr))}
	}
	if err := checkImageFile(img, r, what); err != nil {
		return ocrResult{err: err}
	}
	res, err = run(ctx, job{prog: tesseract, args: []string{img, base, "--psm", "3", "txt", "tsv"}, env: []string{"OMP_THREAD_LIMIT=1"},
		maxOut: 1 << 20, timeout: budgets.ocrPage})
	defer os.Remove(base + ".txt")
	defer os.Remove(base + ".tsv")
	if err != nil {
		return ocrResult{err: childError(ctx, err, name, fmt.Sprintf("OCR of page %d of %s", n, name))}
	}
	if res.exitCode != 0 {
		return ocrResult{err: fmt.Errorf("tesseract: exit status %d: %s", res.exitCode, firstLine(res.stderr))}
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

// checkImageFile checks the PNG image pdftoppm wrote at path against r
// before tesseract reads it.
func checkImageFile(path string, r pageRender, what string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		return fmt.Errorf("pdftoppm's image: %w", err)
	}
	return r.check(cfg, what)
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

// previewDPI draws a page to see whether anything is on it: a tenth of
// OCR's dots, a few milliseconds where OCR takes most of a second.
const previewDPI = 30

// blankPage reports whether nothing is drawn on page n: every pixel of a
// coarse grey drawing of it is white, or nearly. Text too small to leave
// a grey pixel at previewDPI is too small for OCR at ocrDPI as well.
func blankPage(ctx context.Context, pdftoppm string, info pdfInfo, path, base, name string, n int) (bool, error) {
	r, err := planRender(info, n, previewDPI, ocrMaxPixels, true, name)
	if err != nil {
		return false, err
	}
	img := base + ".png"
	defer os.Remove(img)
	what := fmt.Sprintf("drawing page %d of %s for OCR", n, name)
	res, err := run(ctx, job{prog: pdftoppm, args: append(r.args(), "-gray", "-png", path, base), maxOut: 1 << 20, timeout: budgets.render})
	if err != nil {
		return false, childError(ctx, err, name, what)
	}
	if res.exitCode != 0 {
		return false, fmt.Errorf("pdftoppm: exit status %d: %s", res.exitCode, firstLine(res.stderr))
	}
	if err := checkImageFile(img, r, what); err != nil {
		return false, err
	}
	f, err := os.Open(img)
	if err != nil {
		return false, err
	}
	defer f.Close()
	m, err := png.Decode(f)
	if err != nil {
		return false, fmt.Errorf("pdftoppm's image: %w", err)
	}
	return white(m), nil
}

// white reports whether every pixel of m is white or nearly (a grey of
// 250 or more out of 255).
func white(m image.Image) bool {
	b := m.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if g := color.GrayModel.Convert(m.At(x, y)).(color.Gray); g.Y < 250 {
				return false
			}
		}
	}
	return true
}
