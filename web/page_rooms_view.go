package web

import (
	"context"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/docparse"
	"github.com/quarry-dev/quarry/room"
)

// pageDPI is the resolution pages are shown at: a US Letter page is 850
// pixels wide, legible without zooming.
const pageDPI = 100

// renderSlots bounds the poppler processes the pages run at once (page
// images and word boxes), so that a page of thumbnails cannot take every
// core of the machine.
var renderSlots = make(chan struct{}, 2)

// withSlot runs f holding a render slot; ctx ending while waiting is
// UNAVAILABLE.
func withSlot[T any](ctx context.Context, f func() (T, error)) (T, error) {
	select {
	case renderSlots <- struct{}{}:
		defer func() { <-renderSlots }()
		return f()
	case <-ctx.Done():
		var zero T
		return zero, quarry.Errorf(quarry.ECodeUnavailable, "the page was not drawn: the request ended while it waited")
	}
}

func renderPage(ctx context.Context, path string, n, dpi int) ([]byte, error) {
	return withSlot(ctx, func() ([]byte, error) { return docparse.RenderPage(ctx, path, n, dpi) })
}

func wordBoxes(ctx context.Context, path string, n int) (*docparse.PageLayout, error) {
	return withSlot(ctx, func() (*docparse.PageLayout, error) { return docparse.WordBoxes(ctx, path, n) })
}

// pdfPath is the file of a PDF document. Errors: NOT_FOUND for another
// format, whose pages are text only.
func (s *Server) pdfPath(r *http.Request, u *room.User, d *room.Document) (string, error) {
	if d.Format != docparse.FormatPDF {
		return "", quarry.Errorf(quarry.ECodeNotFound, "%s is a %s document; only PDF pages have images", d.Name, d.Format)
	}
	path, _, err := s.opt.Rooms.FilePath(r.Context(), u.ID, d.ID)
	return path, err
}

// serveFile sends a document's original bytes as an attachment, in a
// sandbox so that nothing in it runs as this site.
func serveFile(w http.ResponseWriter, r *http.Request, path string, d *room.Document) error {
	f, err := os.Open(path)
	if err != nil {
		return quarry.Errorf(quarry.ECodeNotFound, "the file of %s is missing", d.Name)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	ct, ok := downloadTypes[d.Format]
	if !ok {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": d.Name}))
	w.Header().Set("Content-Security-Policy", "sandbox")
	w.Header().Set("Cache-Control", "private, no-cache")
	http.ServeContent(w, r, "", st.ModTime(), f)
	return nil
}

// pageView is one page of a document, with the passage a citation quotes
// highlighted: over the page's image for a PDF, in its text otherwise.
type pageView struct {
	pageBase
	Room     *room.Room
	RoomURL  string
	Doc      *room.Document
	Page     *room.Page
	IsPDF    bool
	ImageURL string
	// ImageW and ImageH are the image's size in pixels, for the layout
	// before it loads.
	ImageW, ImageH int
	Highlight      *highlight
	// Before, Passage and After are the page's text around the cited
	// passage (all of it in Before when no passage is cited).
	Before, Passage, After string
	Chunk                  *room.Chunk
	Prev, Next             string
	AnswerURL              string
	Rank                   int
}

// OCR is the page's OCR confidence, 0 when it was not read by OCR.
func (v pageView) OCR() float64 {
	if v.Page.OCRConfidence == nil {
		return 0
	}
	return *v.Page.OCRConfidence
}

func (s *Server) pageViewPage(w http.ResponseWriter, r *http.Request, u *room.User, rm *room.Room) error {
	d, p, err := s.viewPage(r, u, rm)
	if err != nil {
		return err
	}
	ctx := r.Context()
	c, err := s.chunkOn(r, u, d, p, r.URL.Query().Get("chunk"))
	if err != nil {
		return err
	}
	v := pageView{Room: rm, RoomURL: roomURL(rm.ID), Doc: d, Page: p, Chunk: c, IsPDF: d.Format == docparse.FormatPDF}
	v.Title = d.Name + ", page " + strconv.Itoa(p.Number)
	base := v.RoomURL + "/documents/" + url.PathEscape(d.ID) + "/pages/"
	if p.Number > 1 {
		v.Prev = base + strconv.Itoa(p.Number-1)
	}
	if p.Number < d.PageCount {
		v.Next = base + strconv.Itoa(p.Number+1)
	}
	if c != nil {
		v.Before, v.Passage, v.After = markPassage(p.Text, c.StartChar, c.EndChar)
	} else {
		v.Before = p.Text
	}
	quote := ""
	if qid := r.URL.Query().Get("query"); qid != "" {
		// The answer the citation came from, when it is the user's: its
		// preview is the passage that answers, marked instead of the
		// whole chunk when it is found in it.
		if q, err := s.opt.Rooms.Query(ctx, u.ID, qid); err == nil && q.RoomID == rm.ID {
			v.AnswerURL = roomURL(rm.ID) + "/queries/" + url.PathEscape(q.ID)
			for _, cit := range q.Citations {
				if c != nil && cit.ChunkID == c.ID {
					v.Rank = cit.Rank
					if qs, qe, ok := quoteSpan(p.Text, strings.Trim(cit.TextPreview, "…"), c.StartChar, c.EndChar); ok {
						quote = strings.Trim(cit.TextPreview, "…")
						v.Before, v.Passage, v.After = markPassage(p.Text, qs, qe)
					}
				}
			}
		}
	}
	if v.IsPDF {
		v.ImageURL = documentAPI(rm.ID, d.ID) + "/pages/" + strconv.Itoa(p.Number) + "/image"
		path, err := s.pdfPath(r, u, d)
		if err != nil {
			return err
		}
		if c != nil {
			v.Highlight, err = highlightOn(ctx, path, p, c, quote)
		} else {
			var layout *docparse.PageLayout
			if layout, err = wordBoxes(ctx, path, p.Number); err == nil {
				v.Highlight = &highlight{Width: layout.Width, Height: layout.Height, Matched: "none"}
			}
		}
		if err != nil {
			// The image may still draw; the text below shows the passage.
			s.log.Warn("page word boxes", "document", d.ID, "page", p.Number, "err", err)
		} else {
			v.ImageW, v.ImageH = int(v.Highlight.Width*pageDPI/72+0.5), int(v.Highlight.Height*pageDPI/72+0.5)
		}
	}
	v.Scripts = []string{"rooms.js"}
	s.render(w, r, http.StatusOK, "room_page", v)
	return nil
}
