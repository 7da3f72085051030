package research

// Telling entities apart: how a source qualifies a name (entityLabel),
// how alike two sources or two claims are, and which claims are one
// claim copied with a few words changed.

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	rs "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/retrieve"
)

// Similarities above which two sources are taken to describe the same
// entity: their documents' distinctive words (cosine), or the claims'
// own sentences with the values set aside (Jaccard of their words) —
// a claim copied with its value changed is the same claim.
const (
	sameDocSimilarity = 0.5
	// relatedDocSimilarity is how alike a lone claim's document must be
	// to an entity's documents for the claim to be a disagreement about
	// that entity (absorbLoneClaims).
	relatedDocSimilarity   = 0.3
	sameSentenceSimilarity = 0.6
	editedSimilarity       = 0.75
)

// byEntity splits positions into entities. Sources that qualify the name
// the same way are one entity, sources that qualify it differently are
// different ones; otherwise two sources are one entity when their texts
// or their claims' sentences are alike, or when they agree on the value.
// Unlike sources that disagree are kept apart: the name may be shared.
func byEntity(ps []*position, docWords map[string]map[string]float64) []*cluster {
	type pair struct {
		a, b int
		sim  float64
		// edited pairs are one claim copied with words changed, the
		// name's qualifier among them: one entity whatever the labels.
		edited bool
	}
	var pairs []pair
	for a := range ps {
		for b := a + 1; b < len(ps); b++ {
			p, q := ps[a], ps[b]
			if _, _, ok := substitution(words(p.fact.Passage), words(q.fact.Passage)); ok && sentenceSimilarity(p, q) >= editedSimilarity {
				pairs = append(pairs, pair{a, b, 4, true})
				continue
			}
			if p.label != "" && q.label != "" {
				if p.label == q.label {
					pairs = append(pairs, pair{a, b, 3, false})
				}
				continue
			}
			sim := 0.0
			if d := cosine(docWords[p.doc], docWords[q.doc]); d >= sameDocSimilarity {
				sim = max(sim, 1+d)
			}
			if j := sentenceSimilarity(p, q); j >= sameSentenceSimilarity {
				sim = max(sim, 1+j)
			}
			if Same(p.value, q.value) {
				sim = max(sim, 1)
			}
			if sim > 0 {
				pairs = append(pairs, pair{a, b, sim, false})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].sim > pairs[j].sim })
	of := make([]*cluster, len(ps))
	var out []*cluster
	for i, p := range ps {
		c := &cluster{label: p.label, pos: []*position{p}}
		of[i] = c
		out = append(out, c)
	}
	for _, pr := range pairs {
		x, y := of[pr.a], of[pr.b]
		if x == y || (!pr.edited && x.label != "" && y.label != "" && x.label != y.label) {
			continue
		}
		if x.label == "" {
			x.label = y.label
		}
		x.pos = append(x.pos, y.pos...)
		for i := range of {
			if of[i] == y {
				of[i] = x
			}
		}
		y.pos = nil
	}
	kept := out[:0]
	for _, c := range out {
		if len(c.pos) > 0 {
			kept = append(kept, c)
		}
	}
	return kept
}

// maxEditWords is the longest word run a copied claim may have changed
// and still count as the same claim with another value.
const maxEditWords = 6

// editedClaims finds claims that are one sentence with a few words
// changed ("formed on October 1st, 1974 at Chitose" against "formed on
// January 1st, 1950 at Chitose"): when the reader took the same value
// from both, the changed words are what they disagree on, and become
// their values.
func editedClaims(c *cluster) {
	for i, p := range c.pos {
		for _, q := range c.pos[i+1:] {
			if !Same(p.value, q.value) {
				continue
			}
			a, b := words(p.fact.Passage), words(q.fact.Passage)
			x, y, ok := substitution(a, b)
			// "The total project cost is" and "The final audited cost is",
			// in a briefing: one figure in other words, not a name swapped
			// for another.
			if !ok || c.claims && !namedRun(x, p.fact.Passage) && !namedRun(y, q.fact.Passage) {
				continue
			}
			// "412,600 skier visits and revenue of 38.9 million dollars"
			// against "... and $41.3M in revenue": the figures changed are
			// another claim's, compared as that claim.
			if c.claims && p.value.Kind != KindDate && hasDigit(x) && hasDigit(y) {
				continue
			}
			p.value = Value{Kind: KindTerm, Text: x}
			q.value = Value{Kind: KindTerm, Text: y}
		}
	}
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// namedRun reports a run of words (lower case) that passage writes as a
// name or a number: a word of it capitalised past the passage's start,
// or in digits.
func namedRun(run, passage string) bool {
	lower := strings.ToLower(passage)
	for _, w := range strings.Fields(run) {
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return true
		}
		for i := wordIndex(lower, w); i >= 0; {
			if i > 0 && unicode.IsUpper([]rune(passage[i:])[0]) {
				return true
			}
			j := wordIndex(lower[i+len(w):], w)
			if j < 0 {
				break
			}
			i += len(w) + j
		}
	}
	return false
}

// substitution returns the words a and b differ in when one run of at
// most maxEditWords words was replaced by another, in one place or the
// same run in several ("War Music (Slim the Mobster album) ... by rapper
// Slim the Mobster" against the same with "Jay-Z" for both), nothing was
// added or dropped elsewhere, and the words they share are most of them.
func substitution(a, b []string) (string, string, bool) {
	if x, y, ok := replacedRun(a, b); ok {
		return x, y, true
	}
	return replacedEverywhere(a, b)
}

// replacedRun returns the words a and b differ in when they differ in one
// run of at most maxEditWords words on each side, replaced rather than
// added or dropped, and share most of the rest.
func replacedRun(a, b []string) (string, string, bool) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(x) == 0 || len(y) == 0 || len(x) > maxEditWords || len(y) > maxEditWords || pre+suf < 2*max(len(x), len(y)) {
		return "", "", false
	}
	return strings.Join(x, " "), strings.Join(y, " "), true
}

// replacedEverywhere returns the words a and b differ in when the same
// run of words was replaced by the same other run in several places,
// along their longest common subsequence, and nothing else changed.
func replacedEverywhere(a, b []string) (string, string, bool) {
	const maxWords = 200
	if len(a) == 0 || len(b) == 0 || len(a) > maxWords || len(b) > maxWords {
		return "", "", false
	}
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var x, y []string
	runs := 0
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if i < len(a) && j < len(b) && a[i] == b[j] {
			i, j = i+1, j+1
			continue
		}
		// A run of changes: a's words and b's words until they meet again.
		i0, j0 := i, j
		for i < len(a) || j < len(b) {
			if i < len(a) && j < len(b) && a[i] == b[j] && lcs[i][j] == lcs[i+1][j+1]+1 {
				break
			}
			if j >= len(b) || (i < len(a) && lcs[i+1][j] >= lcs[i][j+1]) {
				i++
			} else {
				j++
			}
		}
		da, db := a[i0:i], b[j0:j]
		if len(da) == 0 || len(db) == 0 || len(da) > maxEditWords || len(db) > maxEditWords {
			return "", "", false
		}
		if runs > 0 && (!slices.Equal(da, x) || !slices.Equal(db, y)) {
			return "", "", false
		}
		x, y = da, db
		runs++
	}
	if runs == 0 || lcs[0][0] < 2*runs*max(len(x), len(y)) {
		return "", "", false
	}
	return strings.Join(x, " "), strings.Join(y, " "), true
}

// absorbLoneClaims treats a lone claim as a disagreement, not a second
// entity: one unqualified source whose value no other source mentions,
// beside an unqualified entity that two or more different claims attest,
// is taken to be about that entity (a minority claim, for resolution to
// weigh) rather than about an entity of the same name that nothing else
// attests, when its document is about what that entity's documents are
// about (relatedDocSimilarity). A lone claim from a document about
// something else is kept apart: another entity of the name.
func absorbLoneClaims(clusters []*cluster, sources []rs.SearchResult, docWords map[string]map[string]float64) []*cluster {
	var main *cluster
	for _, c := range clusters {
		if c.label == "" && distinctClaims(c.pos) >= 2 && (main == nil || len(c.pos) > len(main.pos)) {
			main = c
		}
	}
	if main == nil {
		return clusters
	}
	out := clusters[:0]
	for _, c := range clusters {
		if c != main && c.label == "" && len(c.pos) == 1 && mentions(sources, &side{value: c.pos[0].value, pos: c.pos}) == 0 &&
			nearest(c.pos[0].doc, main, docWords) >= relatedDocSimilarity {
			c.pos[0].lone = true
			main.pos = append(main.pos, c.pos[0])
			continue
		}
		out = append(out, c)
	}
	return out
}

// nearest is how alike doc is to the most alike other document of c.
func nearest(doc string, c *cluster, docWords map[string]map[string]float64) float64 {
	best := 0.0
	for _, p := range c.pos {
		if p.doc != doc {
			best = max(best, cosine(docWords[doc], docWords[p.doc]))
		}
	}
	return best
}

// sentenceSimilarity is the Jaccard similarity of two claims' words,
// their values' words left out.
func sentenceSimilarity(p, q *position) float64 {
	a, b := claimWords(p), claimWords(q)
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

func claimWords(p *position) map[string]bool {
	value := map[string]bool{}
	for _, w := range words(p.value.Text) {
		value[w] = true
	}
	out := map[string]bool{}
	for _, w := range retrieve.Terms(p.fact.Passage) {
		if !value[w] {
			out[w] = true
		}
	}
	return out
}

// docVectors are each document's word counts (over its passages), for
// telling which sources describe the same entity.
func docVectors(sources []rs.SearchResult) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	df := map[string]int{}
	for _, s := range sources {
		doc := docURL(s.URL)
		v := out[doc]
		if v == nil {
			v = map[string]float64{}
			out[doc] = v
		}
		for _, w := range retrieve.Terms(s.Content) {
			if v[w] == 0 {
				df[w]++
			}
			v[w]++
		}
	}
	// Words every document shares say nothing about which is which.
	n := float64(len(out))
	for _, v := range out {
		for w := range v {
			v[w] = math.Log(1 + n/float64(df[w]))
		}
	}
	return out
}

func cosine(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for w, x := range a {
		na += x * x
		dot += x * b[w]
	}
	for _, y := range b {
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// entityLabel is how a source qualifies the subject at its first mention
// outside headings: the name with a capitalised word right before it, an
// initial inside it, a legal form or a parenthesis right after it
// ("Belleville News-Democrat", "Stephen M. O'Mara", "Araki Station
// (Chiba)", "Kestrel Dynamics Ltd"), lower case; "" when the source
// writes the bare subject or never names it.
func entityLabel(text string, subject []string) string {
	if len(subject) == 0 {
		return ""
	}
	var body []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			body = append(body, l)
		}
	}
	head := strings.Join(body, "\n")
	if len(head) > 2000 {
		head = head[:2000]
	}
	ws := wordRE.FindAllStringIndex(head, -1)
	lw := make([]string, len(ws))
	for i, m := range ws {
		lw[i] = strings.ToLower(head[m[0]:m[1]])
	}
	capital := func(i int) bool {
		r, _ := utf8.DecodeRuneInString(head[ws[i][0]:])
		return unicode.IsUpper(r)
	}
	for i := range ws {
		if lw[i] != subject[0] {
			continue
		}
		j, k, inserted := i, 1, 0
		for k < len(subject) && j+1 < len(ws) {
			j++
			switch {
			case lw[j] == subject[k]:
				k++
			case inserted == 0 && capital(j) && ws[j][1]-ws[j][0] <= 2:
				inserted++
			default:
				k = -1
			}
			if k < 0 {
				break
			}
		}
		if k != len(subject) {
			continue
		}
		// The label as written (for reading) is built beside the
		// lower-case words (for comparing).
		label := append([]string(nil), lw[i:j+1]...)
		written := []string{head[ws[i][0]:ws[j][1]]}
		// "the 304.5 MW Bellcrest Wind Farm": a unit after a number is
		// no part of the name.
		unit := i > 1 && strings.TrimSpace(head[ws[i-2][1]:ws[i-1][0]]) == "" && numberRE.MatchString(lw[i-2]) && numberRE.FindString(lw[i-2]) == lw[i-2]
		if i > 0 && capital(i-1) && !unit && !connectors[lw[i-1]] && !retrieveStop(lw[i-1]) && strings.TrimSpace(strings.Trim(head[ws[i-1][1]:ws[i][0]], " -")) == "" &&
			!strings.Contains(head[ws[i-1][1]:ws[i][0]], "\n") {
			label = append([]string{lw[i-1]}, label...)
			written = append([]string{head[ws[i-1][0]:ws[i][0]]}, written...)
		}
		rest := head[ws[j][1]:]
		if m := legalFormRE.FindStringSubmatch(rest); m != nil {
			label = append(label, strings.ToLower(m[1]))
			written = append(written, " "+m[1])
		} else if m := parenRE.FindStringSubmatch(rest); m != nil && !strings.Contains(m[1], ":") && !fullDate(m[1]) {
			label = append(label, words(m[1])...)
			written = append(written, " ("+m[1]+")")
		}
		if len(label) == len(subject) {
			return ""
		}
		return strings.Join(strings.Fields(strings.Join(written, "")), " ")
	}
	return ""
}

// fullDate reports a parenthesis that is a day's date ("June 5th,
// 1997"): when something happened, not which of a name's entities.
func fullDate(s string) bool {
	vs := Values(s)
	return len(vs) == 1 && vs[0].Kind == KindDate && len(vs[0].Day) == 10
}

var (
	wordRE      = regexp.MustCompile(`[\p{L}\p{N}]+`)
	legalFormRE = regexp.MustCompile(`^,?\s+(Inc|Ltd|LLC|LLP|plc|PLC|Corp|Corporation|GmbH|AG|SA|NV|BV|Limited|Co)\b`)
	parenRE     = regexp.MustCompile(`^\s*\(([^()\n]{1,60})\)`)
)

// retrieveStop reports a word too common to qualify a name ("The").
func retrieveStop(w string) bool { return len(retrieve.Terms(w)) == 0 }
