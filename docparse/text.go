package docparse

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/quarry-dev/quarry"
)

// extractText reads Markdown or plain text: form feeds separate pages;
// without them the text is cut into pages of about PageChars characters at
// blank lines.
func extractText(data []byte, name, format string, o Options) (*Document, error) {
	s, err := decodeText(data, name)
	if err != nil {
		return nil, err
	}
	doc := &Document{}
	if format == FormatMarkdown {
		doc.Title = markdownTitle(s)
	}
	doc.Pages = textPages(s, o)
	return doc, nil
}

// textPages splits s at form feeds, or else into pages of about PageChars
// characters. A form feed at the very end does not start a page.
func textPages(s string, o Options) []Page {
	var texts []string
	if strings.ContainsRune(s, '\f') {
		// At most MaxPages+2 pieces: 100 MB of form feeds would
		// otherwise be 100 million strings before the limit is checked.
		texts = strings.SplitN(strings.TrimSuffix(s, "\f"), "\f", o.MaxPages+2)
		if len(texts) > o.MaxPages {
			texts = texts[:o.MaxPages+1] // enough for the error
		}
		for i, t := range texts {
			texts[i] = normalize(t)
		}
	} else {
		texts = paginate(normalize(s), PageChars)
	}
	pages := make([]Page, len(texts))
	for i, t := range texts {
		pages[i] = Page{Text: t}
	}
	return pages
}

// decodeText returns data as a string: UTF-8 with or without a byte order
// mark, or UTF-16 with one. Anything else is MALFORMED_DOCUMENT.
func decodeText(data []byte, name string) (string, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")):
		data = data[3:]
	case bytes.HasPrefix(data, []byte("\xFF\xFE")):
		return decodeUTF16(data[2:], false), nil
	case bytes.HasPrefix(data, []byte("\xFE\xFF")):
		return decodeUTF16(data[2:], true), nil
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			off += n
		}
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		return "", quarry.Errorf(quarry.ECodeMalformedDocument, "%s is not UTF-8 text (invalid byte 0x%02X on line %d)", name, data[off], line).
			WithHint("save the file with UTF-8 encoding and upload it again")
	}
	return string(data), nil
}

func decodeUTF16(b []byte, bigEndian bool) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		if bigEndian {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}

// normalize makes s valid UTF-8 with "\n" newlines and without control
// characters other than tab and newline, trims trailing spaces from every
// line, drops blank lines at the start and the end and keeps one of
// several in a row. Spacing inside lines is kept: it aligns the columns of
// tables.
func normalize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	lineStart := true // nothing but blank lines read so far
	prevBlank := false
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		line := s
		if i >= 0 {
			line = s[:i]
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			s = s[i+1:]
		} else {
			s = ""
		}
		line = strings.TrimRightFunc(stripControls(line), unicode.IsSpace)
		if line == "" && (lineStart || prevBlank) {
			continue
		}
		lineStart, prevBlank = false, line == ""
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// stripControls drops control characters other than tab from one line.
func stripControls(s string) string {
	clean := true
	for _, r := range s {
		if r != '\t' && (r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r != '\t' && (r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0)) {
			return -1
		}
		return r
	}, s)
}

// paginate cuts normalized text into pages of at most target characters,
// at blank lines where it can, else at line ends, else at spaces. Pages
// keep the blank lines between their paragraphs.
func paginate(s string, target int) []string {
	var pages []string
	var cur strings.Builder
	curLen := 0
	flush := func() {
		if t := strings.Trim(cur.String(), "\n"); strings.TrimSpace(t) != "" {
			pages = append(pages, t)
		}
		cur.Reset()
		curLen = 0
	}
	add := func(piece, sep string) {
		n := countChars(piece)
		if curLen > 0 && curLen+len(sep)+n > target {
			flush()
		}
		if curLen > 0 {
			cur.WriteString(sep)
			curLen += len(sep)
		}
		cur.WriteString(piece)
		curLen += n
	}
	for _, para := range splitParagraphs(s) {
		if countChars(para) <= target {
			add(para, "\n\n")
			continue
		}
		// A paragraph longer than a page starts its own page and is cut
		// at line ends, and lines longer than a page at spaces.
		flush()
		for _, line := range strings.Split(para, "\n") {
			for _, piece := range cutLine(line, target) {
				add(piece, "\n")
			}
		}
		flush()
	}
	flush()
	return pages
}

// splitParagraphs splits s at blank lines.
func splitParagraphs(s string) []string {
	var paras []string
	start := -1
	lines := strings.SplitAfter(s, "\n")
	off := 0
	for _, l := range lines {
		blank := strings.TrimSpace(l) == ""
		switch {
		case blank && start >= 0:
			paras = append(paras, strings.TrimRight(s[start:off], "\n"))
			start = -1
		case !blank && start < 0:
			start = off
		}
		off += len(l)
	}
	if start >= 0 {
		paras = append(paras, strings.TrimRight(s[start:], "\n"))
	}
	return paras
}

// cutLine cuts a line into pieces of at most max characters, at the last
// space before the limit when there is one.
func cutLine(line string, max int) []string {
	var pieces []string
	for {
		// Byte offset of the character after the max-th, found without
		// counting the rest of the line: counting it on every piece made
		// a long line take quadratic time (minutes for 100 MB).
		end, n := len(line), 0
		for i := range line {
			if n == max {
				end = i
				break
			}
			n++
		}
		if end == len(line) {
			break
		}
		cut := end
		if sp := strings.LastIndexByte(line[:end], ' '); sp > end/2 {
			cut = sp
		}
		pieces = append(pieces, strings.TrimRight(line[:cut], " "))
		line = strings.TrimLeft(line[cut:], " ")
	}
	if line != "" {
		pieces = append(pieces, line)
	}
	return pieces
}

// markdownTitle returns the text of the first level-1 heading, ATX ("#
// Title") or setext ("Title" over "==="), outside fenced code blocks.
func markdownTitle(s string) string {
	fence := ""
	prev := ""
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, "\r\n")
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			prev = ""
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			prev = ""
			continue
		}
		if h, ok := strings.CutPrefix(t, "# "); ok && len(line)-len(strings.TrimLeft(line, " ")) < 4 {
			return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#"))
		}
		if prev != "" && t != "" && strings.Trim(t, "=") == "" {
			return prev
		}
		prev = t
	}
	return ""
}

// countChars is the number of characters (runes) in s.
func countChars(s string) int { return utf8.RuneCountInString(s) }

// count writes n with thousands separators.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// byteSize writes n bytes for a person.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// pageList writes page numbers in ascending order as "page 3" or "pages
// 1-4, 7".
func pageList(pages []int) string {
	if len(pages) == 1 {
		return "page " + strconv.Itoa(pages[0])
	}
	var parts []string
	for i := 0; i < len(pages); {
		j := i
		for j+1 < len(pages) && pages[j+1] == pages[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", pages[i], pages[j]))
		} else {
			parts = append(parts, strconv.Itoa(pages[i]))
		}
		i = j + 1
	}
	return "pages " + strings.Join(parts, ", ")
}
