package research

// Roles as claims: "chief financial officer Mark Olsen", "Dana
// Whitfield, chief executive officer", "Marcus Greer was appointed chief
// financial officer", "founded in 2012 by Marc Tremblay": the role is
// the attribute, the person its value.

import (
	"regexp"
	"slices"
	"strings"
)

// roleNouns end a role's title.
const roleNouns = `officer|director|president|chairman|chairwoman|chairperson|chair|founder|co-founder|ceo|cfo|coo|cto|leader|mayor|head|manager|secretary|treasurer|minister|governor|chancellor|dean|editor|commissioner|principal|partner|owner|spokesperson|spokesman|spokeswoman`

var (
	// roleTitle is a role's title: up to three words before its noun,
	// and "of operations" after a chief.
	roleTitle = `(?:(?:[A-Za-z-]+ ){0,3}(?i:` + roleNouns + `)(?: of [a-z]+)?|[Cc]hief of [a-z]+)`
	// personName is two or three capitalised words, an initial or a
	// title among them.
	personName = `(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?[A-Z][a-z'’-]+(?: [A-Z]\.)?(?: [A-Z][A-Za-z'’-]+){1,2}`
	// roleBeforeRE: "chief medical officer Dr. Ana Ruiz".
	roleBeforeRE = regexp.MustCompile(`\b(` + roleTitle + `) (` + personName + `)`)
	// roleAfterRE: "Dana Whitfield, chief executive officer", "Marcus
	// Greer was appointed chief financial officer".
	roleAfterRE = regexp.MustCompile(`(` + personName + `)(?:,| (?:has served as|served as|serves as|was appointed|was named|became|is|was|remains|will become)) (?:the |its |our |their )?(` + roleTitle + `)\b`)
	// founderRE: "founded in 2012 by Marc Tremblay".
	// roleBodyRE: the body a title is of, "of the Venn Ferry Users'
	// Group", "of the council's Transport Committee".
	roleBodyRE = regexp.MustCompile(`^\s+of\s+(?:the\s+)?((?:[a-z]+['’]s\s+)?[A-Z][\p{L}'’-]*(?:\s+(?:of\s+|and\s+|&\s+)?[A-Z][\p{L}'’-]*){0,4})`)
	// personNextRE: a person's name right after a title.
	personNextRE = regexp.MustCompile(`^\s+(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][a-z'’-]+\s+[A-Z]`)
	founderRE    = regexp.MustCompile(`\b(?:founded|established|started|created)\b[^.;]{0,40}? by (?:[a-z]+ ){0,3}(` + personName + `)`)
)

// roleClaims reads the roles a sentence gives people.
func (r *reader) roleClaims() []Claim {
	var out []Claim
	add := func(title string, start, end int, after int) {
		name := r.s[start:end]
		if r.namesSubject(name) || monthName(name) {
			return
		}
		head, mods := roleWords(title)
		if head == "" {
			return
		}
		// "Hamish Rendall, chair of the Venn Ferry Users' Group": a
		// chair of another body.
		if after >= 0 {
			if m := roleBodyRE.FindStringSubmatch(r.s[after:]); m != nil {
				for _, w := range words(m[1]) {
					if !r.subject[w] && !determiners[w] && !slices.Contains(mods, w) {
						mods = append(mods, w)
					}
				}
			}
		}
		out = append(out, Claim{Value: Value{Kind: KindPerson, Text: name, Start: start, End: end}, Text: name, Unit: "person",
			Head: head, Mods: mods, Attribute: strings.Join(append(append([]string(nil), mods...), head), " "), owned: true})
	}
	for _, m := range roleBeforeRE.FindAllStringSubmatchIndex(r.s, -1) {
		if t := strings.ToLower(r.s[m[2]:m[3]]); strings.HasSuffix(t, " of the") || strings.HasSuffix(t, " of") {
			continue // "chair of the Venn Ferry Users' Group": a body, not a person
		}
		add(r.s[m[2]:m[3]], m[4], m[5], -1)
	}
	for _, m := range roleAfterRE.FindAllStringSubmatchIndex(r.s, -1) {
		// "Finance Director Carla Mendes, Emergency Manager Dana
		// Whitcomb": a title before a name is that name's.
		title, after := r.s[m[4]:m[5]], m[5]
		if i := strings.LastIndex(title, " of"); i > 0 && roleBodyRE.MatchString(r.s[m[4]+i:]) {
			// "chair of the Venn Ferry Users' Group": the title's body.
			title, after = title[:i], m[4]+i
		} else if personNextRE.MatchString(r.s[m[5]:]) {
			continue
		}
		add(title, m[2], m[3], after)
	}
	for _, m := range founderRE.FindAllStringSubmatchIndex(r.s, -1) {
		add("founder", m[2], m[3], -1)
	}
	return out
}

// roleWords reads a title's noun and the words that qualify it, lower
// case, without articles and generic words: "the chief financial
// officer" -> officer, [chief financial].
func roleWords(title string) (string, []string) {
	ws := strings.Fields(strings.ToLower(title))
	// "said chief medical officer": the title starts after a verb or a
	// preposition.
	for i := len(ws) - 2; i >= 0; i-- {
		if t := (token{text: ws[i], lower: ws[i]}); verbLike(t) || prepositions[ws[i]] && ws[i] != "of" || reporting[ws[i]] {
			ws = ws[i+1:]
			break
		}
	}
	var keep []string
	for _, w := range ws {
		if determiners[w] || w == "of" || generic[w] || noise[w] {
			continue
		}
		keep = append(keep, w)
	}
	if len(keep) == 0 {
		return "", nil
	}
	// "chief of operations": the chief is the noun.
	if strings.Contains(title, " of ") && !regexp.MustCompile(`(?i)(?:`+roleNouns+`) of`).MatchString(title) {
		return keep[0], keep[1:]
	}
	return keep[len(keep)-1], keep[:len(keep)-1]
}

// namesSubject reports a name that is the subject's own ("Kestrel
// Dynamics"), not a person's.
func (r *reader) namesSubject(name string) bool {
	for _, w := range strings.Fields(strings.ToLower(name)) {
		if r.subject[strings.Trim(w, ".,")] {
			return true
		}
	}
	return false
}
