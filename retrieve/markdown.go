package retrieve

import (
	"strconv"
	"strings"
	"unicode"
)

// MaxChunkLen is the length in bytes above which a section is split into
// several chunks at paragraph boundaries.
const MaxChunkLen = 1500

// SplitMarkdown cuts a Markdown document into chunks at its ATX headings of
// levels 1 to 3 ("#", "##", "###"); deeper headings stay inside their
// section. A chunk's Title is its heading's text and its Ref is ref plus
// "#" and the heading's GitHub-style anchor ("report.md#method"); text
// before the first heading gets Ref ref and no title. A "#" line inside a
// fenced code block is not a heading, and a fence is never cut. Sections
// longer than MaxChunkLen are split at blank lines into several chunks that
// share the title and ref; a single paragraph longer than that stays whole.
// Sections without text are left out.
func SplitMarkdown(scope, ref, markdown string) []Chunk {
	var chunks []Chunk
	for _, s := range sections(markdown, ref, true) {
		for _, text := range packParagraphs(s.paragraphs(), MaxChunkLen) {
			chunks = append(chunks, Chunk{Scope: scope, Ref: s.ref, Title: s.title, Text: text})
		}
	}
	return chunks
}

// splitText cuts one titled text into chunks of at most MaxChunkLen bytes at
// blank lines, like SplitMarkdown within a section but without looking for
// headings. All chunks share scope, ref and title.
func splitText(scope, ref, title, text string) []Chunk {
	var chunks []Chunk
	for _, s := range sections(text, ref, false) {
		for _, t := range packParagraphs(s.paragraphs(), MaxChunkLen) {
			chunks = append(chunks, Chunk{Scope: scope, Ref: ref, Title: title, Text: t})
		}
	}
	return chunks
}

// sections reads markdown line by line into sections, starting a new one at
// each heading of levels 1 to 3 when headings is set. Refs of headed
// sections are ref#anchor.
func sections(markdown, ref string, headings bool) []*section {
	slugs := map[string]int{}
	cur := &section{ref: ref}
	out := []*section{cur}
	fence := ""
	for _, line := range strings.Split(strings.ReplaceAll(markdown, "\r\n", "\n"), "\n") {
		level := headingLevel(line)
		switch {
		case fence != "":
			cur.add(line)
			if closesFence(line, fence) {
				fence = ""
			}
		case openingFence(line) != "":
			fence = openingFence(line)
			cur.add(line)
		case headings && level >= 1 && level <= 3:
			title := headingText(line)
			cur = &section{title: title, ref: ref + "#" + uniqueSlug(slugs, title)}
			out = append(out, cur)
		case strings.TrimSpace(line) == "":
			cur.endParagraph()
		default:
			cur.add(line)
		}
	}
	return out
}

// section collects the paragraphs under one heading. A blank line inside a
// code fence does not end a paragraph.
type section struct {
	title, ref string
	paras      []string
	open       []string // lines of the paragraph being read
}

func (s *section) add(line string) { s.open = append(s.open, line) }

func (s *section) endParagraph() {
	if len(s.open) > 0 {
		s.paras = append(s.paras, strings.Join(s.open, "\n"))
		s.open = nil
	}
}

func (s *section) paragraphs() []string {
	s.endParagraph()
	return s.paras
}

// packParagraphs joins paragraphs with blank lines into texts of at most
// limit bytes, starting a new text only between paragraphs.
func packParagraphs(paras []string, limit int) []string {
	var out []string
	var cur strings.Builder
	for _, p := range paras {
		p = strings.TrimRight(p, " \t\n")
		if cur.Len() > 0 && cur.Len()+2+len(p) > limit {
			out = append(out, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteString("\n\n")
		}
		cur.WriteString(p)
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}

// headingLevel returns the level of an ATX heading line ("## Method" is 2),
// or 0 when line is not a heading. Up to three spaces may indent it; four
// make it an indented code block.
func headingLevel(line string) int {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return 0
	}
	n := 0
	for n < len(trimmed) && trimmed[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0
	}
	if n < len(trimmed) && trimmed[n] != ' ' && trimmed[n] != '\t' {
		return 0 // "#hashtag" is not a heading
	}
	return n
}

// headingText returns a heading line's text without the leading and
// optional closing runs of "#".
func headingText(line string) string {
	t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
	closing := strings.TrimRight(t, "#")
	if closing == "" || strings.HasSuffix(closing, " ") || strings.HasSuffix(closing, "\t") {
		t = strings.TrimSpace(closing)
	}
	return t
}

// openingFence returns the run of backticks or tildes that opens a fenced
// code block on line, or "" when line opens none.
func openingFence(line string) string {
	t := strings.TrimLeft(line, " \t")
	for _, c := range []string{"`", "~"} {
		n := 0
		for n < len(t) && t[n] == c[0] {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// closesFence reports whether line closes the fence opened by marker: the
// same character, at least as many times, and nothing else.
func closesFence(line, marker string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= len(marker) && strings.Trim(t, marker[:1]) == ""
}

// Slug returns the anchor GitHub gives a heading: lower case, punctuation
// other than "-" and "_" dropped, spaces turned into "-".
// "Explanations (Ranked by Likelihood)" becomes
// "explanations-ranked-by-likelihood".
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// uniqueSlug returns heading's slug, numbered like GitHub does ("faq",
// "faq-1", "faq-2") when the document has used it before.
func uniqueSlug(seen map[string]int, heading string) string {
	s := Slug(heading)
	n := seen[s]
	seen[s] = n + 1
	if n == 0 {
		return s
	}
	return s + "-" + strconv.Itoa(n)
}
