package evidence

import "strings"

// Result is the outcome of checking a text against a Set.
type Result struct {
	// Text is the text with each unverified number followed by
	// " [unverified]"; a number already followed by Marker is not marked
	// again.
	Text string
	// Numbers is how many numbers were checked (see the package doc for
	// those that are not).
	Numbers int
	// Unverified are the numbers that matched no evidence, as written
	// ("$52,000", "-12.3%", "1.2 million"), in order.
	Unverified []string
}

// OK reports whether every number checked matched the evidence.
func (r Result) OK() bool { return len(r.Unverified) == 0 }

// Check finds the numbers in text and marks those that match no value of
// the set. Small integers, years, dates, identifiers, citation markers and
// version-like tokens are neither checked nor counted.
func (s *Set) Check(text string) Result {
	res := Result{Text: text}
	var b strings.Builder
	last := 0
	scan(text, func(n number) {
		if n.plain {
			return
		}
		res.Numbers++
		if s.contains(n) {
			return
		}
		res.Unverified = append(res.Unverified, text[n.start:n.end])
		if strings.HasPrefix(strings.TrimLeft(text[n.end:], " \t"), Marker) {
			return
		}
		b.WriteString(text[last:n.end])
		b.WriteString(" " + Marker)
		last = n.end
	})
	if last > 0 {
		b.WriteString(text[last:])
		res.Text = b.String()
	}
	return res
}
