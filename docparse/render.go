package docparse

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
)

// MaxRenderDPI is the highest resolution RenderPage accepts.
const MaxRenderDPI = 600

// viewerName is how the viewer's functions name the file in messages: they
// get only its path, which messages never show.
const viewerName = "the PDF"

// RenderPage renders page n (from 1) of the PDF at path as a PNG image at
// dpi dots per inch. Errors: INVALID for a dpi outside 1..MaxRenderDPI or
// a page that would take more than 50 million pixels; NOT_FOUND for a page
// the document does not have; MALFORMED_DOCUMENT for a file poppler cannot
// read; UNAVAILABLE when poppler-utils is not installed or ctx ends.
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
	if renderDPI(info.width, info.height, dpi) < dpi {
		return nil, quarry.Errorf(quarry.ECodeInvalid, "page %d is too large to render at %d dpi", n, dpi).
			WithHint("ask for a lower resolution")
	}
	prog, err := tool("pdftoppm")
	if err != nil {
		return nil, err
	}
	// Without an output root, pdftoppm writes the image to standard output.
	res, err := run(ctx, 4*maxPixels, nil, prog, "-f", strconv.Itoa(n), "-l", strconv.Itoa(n), "-png", "-r", strconv.Itoa(dpi), "-singlefile", path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxError(ctx, viewerName)
		}
		return nil, err
	}
	if res.exitCode != 0 || !bytes.HasPrefix(res.stdout, []byte("\x89PNG\r\n\x1a\n")) {
		return nil, damagedError(viewerName, path, res.stderr)
	}
	return res.stdout, nil
}

// PageLayout is the words of one PDF page with their boxes, in PDF points
// from the page's top-left corner, as pdftotext -bbox-layout gives them.
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
	res, err := run(ctx, 256<<20, nil, prog, "-bbox-layout", "-enc", "UTF-8", "-f", strconv.Itoa(n), "-l", strconv.Itoa(n), path, "-")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxError(ctx, viewerName)
		}
		return nil, err
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
		return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "the word boxes of page %d cannot be read: %v", n, err)
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
