// Package docparse turns one uploaded data-room document into pages of text:
// PDF, DOCX, HTML, Markdown, plain text and CSV.
//
// It is pure extraction: no database, no chunking. PDFs are read with the
// poppler-utils programs (pdfinfo, pdftotext, pdftoppm) and, for pages
// without a text layer, tesseract-ocr when it is installed; the other
// formats are parsed in Go. Every page's text is valid UTF-8 with "\n"
// newlines, no NUL or other control characters except tabs, and no
// trailing spaces, while spacing inside a line is kept so that tables stay
// aligned.
//
// The poppler and tesseract programs read files anyone in a room can
// upload, outside the server's own memory limit, so each run has a time
// budget (InfoBudget, TextBudget, RenderBudget, OCRPageBudget), an
// address-space limit (ChildMemory) and a process group of its own that is
// killed with it; no more of them run at once in the process than it has
// cores; and pages are drawn on their CropBox and cut at a pixel cap,
// whatever box poppler draws. A program that goes over a budget ends the
// document with RESOURCE_LIMIT.
//
// Formats that have no pages of their own (HTML, DOCX without page breaks,
// Markdown and text without form feeds) are cut into pages of about
// PageChars characters at paragraph boundaries, so that a citation's page
// number still points somewhere useful; CSV pages hold CSVPageRows rows
// under a repeated header line.
//
// Errors are *quarry.Error values with a code a user can act on, and they
// name the file by its original name, never by its path on the server.
package docparse

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/quarry-dev/quarry"
)

// Defaults of Options.
const (
	DefaultMaxPages     = 2000
	DefaultMaxPageChars = 200_000
	DefaultMaxBytes     = 100 << 20
)

// PageChars is the page length, in characters, that documents without pages
// of their own are cut to, at paragraph boundaries.
const PageChars = 3000

// CSVPageRows is the number of data rows on each page of a CSV file.
const CSVPageRows = 50

// Options are Extract's limits. A field left at zero takes its default;
// DefaultOptions also turns OCR on.
type Options struct {
	// MaxPages is the most pages a document may have (default 2000).
	MaxPages int
	// MaxPageChars is the most characters one page may hold (default
	// 200,000).
	MaxPageChars int
	// MaxBytes is the largest file accepted (default 100 MB).
	MaxBytes int64
	// OCR runs tesseract on PDF pages without a text layer when tesseract
	// is installed.
	OCR bool
}

// DefaultOptions returns the default limits with OCR on.
func DefaultOptions() Options {
	return Options{MaxPages: DefaultMaxPages, MaxPageChars: DefaultMaxPageChars, MaxBytes: DefaultMaxBytes, OCR: true}
}

func (o Options) withDefaults() Options {
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.MaxPageChars <= 0 {
		o.MaxPageChars = DefaultMaxPageChars
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	return o
}

// Formats, as Document.Format holds them.
const (
	FormatPDF      = "pdf"
	FormatDOCX     = "docx"
	FormatHTML     = "html"
	FormatMarkdown = "markdown"
	FormatText     = "text"
	FormatCSV      = "csv"
	// FormatImage is a scan or photo of one page, PNG or JPEG, read by OCR.
	FormatImage = "image"
)

// Document is the text of one file.
type Document struct {
	// Format is one of the Format constants.
	Format string
	// Pages are numbered from 1 without gaps. A PDF page without text
	// keeps its number with empty Text.
	Pages []Page
	// OCRAttempted reports that tesseract ran on at least one page.
	OCRAttempted bool
	// Notes say, in words for a user, what was done or left out (pages
	// without text, OCR, a skipped part).
	Notes []string
	// Title is the document's title when it has one: PDF metadata, HTML
	// <title>, DOCX properties or the first heading.
	Title string
}

// Page is one page of a Document.
type Page struct {
	Number int // 1-based
	Text   string
	// OCR reports that Text comes from OCR, with OCRConfidence the mean of
	// tesseract's word confidences between 0 and 1.
	OCR           bool
	OCRConfidence *float64
}

// Extract reads the file at path, uploaded as name, and returns its pages.
// The format is chosen by name's extension.
//
// Errors (*quarry.Error): INVALID_FILE_TYPE for an extension that is not
// accepted; EMPTY_FILE for a file of 0 bytes or without any text;
// FILE_TOO_LARGE for more than MaxBytes, MaxPages or MaxPageChars on a page;
// MALFORMED_DOCUMENT for content that does not match its extension, a
// damaged or encrypted PDF, a PDF without text that cannot be OCRed, a DOCX
// that is not a valid archive or expands too far, text that is not UTF-8 and
// CSV that cannot be parsed; RESOURCE_LIMIT for a PDF whose reading goes
// over DocumentBudget, or one of whose programs goes over its time or
// memory budget (the message names the page and the budget); UNAVAILABLE
// when poppler-utils is not installed or ctx ends first (the error then
// also wraps ctx.Err()).
func Extract(ctx context.Context, path, name string, o Options) (*Document, error) {
	o = o.withDefaults()
	if name == "" {
		name = filepath.Base(path)
	}
	format, err := FormatOf(name)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 {
		return nil, quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty (0 bytes)", name)
	}
	if fi.Size() > o.MaxBytes {
		return nil, quarry.Errorf(quarry.ECodeFileTooLarge, "%s is %s; the limit is %s", name, byteSize(fi.Size()), byteSize(o.MaxBytes)).
			WithHint("split the document into smaller files")
	}
	var doc *Document
	switch format {
	case FormatPDF:
		doc, err = extractPDF(ctx, path, name, o)
	case FormatDOCX:
		doc, err = extractDOCX(path, name, fi.Size(), o)
	case FormatImage:
		doc, err = extractImage(ctx, path, name, o)
	default:
		var data []byte
		if data, err = os.ReadFile(path); err != nil {
			return nil, err
		}
		switch format {
		case FormatHTML:
			doc, err = extractHTML(data, name, o)
		case FormatCSV:
			doc, err = extractCSV(data, name, o)
		default:
			doc, err = extractText(data, name, format, o)
		}
	}
	if err != nil {
		return nil, err
	}
	doc.Format = format
	if err := checkPages(doc, name, o); err != nil {
		return nil, err
	}
	return doc, nil
}

// checkPages numbers doc's pages and enforces the page limits and that
// some page has text.
func checkPages(doc *Document, name string, o Options) error {
	if len(doc.Pages) > o.MaxPages {
		return tooManyPages(name, len(doc.Pages), o.MaxPages)
	}
	text := false
	for i := range doc.Pages {
		p := &doc.Pages[i]
		p.Number = i + 1
		if err := checkPageChars(name, p.Number, p.Text, o); err != nil {
			return err
		}
		text = text || strings.TrimSpace(p.Text) != ""
	}
	if !text {
		return quarry.Errorf(quarry.ECodeEmptyFile, "%s contains no text", name)
	}
	return nil
}

func tooManyPages(name string, n, max int) error {
	return quarry.Errorf(quarry.ECodeFileTooLarge, "%s has %s pages; the limit is %s", name, count(n), count(max)).
		WithHint("split the document into smaller files")
}

func checkPageChars(name string, page int, text string, o Options) error {
	if len(text) <= o.MaxPageChars {
		return nil // bytes >= characters
	}
	if n := countChars(text); n > o.MaxPageChars {
		return quarry.Errorf(quarry.ECodeFileTooLarge, "page %d of %s has %s characters; the limit is %s per page", page, name, count(n), count(o.MaxPageChars)).
			WithHint("split the page or the document")
	}
	return nil
}
