package chat

import (
	"regexp"
	"strings"
	"unicode"
)

// maxSentenceLen is the longest sentence quoted whole, and maxCodeLen the
// longest block of code; longer ones are cut at a word boundary and end in
// "...".
const (
	maxSentenceLen = 600
	maxCodeLen     = 1500
)

// sentencesOf splits a passage into quotable sentences, each ending in a
// full stop or other punctuation (a line end counts as a sentence end).
// Markdown is unwrapped: list markers, heading marks, emphasis and
// backticks go, and a table row becomes its cells joined by "; ". Code is
// dropped unless keepCode is set: fenced blocks, HTML lines, and
// everything from a line starting "SQL:" to the end of the passage (how
// the memory lists the queries an iteration ran). Kept code comes as one
// "sentence" per block, its lines joined by spaces.
func sentencesOf(text string, keepCode bool) []string {
	var out, code []string
	flushCode := func() {
		if len(code) > 0 {
			out = append(out, shorten(strings.Join(code, " "), maxCodeLen))
			code = nil
		}
	}
	inFence, inSQL := false, false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		isFence := strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
		if isFence {
			inFence = !inFence
		}
		if strings.HasPrefix(t, "SQL:") {
			inSQL = true
		}
		isCode := inFence || inSQL || strings.HasPrefix(t, "<")
		switch {
		case isFence || t == "":
			flushCode()
		case isCode && keepCode:
			code = append(code, t)
		case isCode || isRule(t) || strings.HasPrefix(t, "!["):
		default:
			flushCode()
			out = append(out, splitSentences(cleanLine(t))...)
		}
	}
	flushCode()
	return out
}

// isRule reports whether t is a thematic break or a table's header rule
// ("---", "|---|---:|").
func isRule(t string) bool {
	return t != "" && strings.Trim(t, "|-:=*_ ") == ""
}

var (
	listMarker = regexp.MustCompile(`^(?:[-*+>]|\d+[.)]|#+)\s+`)
	emphasis   = strings.NewReplacer("**", "", "`", "")
)

// cleanLine unwraps one line of Markdown.
func cleanLine(t string) string {
	for {
		m := listMarker.FindString(t)
		if m == "" {
			break
		}
		t = t[len(m):]
	}
	t = emphasis.Replace(t)
	if strings.HasPrefix(t, "|") {
		var cells []string
		for _, c := range strings.Split(strings.Trim(t, "|"), "|") {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, c)
			}
		}
		t = strings.Join(cells, "; ")
	}
	return strings.TrimSpace(t)
}

// splitSentences cuts a line after ".", "!" or "?" followed by a space and
// a capital letter or digit, so that "5.2", "q<0.0001)." and "e.g. the"
// do not end a sentence. A sentence without final punctuation gets a full
// stop; over-long sentences are shortened.
func splitSentences(line string) []string {
	var out []string
	rs := []rune(line)
	start := 0
	for i := 0; i+2 < len(rs); i++ {
		if strings.ContainsRune(".!?", rs[i]) && rs[i+1] == ' ' && (unicode.IsUpper(rs[i+2]) || unicode.IsDigit(rs[i+2])) {
			out = append(out, string(rs[start:i+1]))
			start = i + 2
		}
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	for i, s := range out {
		s = strings.TrimSpace(s)
		if s != "" && !strings.ContainsRune(".!?:;", rune(s[len(s)-1])) {
			s += "."
		}
		out[i] = shorten(s, maxSentenceLen)
	}
	return out
}

// shorten cuts s to at most n bytes at a space, marking the cut with "...".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n-3], ' ')
	if cut <= 0 {
		cut = n - 3
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimSpace(s[:cut]) + "..."
}

// utf8RuneStart reports whether b starts a UTF-8 encoded rune.
func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
