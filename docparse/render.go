package docparse

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
)

// MaxRenderDPI is the highest resolution RenderPage accepts.
const MaxRenderDPI = 600

// The pixel caps of a drawn page: maxPixels for RenderPage's images, in
// color, and ocrMaxPixels for OCR's, in gray, which is 300 dpi on an 11 x
// 17 inch page (tesseract takes some 200 MB for it, and more in step with
// the pixels).
const (
	maxPixels    = 50_000_000
	ocrMaxPixels = 17_000_000
)

// viewerName is how the viewer's functions name the file in messages: they
// get only its path, which messages never show.
const viewerName = "the PDF"

// RenderPage renders page n (from 1) of the PDF at path as a PNG image at
// dpi dots per inch: the page's CropBox, the part of it meant to be seen.
// Errors: INVALID for a dpi outside 1..MaxRenderDPI; RESOURCE_LIMIT for a
// page that would take more than 50 million pixels at dpi, or whose
// drawing goes over its time or memory budget (RenderBudget,
// ChildMemory); NOT_FOUND for a page the document does not have;
// MALFORMED_DOCUMENT for a file poppler cannot read; UNAVAILABLE when
// poppler-utils is not installed or ctx ends.
func RenderPage(ctx context.Context, path string, n, dpi int) ([]byte, error) {
	if dpi < 1 || dpi > MaxRenderDPI {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "resolution %d dpi is out of range 1-%d", dpi, MaxRenderDPI)
	}
	if err := checkPDFMagic(path, viewerName); err != nil {
		return nil, err
	}
	info, err := pageInfo(ctx, path, n)
	if err != nil {
		return nil, err
	}
	r, err := planRender(info, n, dpi, maxPixels, false, viewerName)
	if err != nil {
		return nil, err
	}
	prog, err := tool("pdftoppm")
	if err != nil {
		return nil, err
	}
	// Without an output root, pdftoppm writes the image to standard
	// output. An image of the planned size, even one that does not
	// compress, takes three bytes a pixel and one a row.
	maxOut := int64(3*r.w*r.h+r.h) + 1<<20
	what := fmt.Sprintf("drawing page %d of %s", n, viewerName)
	res, err := run(ctx, job{prog: prog, args: append(r.args(), "-png", path), maxOut: maxOut, timeout: budgets.render})
	if err != nil {
		return nil, childError(ctx, err, viewerName, what)
	}
	if res.overflow {
		return nil, r.tooLarge(what)
	}
	if res.exitCode != 0 {
		return nil, damagedError(viewerName, path, res.stderr)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(res.stdout))
	if err != nil {
		return nil, damagedError(viewerName, path, res.stderr)
	}
	if err := r.check(cfg, what); err != nil {
		return nil, err
	}
	return res.stdout, nil
}

// pageRender is how pdftoppm draws one page: at dpi, as an image of at
// most w x h pixels.
type pageRender struct {
	page, dpi, w, h int
}

// planRender sizes page n, which pdfinfo described as info, at dpi. With
// shrink it lowers dpi until the image fits in maxPx pixels; without, a
// page that does not fit at dpi is RESOURCE_LIMIT. A page without a size
// is MALFORMED_DOCUMENT.
func planRender(info pdfInfo, n, dpi, maxPx int, shrink bool, name string) (pageRender, error) {
	w, h := info.width, info.height
	if !(w > 0 && h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return pageRender{}, quarry.Errorf(quarry.ECodeMalformedDocument, "page %d of %s has no valid size", n, name).
			WithHint("open it in a PDF reader, save or print it to a new PDF and upload that")
	}
	if shrink {
		// The largest resolution that fits, but for the pixels
		// pixelSize adds for rounding, is the start; then down a dot at a
		// time until it fits, a few steps at most.
		if fit := 72 * math.Sqrt(float64(maxPx)/(w*h)); fit < float64(dpi) {
			dpi = max(1, int(fit))
		}
		for dpi > 1 && !fits(w, h, dpi, maxPx) {
			dpi--
		}
	}
	if !fits(w, h, dpi, maxPx) {
		return pageRender{}, quarry.Errorf(quarry.ECodeResourceLimit, "page %d of %s is too large to draw at %d dpi: the limit is %s pixels", n, name, dpi, count(maxPx)).
			WithHint("ask for a lower resolution, or print the document to a new PDF at a normal page size and upload that")
	}
	pw, ph := pixelSize(w, h, dpi)
	if info.rotate == 90 || info.rotate == 270 {
		pw, ph = ph, pw
	}
	return pageRender{page: n, dpi: dpi, w: pw, h: ph}, nil
}

// pixelSize is the size in pixels of w x h points drawn at dpi, as
// pdftoppm computes it (rounded up), with a pixel to spare for rounding.
func pixelSize(w, h float64, dpi int) (int, int) {
	return int(math.Ceil(w*float64(dpi)/72)) + 1, int(math.Ceil(h*float64(dpi)/72)) + 1
}

// fits reports whether w x h points drawn at dpi fit in maxPx pixels.
func fits(w, h float64, dpi, maxPx int) bool {
	pw := math.Ceil(w*float64(dpi)/72) + 1
	ph := math.Ceil(h*float64(dpi)/72) + 1
	return pw*ph <= float64(maxPx)
}

// args are pdftoppm's arguments for the page. -cropbox draws the CropBox,
// whose size pdfinfo gives, rather than the MediaBox, which may be far
// larger. -W and -H cut the image at w x h pixels whatever box poppler
// draws and however it scales it (UserUnit, which pdfinfo does not show),
// so that no page can make a larger image than the one planned: the
// bitmap pdftoppm allocates is the cut, not the page.
func (r pageRender) args() []string {
	return []string{"-f", strconv.Itoa(r.page), "-l", strconv.Itoa(r.page), "-r", strconv.Itoa(r.dpi), "-cropbox",
		"-x", "0", "-y", "0", "-W", strconv.Itoa(r.w), "-H", strconv.Itoa(r.h), "-singlefile"}
}

// check refuses an image larger than planned. pdftoppm's cut makes one
// impossible; the cap does not rest on one program's options alone.
func (r pageRender) check(img image.Config, what string) error {
	if img.Width > r.w || img.Height > r.h || img.Width <= 0 || img.Height <= 0 {
		return r.tooLarge(what)
	}
	return nil
}

func (r pageRender) tooLarge(what string) error {
	return quarry.Errorf(quarry.ECodeResourceLimit, "%s made a larger image than its %d x %d pixel budget", what, r.w, r.h).
		WithHint("print the document to a new PDF at a normal page size and upload that")
}

// PageLayout is the words of one PDF page with their boxes, in PDF points
// from the top-left corner of the page's CropBox (what RenderPage draws),
// as pdftotext -bbox-layout -cropbox gives them.
type PageLayout struct {
	Width, Height float64
	Words         []Word
}

// Word is one word on a page and its box.
type Word struct {
	Text                   string
	XMin, YMin, XMax, YMax float64
}

// WordBoxes returns the words of page n (from 1) of the PDF at path with
// their boxes and the page's size, so that a viewer can highlight a cited
// passage over RenderPage's image (scale points by dpi/72). A page without
// a text layer has no words. Errors as RenderPage's.
func WordBoxes(ctx context.Context, path string, n int) (*PageLayout, error) {
	if err := checkPDFMagic(path, viewerName); err != nil {
		return nil, err
	}
	info, err := pageInfo(ctx, path, n)
	if err != nil {
		return nil, err
	}
	prog, err := tool("pdftotext")
	if err != nil {
		return nil, err
	}
	// -cropbox puts the boxes on RenderPage's image, which is the
	// CropBox.
	res, err := run(ctx, job{
		prog:    prog,
		args:    []string{"-bbox-layout", "-cropbox", "-enc", "UTF-8", "-f", strconv.Itoa(n), "-l", strconv.Itoa(n), path, "-"},
		maxOut:  256 << 20,
		timeout: budgets.text + budgets.textPage,
	})
	if err != nil {
		return nil, childError(ctx, err, viewerName, fmt.Sprintf("reading the words of page %d of %s", n, viewerName))
	}
	if res.overflow {
		return nil, quarry.Errorf(quarry.ECodeFileTooLarge, "page %d has too many words to show their boxes", n)
	}
	if res.exitCode != 0 {
		if info.encrypted || isPasswordError(res.stderr) {
			return nil, encryptedError(viewerName)
		}
		return nil, damagedError(viewerName, path, res.stderr)
	}
	layout, err := parseBBoxLayout(res.stdout)
	if err != nil {
		return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "the word boxes of page %d cannot be read: %w", n, err)
	}
	return layout, nil
}

// pageInfo runs pdfinfo for page n and checks that the page exists.
func pageInfo(ctx context.Context, path string, n int) (pdfInfo, error) {
	info, err := readPDFInfo(ctx, path, viewerName, max(n, 1))
	if err != nil {
		return pdfInfo{}, err
	}
	if n < 1 || n > info.pages {
		return pdfInfo{}, quarry.Errorf(quarry.ECodeNotFound, "page %d does not exist; the document has %d pages", n, info.pages)
	}
	return info, nil
}

// parseBBoxLayout reads the XHTML of pdftotext -bbox-layout for one page:
// <page width height> holding <word xMin yMin xMax yMax>text</word>.
func parseBBoxLayout(data []byte) (*PageLayout, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	layout := &PageLayout{}
	var word *Word
	var text strings.Builder
	seenPage := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "page":
				if seenPage {
					return layout, nil // one page was asked for
				}
				seenPage = true
				layout.Width = floatAttr(t, "width")
				layout.Height = floatAttr(t, "height")
			case "word":
				word = &Word{XMin: floatAttr(t, "xMin"), YMin: floatAttr(t, "yMin"), XMax: floatAttr(t, "xMax"), YMax: floatAttr(t, "yMax")}
				text.Reset()
			}
		case xml.CharData:
			if word != nil {
				text.Write(t)
			}
		case xml.EndElement:
			if t.Name.Local == "word" && word != nil {
				word.Text = strings.TrimSpace(strings.ToValidUTF8(text.String(), "\uFFFD"))
				if word.Text != "" {
					layout.Words = append(layout.Words, *word)
				}
				word = nil
			}
		}
	}
	if !seenPage {
		return nil, errors.New("no page in pdftotext's output")
	}
	return layout, nil
}

func floatAttr(e xml.StartElement, name string) float64 {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			f, _ := strconv.ParseFloat(a.Value, 64)
			return f
		}
	}
	return 0
}
