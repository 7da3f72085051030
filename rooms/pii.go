package rooms

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/room"
)

// pii are the patterns of personal data the rooms never store: the
// analyses' default blocked patterns (e-mail addresses, phone numbers,
// payment card and national id numbers), so that one list says what
// personal data is.
var pii = func() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, p := range analysis.DefaultBlockedPatterns {
		out = append(out, regexp.MustCompile(p))
	}
	return out
}()

// MaskPII replaces e-mail addresses, phone, card and national id numbers
// with [redacted]; a run of 13 to 19 digits is taken for a card number
// only when it passes the Luhn check, so that a table row of small
// numbers is kept. It is the rooms' one redactor: what is stored (a
// question, its answer and citations' previews, a feedback comment, the
// audit log's copies of them) and what is exported go through it.
func MaskPII(s string) string {
	for _, re := range pii {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			if cardLike(m) && !luhn(m) {
				// A run of small numbers in a table row ("12 15 18 22
				// 25 31 40"), not a card number.
				return m
			}
			// The card pattern takes the space after the number too.
			return "[redacted]" + m[len(strings.TrimRight(m, " -")):]
		})
	}
	return s
}

// cardLike reports whether m is digits alone, with spaces or dashes
// between them, as many as a payment card's number has (13 to 19): what
// the card pattern matches, and what a table row of small numbers looks
// like too.
func cardLike(m string) bool {
	digits := 0
	for _, r := range m {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r != ' ' && r != '-':
			return false
		}
	}
	return digits >= 13 && digits <= 19
}

// luhn reports whether the digits of m pass the Luhn check every payment
// card's number passes.
func luhn(m string) bool {
	sum, double := 0, false
	for i := len(m) - 1; i >= 0; i-- {
		c := m[i]
		if c < '0' || c > '9' {
			continue
		}
		d := int(c - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// redacted returns a copy of q as it may be stored: its question, answer,
// error message, citations' previews and feedback comment masked. The
// answer is worked out from the question as asked, and the one who asked
// is given it so; only what is kept is redacted (the specification's "no
// email addresses or phone numbers stored in text fields").
func redacted(q *room.Query) *room.Query {
	c := *q
	c.Question, c.Answer, c.ErrorMessage = cut(MaskPII(q.Question), room.MaxQuestionChars), MaskPII(q.Answer), MaskPII(q.ErrorMessage)
	c.Citations = make([]room.Citation, len(q.Citations))
	for i, ct := range q.Citations {
		ct.TextPreview = MaskPII(ct.TextPreview)
		c.Citations[i] = ct
	}
	if q.Feedback != nil {
		f := *q.Feedback
		f.Comment = cut(MaskPII(f.Comment), room.MaxCommentChars)
		c.Feedback = &f
	}
	return &c
}

// cut keeps the first n characters of s: "[redacted]" is longer than the
// shortest e-mail address it replaces, and a text at its limit must stay
// within it.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
