package rooms

import (
	"regexp"
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
// with [redacted]. It is the rooms' one redactor: what is stored (a
// question, its answer and citations' previews, a feedback comment, the
// audit log's copies of them) and what is exported go through it.
func MaskPII(s string) string {
	for _, re := range pii {
		s = re.ReplaceAllString(s, "[redacted]")
	}
	return s
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

// withoutPII leaves e-mail addresses, phone, card and national id numbers
// out of a question: they are not what it asks, so they are neither
// searched for nor sent to a model.
func withoutPII(s string) string {
	for _, re := range pii {
		s = re.ReplaceAllString(s, " ")
	}
	return s
}
