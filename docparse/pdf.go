package docparse

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quarry-dev/quarry"
)

// maxPDFBatch is the most pages one pdftotext process extracts, which
// bounds the output held at once. Documents are split into one batch per
// core up to that size: each process costs some 30 ms to start, about as
// much as 20 pages of text.
const maxPDFBatch = 256

// pdfInfo is what pdfinfo says about a file.
type pdfInfo struct {
	pages     int
	encrypted bool
	title     string
	// The size of the page asked for, in points: its CropBox (clipped to
	// its MediaBox), which is what pdftoppm -cropbox draws, before its
	// rotation, a multiple of 90 degrees.
	width, height float64
	rotate        int
}

// extractPDF reads a PDF's text layer page by page with pdftotext -layout,
// and OCRs pages without one when o.OCR is set and tesseract is installed.
func extractPDF(ctx context.Context, path, name string, o Options) (*Document, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, budgets.document, errDocumentBudget)
	defer cancel()
	if err := checkPDFMagic(path, name); err != nil {
		return nil, err
	}
	info, err := readPDFInfo(ctx, path, name, 0)
	if err != nil {
		return nil, err
	}
	if info.pages > o.MaxPages {
		return nil, tooManyPages(name, info.pages, o.MaxPages)
	}
	texts, err := pdfText(ctx, path, name, info, o)
	if err != nil {
		return nil, err
	}
	doc := &Document{Title: info.title, Pages: make([]Page, len(texts))}
	var empty []int
	for i, t := range texts {
		doc.Pages[i] = Page{Number: i + 1, Text: t}
		if strings.TrimSpace(t) == "" {
			empty = append(empty, i+1)
		}
	}
	if len(empty) == 0 {
		return doc, nil
	}
	if err := ocrEmptyPages(ctx, doc, empty, path, name, o); err != nil {
		return nil, err
	}
	return doc, nil
}

// checkPDFMagic reports a file without "%PDF-" in its first kilobyte, where
// readers look for it, as MALFORMED_DOCUMENT.
func checkPDFMagic(path, name string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return err
	}
	if n == 0 {
		return quarry.Errorf(quarry.ECodeEmptyFile, "%s is empty", name)
	}
	head = head[:n]
	if bytes.Contains(head, []byte("%PDF-")) {
		return nil
	}
	e := quarry.Errorf(quarry.ECodeMalformedDocument, "%s is not a PDF", name)
	if what := sniff(head); what != "" {
		return e.WithHint("its content looks like " + what + "; upload it with the right extension")
	}
	return e.WithHint("upload the document as a PDF, or with the extension that matches its type")
}

// readPDFInfo runs pdfinfo; with page > 0 it also reads that page's size
// and rotation.
func readPDFInfo(ctx context.Context, path, name string, page int) (pdfInfo, error) {
	prog, err := tool("pdfinfo")
	if err != nil {
		return pdfInfo{}, err
	}
	args := []string{"-enc", "UTF-8"}
	if page > 0 {
		args = append(args, "-f", strconv.Itoa(page), "-l", strconv.Itoa(page))
	}
	res, err := run(ctx, job{prog: prog, args: append(args, path), maxOut: 1 << 20, timeout: budgets.info})
	if err != nil {
		what := "reading the pages of " + name
		if page > 0 {
			what = fmt.Sprintf("reading the size of page %d of %s", page, name)
		}
		return pdfInfo{}, childError(ctx, err, name, what)
	}
	if res.exitCode != 0 {
		if isPasswordError(res.stderr) {
			return pdfInfo{}, encryptedError(name)
		}
		if page > 0 && strings.Contains(res.stderr, "Wrong page range") {
			// A page past the end; the caller reports it with the count.
			info, err := readPDFInfo(ctx, path, name, 0)
			info.width, info.height, info.rotate = 0, 0, 0
			return info, err
		}
		return pdfInfo{}, damagedError(name, path, res.stderr)
	}
	var info pdfInfo
	for line := range strings.Lines(string(res.stdout)) {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "Pages":
			info.pages, _ = strconv.Atoi(val)
		case "Encrypted":
			info.encrypted = strings.HasPrefix(val, "yes")
		case "Title":
			info.title = strings.TrimSpace(normalize(val))
		default:
			// "Page    3 size: 612 x 792 pts (letter)", "Page    3 rot:   90"
			f := strings.Fields(key)
			if page <= 0 || len(f) != 3 || f[0] != "Page" || f[1] != strconv.Itoa(page) {
				break
			}
			switch f[2] {
			case "size":
				fmt.Sscanf(val, "%g x %g", &info.width, &info.height)
			case "rot":
				info.rotate, _ = strconv.Atoi(val)
			}
		}
	}
	if info.pages <= 0 {
		return pdfInfo{}, quarry.Errorf(quarry.ECodeMalformedDocument, "%s has no pages", name).
			WithHint("the file may be damaged; open it in a PDF reader, save or print it to a new PDF and upload that")
	}
	return info, nil
}

// pdfText extracts every page's normalized text, in batches run at once on
// all cores.
func pdfText(ctx context.Context, path, name string, info pdfInfo, o Options) ([]string, error) {
	prog, err := tool("pdftotext")
	if err != nil {
		return nil, err
	}
	texts := make([]string, info.pages)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		procs    = max(1, runtime.GOMAXPROCS(0))
		sem      = make(chan struct{}, procs)
	)
	batch := min(maxPDFBatch, (info.pages+procs-1)/procs)
	for first := 1; first <= info.pages; first += batch {
		last := min(first+batch-1, info.pages)
		sem <- struct{}{}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			err := pdfBatchText(ctx, prog, path, name, info, first, last, texts, o)
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				cancel()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if ctx.Err() != nil {
		return nil, ctxError(ctx, name)
	}
	return texts, nil
}

// pdfBatchText extracts pages first to last into texts. When pdftotext's
// form feeds do not match the page count (a form feed inside a page's
// text), it extracts those pages one at a time.
func pdfBatchText(ctx context.Context, prog, path, name string, info pdfInfo, first, last int, texts []string, o Options) error {
	n := last - first + 1
	parts, err := pdftotext(ctx, prog, path, name, info, first, last, o)
	if err != nil {
		return err
	}
	if len(parts) != n {
		for p := first; p <= last; p++ {
			one, err := pdftotext(ctx, prog, path, name, info, p, p, o)
			if err != nil {
				return err
			}
			texts[p-1] = normalize(strings.Join(one, "\n"))
		}
		return nil
	}
	for i, t := range parts {
		texts[first-1+i] = normalize(t)
	}
	return nil
}

// pdftotext runs pdftotext -layout on pages first to last and returns the
// text between its form feeds.
func pdftotext(ctx context.Context, prog, path, name string, info pdfInfo, first, last int, o Options) ([]string, error) {
	n := last - first + 1
	// A page within the limit takes at most 4 bytes a character, and some
	// room for the spaces that layout mode pads lines with.
	maxOut := int64(n) * (4*int64(o.MaxPageChars) + 64<<10)
	res, err := run(ctx, job{
		prog:    prog,
		args:    []string{"-layout", "-enc", "UTF-8", "-f", strconv.Itoa(first), "-l", strconv.Itoa(last), path, "-"},
		maxOut:  maxOut,
		timeout: budgets.text + time.Duration(n)*budgets.textPage,
	})
	pages := fmt.Sprintf("pages %d-%d", first, last)
	if n == 1 {
		pages = fmt.Sprintf("page %d", first)
	}
	if err != nil {
		return nil, childError(ctx, err, name, fmt.Sprintf("reading the text of %s of %s", pages, name))
	}
	if res.overflow {
		return nil, quarry.Errorf(quarry.ECodeFileTooLarge, "%s of %s hold more than %s characters a page", pages, name, count(o.MaxPageChars)).
			WithHint("split the document into smaller files")
	}
	if res.exitCode != 0 {
		switch {
		case info.encrypted || isPasswordError(res.stderr):
			return nil, encryptedError(name)
		case res.exitCode == 3:
			return nil, quarry.Errorf(quarry.ECodeMalformedDocument, "%s does not allow copying its text", name).
				WithHint("remove the document's protection (print it to a new PDF) and upload it again")
		}
		return nil, damagedError(name, path, res.stderr)
	}
	// Every page ends with a form feed.
	out := strings.TrimSuffix(string(res.stdout), "\f")
	return strings.Split(out, "\f"), nil
}

func isPasswordError(stderr string) bool {
	return strings.Contains(stderr, "Incorrect password")
}

func encryptedError(name string) error {
	return quarry.Errorf(quarry.ECodeMalformedDocument, "%s is encrypted (password-protected)", name).
		WithHint("remove the password (open it and print or save it to a new PDF) and upload it again")
}

// damagedError reports poppler's first complaint, with the server path
// replaced by the file's name.
func damagedError(name, path, stderr string) error {
	msg := fmt.Sprintf("%s is damaged and cannot be read", name)
	if l := firstLine(strings.ReplaceAll(stderr, path, name)); l != "" {
		msg += " (" + l + ")"
	}
	return quarry.Errorf(quarry.ECodeMalformedDocument, "%s", msg).
		WithHint("open it in a PDF reader, save or print it to a new PDF and upload that")
}

// sniff names what a file's first bytes look like, or "".
func sniff(head []byte) string {
	trimmed := bytes.TrimLeft(head, " \t\r\n\xEF\xBB\xBF")
	lower := bytes.ToLower(trimmed[:min(len(trimmed), 256)])
	switch {
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return "a PDF"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "a ZIP archive (such as .docx or .xlsx)"
	case bytes.HasPrefix(head, []byte("\xD0\xCF\x11\xE0")):
		return "an old Microsoft Office file (.doc, .xls)"
	case bytes.HasPrefix(head, []byte("{\\rtf")):
		return "an RTF document"
	case bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<html")):
		return "an HTML page"
	case bytes.HasPrefix(head, []byte("\x89PNG")), bytes.HasPrefix(head, []byte("\xFF\xD8\xFF")):
		return "an image"
	}
	return ""
}

// lookTesseract returns tesseract's path, or "" when it is not installed.
func lookTesseract() string {
	p, err := exec.LookPath("tesseract")
	if err != nil {
		return ""
	}
	return p
}
