package research

// Namesakes of one exact name ("Merrow Airport" in England and in
// Tasmania, two festivals called Ormsby) are told apart by where the
// documents put them: a dateline's place ("ORMSBY, Ont. — ..."), or the
// place written after the name ("Merrow Airport in north-west
// Tasmania", "Tessaly College, the sixth-form college in Keswick").

import (
	"regexp"
	"strings"
)

var datelineRE = regexp.MustCompile(`^\s*([A-Z][A-Z.'\- ]+[A-Z.])(?:,\s*([A-Z][a-z]+\.?(?:\s[A-Z][a-z]+\.?)?))?\s+(?:—|--|–)\s`)

// placeOf is where a document that writes the subject's bare name puts
// it: the place of its dateline, else the place after the name at its
// first mention; "" when it puts it nowhere, or only at the subject's
// own name.
func placeOf(text string, subject []string) string {
	if len(subject) == 0 {
		return ""
	}
	body := bodyText(text)
	name := `(?i:` + strings.Join(subject, `\W+`) + `)`
	named, err := regexp.Compile(`\b` + name + `\b`)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if m := datelineRE.FindStringSubmatch(l); m != nil && named.MatchString(l) {
			// "MARROWFIELD, Vt. —": the town, then its region.
			p := strings.TrimSpace(placeWords(m[1], subject) + " " + placeWords(m[2], subject))
			if p != "" {
				return p
			}
		}
		break // only the first line of the body is a dateline
	}
	for _, re := range []string{
		`\b` + name + `\s+in\s+((?:[a-z]+-?[a-z]*\s+)?[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*)`,
		`\b` + name + `,\s+(?:the|a|an)\s+[^,.;]{0,40}?\bin\s+([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*)`,
	} {
		r, err := regexp.Compile(re)
		if err != nil {
			return ""
		}
		if m := r.FindStringSubmatch(body); m != nil {
			if p := placeWords(m[1], subject); p != "" {
				return p
			}
		}
	}
	return ""
}

// placeWords are the capitalised words of a place, lower case, without
// a possessive, the subject's own words or those after the first
// ("Colorado's Elk Range" -> colorado; "north-west Tasmania" ->
// tasmania).
func placeWords(s string, subject []string) string {
	own := set(subject...)
	for _, w := range strings.Fields(s) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		lw := strings.ToLower(strings.TrimRight(w, ".,"))
		if w == "" || strings.ToLower(w[:1]) == w[:1] || own[lw] || monthName(w) {
			continue
		}
		return lw
	}
	return ""
}
