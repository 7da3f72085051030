package ask

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/quarry-dev/quarry/retrieve"
)

// How the offline analyst picks the sentence that answers. A question's
// content words are of three kinds by how often the room uses them:
// absent (no chunk has them: the room cannot answer, "Does Nettle
// implement Dilithium?"), common (in a quarter of the room's chunks or
// more: the room's own subject, "Debian" in a room about Debian, which
// every passage may leave unsaid), and the rest, which are the focus:
// what makes it this question. A passage answers only when it has the
// focus: all its words, or all but one of four or more that is not the
// rarest.
// Within such passages the answer is the sentence, table row or list item
// with most of the question's words, weighted by how rare they are in the
// room, and of the kind the question asks for (an amount, a date, a name).

// Rarity is how many of the room's Passages (chunks) hold each of a
// question's terms, as room.Search's TermChunks gives it.
type Rarity struct {
	Chunks   map[string]int
	Passages int
}

// RarityOf reads from the room's store how rare the question's words are
// in the room; nil when the store cannot say, and the answer is then
// picked without it.
func RarityOf(ctx context.Context, st Store, roomID, question string) *Rarity {
	terms := retrieve.Terms(question)
	var asked []string
	for _, t := range terms {
		asked = append(asked, retrieve.Spellings(t)...)
	}
	for _, t := range terms {
		asked = append(asked, retrieve.Parts(t)...)
	}
	chunks, passages, err := st.TermChunks(ctx, roomID, asked)
	if err != nil {
		return nil
	}
	// A name that underscores join is in the chunks that have its parts
	// one after another ("CONFIG HZ" for CONFIG_HZ), at most in those
	// with its rarest part.
	for _, t := range terms {
		if ps := retrieve.Parts(t); ps != nil && chunks[t] == 0 {
			n := passages
			for _, p := range ps {
				n = min(n, chunks[p])
			}
			chunks[t] = n
		}
	}
	// A word is in the chunks that spell it either way ("colour" in a
	// room that says "color").
	for _, t := range terms {
		verbs := retrieve.VerbForms(t)
		for _, v := range retrieve.Spellings(t)[1:] {
			if slices.Contains(verbs, v) && chunks[t] > 0 {
				continue // a noun the room says is as rare as it is, whatever its verb
			}
			if n, ok := chunks[v]; ok {
				chunks[t] = min(chunks[t]+n, passages)
			}
		}
	}
	return &Rarity{Chunks: chunks, Passages: passages}
}

// commonShare is the share of a room's chunks a word must be in to be the
// room's subject rather than a question's focus; rooms of fewer than
// minPassages chunks have no common words.
const (
	commonShare = 0.25
	minPassages = 8
)

// absent reports whether the room has no chunk with w: known only when
// the rarity is.
func (r *Rarity) absent(w string) bool {
	if r == nil || r.Passages == 0 {
		return false
	}
	n, ok := r.Chunks[w]
	return ok && n == 0
}

// common reports whether w is in so much of the room that it is what the
// room is about.
func (r *Rarity) common(w string) bool {
	if r == nil || r.Passages < minPassages {
		return false
	}
	return float64(r.Chunks[w]) >= commonShare*float64(r.Passages)
}

// weight is how much finding w says: the inverse document frequency of
// BM25, 1 when the rarity is not known.
func (r *Rarity) weight(w string) float64 {
	if r == nil || r.Passages == 0 {
		return 1
	}
	// A word's family may be counted in a chunk once per form it has
	// there: no more chunks than the room has.
	n := min(float64(r.Chunks[w]), float64(r.Passages))
	return math.Log(1 + (float64(r.Passages)-n+0.5)/(n+0.5))
}

// genericWords ask about something without naming it: a passage may say
// them otherwise ("How big is the block?" over "the block size is 900k").
var genericWords = map[string]bool{"big": true, "large": true, "small": true, "long": true, "use": true, "used": true,
	"uses": true, "need": true, "needs": true, "needed": true, "make": true, "makes": true, "made": true, "work": true,
	"works": true, "get": true, "gets": true, "happen": true, "happens": true, "mean": true, "means": true, "meaning": true,
	"called": true, "call": true, "name": true, "named": true, "exist": true, "exists": true, "kind": true, "type": true,
	"way": true, "ways": true, "thing": true, "things": true, "happened": true, "tell": true, "say": true, "says": true,
	"said": true, "describe": true, "described": true, "explain": true, "mentioned": true, "mention": true, "doc": true,
	"document": true, "documents": true, "ask": true, "asks": true, "asked": true, "want": true, "wants": true,
	"show": true, "shows": true, "list": true, "find": true, "know": true, "end": true, "ends": true, "start": true,
	"starts": true, "begin": true, "begins": true, "expire": true, "expires": true, "finish": true, "finishes": true,
	"every": true, "each": true, "ever": true, "altogether": true, "flag": true, "flags": true, "option": true, "options": true, "switch": true, "documentation": true, "manual": true, "guide": true, "exactly": true, "often": true, "frequently": true, "soon": true, "far": true, "old": true,
	// whether one thing goes with another, which a passage says as "works
	// with", "can be used with", "requires"
	"compatible": true, "compatibility": true, "incompatible": true, "available": true, "supported": true,
	"support": true, "supports": true, "usable": true}

// focus sorts a question's content words: those the room never uses
// that make it this question (absent), those a passage must have
// (strong: the thing asked for, a name, a number or a code, a year) and
// those it should mostly have (soft). Words of the documents' names
// (named) pick the document, not the passage: "the board pack" need not be
// in it. A soft word the room never uses is a way of putting the question
// ("biggest", "unpacking", "wrote"), not a refusal; a noun the room never
// uses ("emoji", "revenue") is.
func focus(question string, content []string, r *Rarity, named map[string]bool) (absent, strong, soft []string) {
	head, marked, verbs, kind := headOf(question), markedWords(question), questionVerbs(question), wantOf(question)
	// "Which function ...?", "Which utility ...?" say what kind of
	// thing the answer names, which a manual may call a routine or a
	// program: the answer is the name, not the word.
	asksKind := ""
	if m := thingAskRe.FindStringSubmatch(question); m != nil {
		asksKind = strings.ToLower(m[1])
	}
	for _, w := range content {
		hard := w == head || marked[w]
		switch {
		case genericWords[w] || genericWords[strings.TrimSuffix(w, "s")] || named[w] || w == asksKind:
		case kind.name && nameWords[w]: // "the author of tallow" asks for a name, which the cover gives without the word
		case r.absent(w) && financeAlternatives(w) == nil:
			if hard || !wayOfAsking(w) && !verbs[w] {
				absent = append(absent, w)
			}
		case r.common(w):
		case hard:
			strong = append(strong, w)
		default:
			soft = append(soft, w)
		}
	}
	for _, y := range yearsIn(question) {
		// a year asked about is a period the passage must be of, even if
		// it does not pick the document as a filing's year does
		if w := strconv.Itoa(y); !r.common(w) && !slices.Contains(strong, w) {
			strong = append(strong, w)
		}
	}
	return absent, strong, soft
}

// nameWords ask for a person by their part: the answer is a name.
var nameWords = map[string]bool{"author": true, "authors": true, "writer": true, "creator": true, "developer": true,
	"developers": true, "maintainer": true, "maintainers": true}

// markedWords are the question's words written as names, numbers or
// codes: with a capital past its first word, or with a digit, a dot, an
// underscore, a hyphen or a slash inside ("Dilithium", "1.0.8",
// "BZ_NO_STDIO", "try/catch", "/usr/local").
func markedWords(question string) map[string]bool {
	out := map[string]bool{}
	for i, f := range strings.Fields(question) {
		f = strings.Trim(f, "?!.,;:\"'()[]")
		if f == "" {
			continue
		}
		first, _ := utf8.DecodeRuneInString(f)
		if i > 0 && unicode.IsUpper(first) || strings.ContainsAny(f, "0123456789._/") || strings.Contains(strings.Trim(f, "-"), "-") {
			for _, w := range retrieve.Words(f) {
				out[w] = true
			}
		}
	}
	return out
}

// wayOfAsking reports whether a word the room never uses is likely only
// how the question is put: a verb's form or a superlative ("unpacking",
// "worked", "biggest", "wrote"), which a passage says in its own words.
func wayOfAsking(w string) bool {
	if lightWord(w) {
		return true
	}
	for _, suffix := range []string{"ing", "ed", "est"} {
		if strings.HasSuffix(w, suffix) && len(w) > len(suffix)+3 {
			return true
		}
	}
	// an adverb: "automatically", "quickly"; not "supply", "family"
	return len(w) >= 7 && strings.HasSuffix(w, "ly") && !strings.HasSuffix(w, "ply") && !strings.HasSuffix(w, "ily")
}

// lightWord reports whether w is a verb that says little of what is asked
// or a particle of one: "writes", "drawn", "come", "give back"; not
// "published" nor "maintains".
func lightWord(w string) bool {
	return commonVerbs[w] || irregularVerbs[w] || particles[w] || isVerbS(w) && (commonVerbs[w[:len(w)-1]] || irregularVerbs[w[:len(w)-1]])
}

// irregularVerbs are forms of verbs questions put things in that no rule
// finds: "How large are the electrons drawn?", "Which package does it
// build on?", "How are electrons spread over the shells?"
var irregularVerbs = map[string]bool{"drawn": true, "draw": true, "spread": true, "build": true, "built": true,
	"known": true, "know": true, "given": true, "taken": true, "shown": true, "done": true, "gone": true, "seen": true,
	"found": true, "held": true, "hold": true, "bring": true, "brought": true, "chosen": true, "choose": true,
	"broken": true, "break": true, "hidden": true, "hide": true, "grown": true, "grow": true, "thrown": true,
	"born": true, "begun": true, "begin": true, "hung": true, "hang": true, "won": true, "lost": true, "lose": true,
	"meant": true, "dealt": true, "deal": true, "felt": true, "sent": true, "send": true, "spent": true, "spend": true,
	"told": true, "thought": true, "think": true, "bought": true, "buy": true, "caught": true, "catch": true,
	"laid": true, "lay": true, "paid": true, "pay": true, "sold": true, "sell": true, "stood": true, "stand": true,
	"understood": true, "understand": true, "become": true, "became": true, "fit": true, "cut": true, "shut": true,
	"read": true, "ride": true, "rise": true, "risen": true, "fall": true, "fallen": true, "fell": true, "rung": true,
	"struck": true, "stuck": true, "stick": true, "dug": true, "spun": true, "lent": true, "lend": true, "bent": true,
	"mean": true, "speak": true, "spoken": true, "wear": true, "worn": true, "tear": true, "torn": true}

// particles go with a question's verb ("give back", "was TAI ahead of"),
// saying how, not what.
var particles = map[string]bool{"back": true, "ahead": true, "away": true, "apart": true, "together": true,
	"along": true, "around": true, "forward": true, "behind": true, "instead": true, "anyway": true}

// commonVerbs are verbs questions use in forms a passage rarely repeats.
var commonVerbs = map[string]bool{"give": true, "gives": true, "gave": true, "take": true, "takes": true, "took": true,
	"go": true, "goes": true, "went": true, "come": true, "comes": true, "came": true, "put": true, "puts": true,
	"keep": true, "keeps": true, "kept": true, "let": true, "lets": true, "see": true, "wrote": true, "write": true,
	"written": true, "run": true, "runs": true, "ran": true, "try": true, "tries": true, "leave": true, "left": true,
	"set": true, "sets": true, "point": true, "pick": true, "stop": true, "stops": true, "change": true, "changes": true,
	"handle": true, "handles": true, "work": true, "happen": true, "mean": true, "say": true, "tell": true, "help": true,
	"allowed": true, "allow": true, "allows": true, "able": true, "possible": true, "ok": true, "okay": true,
	"actually": true, "really": true, "exactly": true, "without": true}

// answers reports whether a passage has the focus: every strong word, and
// the soft ones too, but for one of three or more, or for one of two or a
// third of them that the question says in passing ("for example when
// benchmarking", "the sample script"), so long as the word left out does
// not say which of a thing the passage has the question means: "external"
// of "external pointers" (other pointers are not the ones asked about).
// With nothing to hold it to, every passage does.
func answers(strong, soft []string, modifies map[string][]string, text string) bool {
	if len(missing(strong, text)) > 0 {
		return false
	}
	lack := missing(soft, text)
	switch {
	case len(lack) == 0 || len(lack) == 1 && len(soft) >= 3:
		return true
	case len(lack) == 1 && len(soft) == 2 || 3*len(lack) <= len(soft):
		for _, w := range lack {
			if len(missing(modifies[w], text)) < len(modifies[w]) {
				return false
			}
		}
		return true
	}
	return false
}

// modifiers maps each of a question's words to the word right after it
// when neither is a stopword, the second no number and no verb of the
// question: the thing it may say which of ("external pointers", "heap
// size"; not "foreign imports", "codes 11").
func modifiers(question string) map[string][]string {
	out := map[string][]string{}
	ws, verbs := retrieve.Words(question), questionVerbs(question)
	for i := 0; i+1 < len(ws); i++ {
		a, b := ws[i], ws[i+1]
		if len(retrieve.Terms(a)) > 0 && len(retrieve.Terms(b)) > 0 && !verbs[b] && !unicode.IsDigit(rune(b[0])) {
			out[a] = append(out[a], b)
		}
	}
	return out
}

// missing returns the words of need that text lacks.
func missing(need []string, text string) []string {
	var out []string
	words := append(textWords(text), camelParts(text)...)
	stems := stemsOf(words)
	var bases map[string]bool
	for _, w := range need {
		if sharedWords([]string{w}, text) > 0 || stems[stem(w)] {
			continue
		}
		if bases == nil {
			bases = map[string]bool{}
			for _, x := range words {
				bases[base(retrieve.Lemma(x))] = true
			}
		}
		if !bases[base(retrieve.Lemma(w))] {
			out = append(out, w)
		}
	}
	return out
}

// base is a word without the ending of its past, its -ing form or its
// plural, a doubled last consonant undone: "added" and "adding" are
// "add" (which the stemmer makes "ad" of "added"), "stopped" "stop".
func base(w string) string {
	for _, suffix := range []string{"ing", "ed", "es", "s"} {
		if b, ok := strings.CutSuffix(w, suffix); ok && len(b) >= 3 {
			if n := len(b); n >= 4 && b[n-1] == b[n-2] && !strings.ContainsRune("aeiousl", rune(b[n-1])) {
				b = b[:n-1]
			}
			return b
		}
	}
	return w
}

// camelParts are the words inside the text's identifiers written in
// camel case, lower case: "show" and "grid" in \TPShowGrid, "merge" in
// pyMergeChanges.py. Manuals name commands so; a question says the words.
func camelParts(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		start, parts := 0, 0
		rs := []rune(w)
		for i := 1; i <= len(rs); i++ {
			if i == len(rs) || unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1]) {
				if parts > 0 || i < len(rs) {
					if p := strings.ToLower(string(rs[start:i])); len(p) >= 3 {
						out = append(out, p)
					}
				}
				start, parts = i, parts+1
			}
		}
	}
	return out
}

// optionRe finds a command's options in a question: "-k", "--keep".
var optionRe = regexp.MustCompile(`(?:^|[\s("'])(--?[A-Za-z0-9][\w-]*)`)

// options are the options a question names, as written.
func options(question string) []string {
	var out []string
	for _, m := range optionRe.FindAllStringSubmatch(question, -1) {
		out = append(out, m[1])
	}
	return out
}

// hasOption reports whether text has the option o standing alone: "-k"
// in "-k --keep", not in "-kv" or "bzip2-k".
func hasOption(text, o string) bool {
	for i := 0; ; {
		k := strings.Index(text[i:], o)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(o)
		before := k == 0 || !isOptionByte(text[k-1])
		after := end == len(text) || !isOptionByte(text[end])
		if before && after {
			return true
		}
		i = k + 1
	}
}

func isOptionByte(b byte) bool {
	return b == '-' || b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// wants is the kind of answer a question asks for.
type wants struct {
	amount, date, name bool
	// how: "How do I ...?" asks for a way, which a line gives as an
	// instruction or a command: "use the package option loadonly".
	how bool
	// fallback: "What is the default ...?" asks for what holds unless
	// set, which a line says as "defaults to", "(default)", "initially".
	fallback bool
	// size: "How big ...?", "What is the width ...?" asks for a measure,
	// which a line gives as a number with its unit ("1.5pt", "900k").
	size bool
	// counted is what "How many X ...?" counts, which a line that
	// answers puts after its number ("7500 glyphs", "two colors").
	counted string
	// list: "Which packages does R load?", "What kinds of fog ...?" ask
	// for several things, which a line gives as a list (hasList).
	list bool
	// code: "Which option ...?" asks for a thing a manual writes as
	// code, which a line that answers names (things.go); the question's
	// own words, which name none.
	code map[string]bool
}

var countedRe = regexp.MustCompile(`(?i)\bhow\s+many\s+([\pL-]+)`)

// counts reports whether u puts a number right before the thing counted
// (a word between: "approximately 7500 distinct glyphs").
func (k wants) counts(u string) bool {
	if k.counted == "" {
		return false
	}
	ws := strings.Fields(strings.ToLower(u))
	for i, w := range ws {
		if !plainNumberRe.MatchString(strings.Trim(w, ",;:()")) && !numeralRe.MatchString(w) {
			continue
		}
		for j := i + 1; j <= i+2 && j < len(ws); j++ {
			if stem(strings.Trim(ws[j], ",.;:()")) == stem(k.counted) {
				return true
			}
		}
	}
	return false
}

var (
	sizeQuestionRe = regexp.MustCompile(`(?i)\bhow (big|large|wide|long|tall|high|thick|small|heavy|far)\b|\b(size|width|height|length|radius|thickness|diameter|distance|weight)\b`)
	// measureRe finds a number with its unit: "1.5pt", "0.25 em", "900k",
	// "30 minutes", "6.75 seconds".
	measureRe = regexp.MustCompile(`(?i)\d(\.\d+)?\s?(pt|em|ex|mm|cm|in|inch|inches|px|bp|pc|sp|k|kb|mb|gb|bytes?|ms|s|secs?|seconds?|min|minutes?|hours?|days?|weeks?|months?|years?|degrees?|kg|g|m|km|miles?)\b|\d\s?%`)
)

var (
	dateQuestionRe   = regexp.MustCompile(`(?i)^\s*when\b|\b(what|which) ([\w-]+ )?(year|date|day|month|version|release)\b|\bsince when\b|\bhow long ago\b`)
	nameQuestionRe   = regexp.MustCompile(`(?i)^\s*who\b|\b(whose|who)\b|\bwhat is the name\b|\b(which|what) (authors?|maintainers?|developers?)\b|\b(the|its) (authors?|maintainers?|developers?)( of\b| is\b| are\b| was\b| were\b|\?|$)|\b(written|created|developed|maintained) by\b`)
	amountQuestionRe = regexp.MustCompile(`(?i)\b(how (much|many|big|large|long|fast|often|old|far)|what (is|was|are) the (size|number|maximum|minimum|default|limit|amount|percentage|rate)|numeric(al)? value|size|maximum|minimum|limit)\b`)
)

func wantOf(question string) wants {
	k := wants{amount: asksForAmount(question) || amountQuestionRe.MatchString(question),
		date: dateQuestionRe.MatchString(question), name: nameQuestionRe.MatchString(question),
		how: howQuestionRe.MatchString(question), fallback: defaultRe.MatchString(question), size: sizeQuestionRe.MatchString(question)}
	if m := countedRe.FindStringSubmatch(question); m != nil {
		k.counted = strings.ToLower(m[1])
	}
	k.list = asksList(question)
	if thingAskRe.MatchString(question) {
		k.code = map[string]bool{}
		for _, w := range retrieve.Words(question) {
			k.code[w] = true
		}
	}
	return k
}

// defaultRe finds what says a default, in a question or a line.
var defaultRe = regexp.MustCompile(`(?i)\bdefault(s|ed)?\b|\binitially\b|\bunless (set|given|changed)\b`)

var (
	howQuestionRe = regexp.MustCompile(`(?i)^\s*how\s+(do|can|could|should|would|may|might)\s+(i|you|we|one)\b|^\s*how\s+to\b`)
	// instructionRe finds a way given: a verb that tells what to do, an
	// option or a command's name, a key set to a value.
	instructionRe = regexp.MustCompile(`(?i)\b(use|using|set|setting|load|loading|pass|call|specify|type|run|add|put|write|with the|by the)\b|\\[A-Za-z@]{2,}|(^|\s)--?[A-Za-z]\w*|\b[a-z][\w-]*=`)
)

// gives reports whether a unit gives a way of doing what a how-to
// question asks.
func (k wants) gives(u string) bool { return k.how && instructionRe.MatchString(u) }

var (
	yearOrDateRe = regexp.MustCompile(`\b(1[89]|20)\d\d\b|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}\b|\b\d{4}-\d\d-\d\d\b`)
	personRe     = regexp.MustCompile(`\b\p{Lu}[\p{Ll}'-]+ (\p{Lu}\. )?\p{Lu}[\p{Ll}'-]+\b|[\w.+-]+@[\w-]+\.[\w.]+`)
)

// any reports whether the question asks for a kind of answer.
func (k wants) any() bool { return k.amount || k.date || k.name }

// fits reports whether a unit holds the kind of answer asked for.
func (k wants) fits(u string) bool {
	return k.amount && hasAmount(u) || k.date && yearOrDateRe.MatchString(u) || k.name && hasName(u)
}

// hasName reports whether a unit names a person or an organisation: two
// capitalised words, the first no function word ("The Zorblax"), or an
// e-mail address.
func hasName(u string) bool {
	for _, m := range personRe.FindAllString(u, -1) {
		first, _, _ := strings.Cut(m, " ")
		if strings.Contains(m, "@") || !functionWords[strings.ToLower(first)] {
			return true
		}
	}
	return false
}

// functionWords start sentences without naming anyone.
var functionWords = map[string]bool{"the": true, "a": true, "an": true, "it": true, "its": true, "this": true, "that": true,
	"these": true, "those": true, "in": true, "on": true, "at": true, "for": true, "by": true, "with": true, "from": true,
	"when": true, "every": true, "each": true, "use": true, "if": true, "our": true, "we": true, "all": true, "see": true,
	"to": true, "as": true, "after": true, "before": true, "since": true, "during": true, "note": true, "table": true}

// score is how well a unit answers: the weights of the question's words
// it has, and half those that only what sets its scene has (its chunk's
// heading, the sentence before: "It cost $18.4 million" after "The Ohio
// centre opened in November"); more when it holds the kind of answer the
// question asks for, less when it does not.
func score(content []string, r *Rarity, k wants, u, scene string) float64 {
	own, around := 0.0, 0.0
	words := textWords(u)
	stems := stemsOf(append(words, camelParts(u)...)) // "show" and "grid" in \TPShowGrid
	for _, t := range content {
		switch {
		case stems[stem(t)] || retrieve.Joined(t, words):
			own += r.weight(t)
		case sharedWords([]string{t}, u) > 0:
			own += r.weight(t) / 2 // "founding" for "founded": a word of the family only
		case sharedWords([]string{t}, scene) > 0:
			around += r.weight(t)
		}
	}
	if own == 0 {
		return 0
	}
	s := own + around/2
	switch {
	case !k.any():
	case k.fits(u):
		s *= 1.5
	default:
		s /= 2
	}
	if k.gives(u) || k.fallback && defaultRe.MatchString(u) {
		s *= 1.5
	}
	if k.list && hasList(u) {
		s *= 1.5 // "Which packages are loaded?": "grDevices, graphics, stats and methods", not "the set of packages loaded"
	}
	if k.counts(u) {
		s *= 1.5 // "How many glyphs ...?": "approximately 7500 glyphs", not "12 pt fonts with many glyphs"
	}
	if k.size && measureRe.MatchString(u) {
		s *= 1.5 // "How large are the electrons?": "electron-radius Default: 1.5pt", not "Default: blue!50"
	}
	if k.code != nil && namesCode(u, k.code) {
		s *= 1.5 // "Which flag ...?": "gcc myprog.c -lcfitsio", not "programs must be linked with the library"
	}
	return s
}

// piece is what an answer can quote, with what sets its scene: the
// heading above it and, for a table's row, the table's header. A line
// that says it points elsewhere is quoted with what it points to: the
// sentence before one that starts "This ..." or "It ..." (lead), the
// lines a line ending in ":" introduces (more).
type piece struct {
	text, scene string
	heading     string
	lead, more  string
	// para numbers the paragraph the piece is of; a table's row is a
	// paragraph of its own.
	para int
	// next is what the piece is quoted with when it is short (told).
	next string
	// after are the two sentences after it under its heading, in its
	// paragraph or the next: what gives the value a line about the
	// thing asked for only announces ("The default color is blue."
	// after "The defaultcolor option defines the default color").
	after []string
	// term is the term of a list's entry the piece is of, when it is in
	// the paragraph right under it.
	term string
	// above is the line right above the paragraph the piece starts (the
	// heading, when the paragraph is right under it): a routine's usage
	// line above what it does.
	above string
}

// quote is what the answer says of a piece: its lead, its text and what
// it introduces; with its heading before it when the question asks for a
// date, a version or a name that only the heading has ("2.0, 2018 May 9"
// above "- Ledger lines repeat at page breaks.").
// told is how a line is quoted: a short one with the sentence after it
// in its paragraph, which says what it introduces ("Random initial
// placement can yield different layouts." is followed by how to ask for
// it), so long as the two are no longer than a quote may be.
func told(quote, next string) string {
	if next == "" || len(quote) >= shortQuote || len(quote)+1+len(next) > quoteChars || strings.HasSuffix(quote, ":") {
		return quote
	}
	return quote + " " + next
}

// describes reports whether line, a paragraph of its own, is a term
// that the sentence after it describes: it ends in no stop and is no
// code nor a table's row, and the next ends as a sentence does.
func describes(line, next string) bool {
	return !strings.ContainsAny(line[len(line)-1:], ".!?:;") && !strings.ContainsAny(line, "\\={}") &&
		!strings.Contains(line, "; ") && strings.HasSuffix(next, ".") && !startsLower(next)
}

// shortQuote is how long a line may be and be quoted with the next.
const shortQuote = 120

func (p piece) quote(k wants) string {
	s := p.text
	if p.lead != "" {
		s = p.lead + " " + s
	}
	if p.more != "" {
		s += " " + p.more
	}
	if !k.fits(s) && (k.date && yearOrDateRe.MatchString(p.heading) || k.name && hasName(p.heading)) || p.term != "" && !strings.Contains(s, p.term) {
		s = strings.TrimRight(p.heading, ";:") + ": " + s
	}
	if k.code != nil && p.above != "" && !namesCode(s, k.code) && namesCode(p.above, k.code) {
		// "Which utility removes isomorphs?": the line that says what
		// it does names no utility; the usage line above it does.
		s = strings.TrimRight(p.above, ";:") + ": " + s
	}
	return s
}

// isTermHeading reports whether a heading is the term of a list's entry
// (a user's or a group's name, a command's option) rather than a
// section's title: a few words, no number, starting in lower case or
// with a dash, or written as code ("dialout", "--mail [address(es)]",
// "_ssh"). An entry's lines are quoted with their term: "Full and direct
// access to serial ports." says which group only under "dialout".
func isTermHeading(h string) bool {
	if callRe.MatchString(h) {
		return true // a routine's call or prototype above what it does: "dumpschreier(FILE* f, gp, n);"
	}
	if h == "" || len(strings.Fields(h)) > 3 || strings.ContainsAny(h, "0123456789") {
		return false
	}
	first, _ := utf8.DecodeRuneInString(h)
	return unicode.IsLower(first) || first == '-' || first == '_' || strings.ContainsAny(h, "_[]<>/")
}

// callRe matches a line that is a routine's call or prototype alone:
// "condaddgenerator(&gp, &gens, p, n);", "void pump_error_text(int
// code, char *err_text)".
var callRe = regexp.MustCompile(`^(?:[A-Za-z_][\w]*\s+\**)*\**[A-Za-z_][\w:.]*\s?\([^()]*\)\s*;?$`)

// units splits a chunk's text into what an answer quotes: sentences, with
// the wrapped lines of a paragraph joined; a table's rows and a list's
// items as they are. A line much shorter than the text's longest ends its
// paragraph: it is not wrapped prose but a line of code, a title or a
// list's entry. A heading (a short line alone, with no full stop and no
// number but a section's or a release's) and a table's header (its first
// row, with no number) are not quoted: they set the scene of what follows.
func units(text string) []piece {
	var out []piece
	var para []string
	paras := 0
	heading, header := "", ""
	headed := -1           // the paragraphs before the heading
	var headerCells []cell // the header's cells where the page has them
	group := ""            // the label of the table's rows below it
	widest := 0
	for _, raw := range strings.Split(text, "\n") {
		widest = max(widest, utf8.RuneCountInString(strings.TrimSpace(raw)))
	}
	// introduced reports whether the last sentence ends in ":", which
	// introduces the line alone below it: no heading but what it says
	// ("the first line of the macro file must contain the comment:" and
	// "/*NOREXX*/").
	introduced := func() bool {
		return len(out) > 0 && out[len(out)-1].para == paras && strings.HasSuffix(out[len(out)-1].text, ":")
	}
	flush := func() {
		switch {
		case len(para) == 1 && isHeading(para[0]) && !introduced():
			heading, headed = para[0], paras
		case len(para) > 0:
			paras++
			term := ""
			if paras == headed+1 && isTermHeading(heading) {
				term = heading // the entry's own paragraph, right under its term
			}
			above := ""
			if paras == headed+1 {
				above = heading // a heading names what the paragraph right under it is of
			}
			for _, s := range sentences(strings.Join(para, " ")) {
				out = append(out, piece{text: s, scene: heading, heading: heading, term: term, para: paras, above: above})
				above = ""
			}
		}
		para = para[:0]
	}
	lines := strings.Split(text, "\n")
	for li, raw := range lines {
		line := strings.TrimSpace(raw)
		row := line != "" && isRow(line)
		if ruleRe.MatchString(line) {
			continue // a header's underline: the rows below are still its table's
		}
		if !row && line != "" && headerCells != nil && isGroup(line) && li+1 < len(lines) && isRow(strings.TrimSpace(lines[li+1])) {
			// a group's label between a table's rows ("Lengths",
			// "Current assets:"): the rows below are still the table's,
			// and of that group
			flush()
			group = strings.TrimSuffix(line, ":")
			continue
		}
		if !row && line != "" {
			header, headerCells, group = "", nil, "" // a blank line between a header and its rows keeps it
		}
		switch {
		case line == "":
			flush()
		case pageFurnitureRe.MatchString(line) || isContents(raw) || captionRe.MatchString(line):
			// a table of contents' entry, a running footer: what a page
			// shows of others, never an answer; a figure's caption names
			// what the lines around it show ("Figure 4: Experimentally
			// measuring CONFIG HZ."), which they answer
			flush()
			continue
		case row && header == "" && isHeader(raw):
			flush()
			header, headerCells = strings.Join(strings.Fields(line), " "), cellsOf(raw)
		case row:
			flush()
			paras++
			out = append(out, piece{text: labelled(headerCells, cellsOf(raw)), scene: heading + "\n" + header + "\n" + group, heading: heading, para: paras})
		case listItemRe.MatchString(line) || isTerm(raw) && startsEntry(lines, li):
			flush()
			para = append(para, line)
		default:
			para = append(para, line)
		}
		if line != "" && !row && 10*utf8.RuneCountInString(line) < 6*max(widest, 60) && !strings.HasSuffix(line, "-") &&
			(li+1 == len(lines) || indent(lines[li+1]) <= indent(raw) && li > 0 && !startsLower(lines[li+1]) ||
				li == 0 && !startsLower(lines[li+1])) {
			// A short line is no wrapped prose: it ends its paragraph,
			// unless it is a term whose description is indented below it
			// or its sentence goes on below ("you wanted", a displayed
			// command, "which gives you"). A chunk's first line has lost
			// its indent: it is no term.
			flush()
		}
	}
	flush()
	for i := range out {
		if i > 0 && out[i-1].para == out[i].para-1 && out[i-1].heading == out[i].heading && out[i].above == "" {
			out[i].above = out[i-1].text
		}
		for j := i + 1; j < len(out) && j <= i+2 && out[j].heading == out[i].heading && out[j].para <= out[i].para+1; j++ {
			out[i].after = append(out[i].after, out[j].text)
		}
		if i+1 < len(out) && out[i+1].heading == out[i].heading && (out[i+1].para == out[i].para || describes(out[i].text, out[i+1].text)) {
			// the sentence after it in its paragraph, or what describes
			// a term ("-D0, -D1": "If you specify -D1, ...")
			out[i].next = out[i+1].text
		}
		if i > 0 && pointsBackRe.MatchString(out[i].text) && out[i-1].heading == out[i].heading && !strings.HasSuffix(out[i-1].text, ":") {
			out[i].lead = out[i-1].text
		}
		if !strings.HasSuffix(out[i].text, ":") && !(followingRe.MatchString(out[i].text) && i+1 < len(out) && listItemRe.MatchString(out[i+1].text)) {
			continue
		}
		var more []string
		for j := i + 1; j < len(out) && j <= i+3 && len(strings.Join(more, " ")) < 200 && out[j].term == ""; j++ {
			// an entry under its own term is no item of the list a
			// colon introduces: it is quoted with its term
			more = append(more, out[j].text)
			if strings.HasSuffix(out[j].text, ":") {
				break
			}
		}
		out[i].more = strings.Join(more, " ")
	}
	return out
}

// isTerm reports whether a line starts an entry of a list of terms laid
// out in two columns, the term at the left and what it means at the right
// ("textsize      textsize=value sets the default text size ...",
// "electron-radius = {dimension}      Default: 1.5pt"): each entry is its
// own paragraph, not one with the entries around it.
func isTerm(raw string) bool {
	cells := cellsOf(raw)
	if len(cells) != 2 || cells[0].start == 0 && indent(raw) == 0 && len(cells[0].text) < 3 {
		return false
	}
	term := cells[0].text
	return len(strings.Fields(term)) <= 4 && utf8.RuneCountInString(term) <= 40 && !strings.HasSuffix(term, ".") &&
		!strings.HasSuffix(term, ",") && utf8.RuneCountInString(cells[1].text) > utf8.RuneCountInString(term)
}

// startsEntry reports whether the term on line li starts an entry: the
// line before it ends a sentence and is no term itself. Terms stacked
// one under another share what the right column says ("\nucisalpha
// \nucisbeta \nucisposi: returns whether the Q-value is positive"), and
// a note in the margin ("Introduced in / version 0.3") goes with the
// entry it is beside.
func startsEntry(lines []string, li int) bool {
	if li == 0 {
		return true
	}
	prev := strings.TrimSpace(lines[li-1])
	return prev == "" || !isTerm(lines[li-1]) && strings.ContainsAny(prev[len(prev)-1:], ".:!?")
}

// startsLower reports whether a line starts with a lower-case letter.
func startsLower(l string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(l))
	return unicode.IsLower(r)
}

// indent is how many spaces a line starts with.
func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

// pointsBackRe finds a sentence that starts by pointing at the one before.
var pointsBackRe = regexp.MustCompile(`^(This|It|These|That|Those|Such|They|Its|Their|Both|The (former|latter)|(The|Each|All|Either|Neither|None|One|Some|Most|Many) of (these|those|them|which))\b`)

// followingRe finds a sentence that introduces the list after it, as
// one ending in ":" does: "It accepts the following options.", "The
// kinds are listed below."
var followingRe = regexp.MustCompile(`(?i)\b(the following( [\pL-]+){0,3}|as follows|(listed|shown|given) below)\.$`)

// isHeading reports whether a line alone is a heading: a few words, no
// full stop, no number; or a section's or a release's number and a few
// words ("3.1 Label format", "2.4, 2021 March 3"), not code, a list's
// item ("– figures") nor what introduces a list ("You cannot mark up:").
func isHeading(l string) bool {
	if len(strings.Fields(l)) > 6 || strings.ContainsAny(l, "?!\\={}$%") || listItemRe.MatchString(l) || strings.HasSuffix(l, ":") {
		return false
	}
	if numberedRe.MatchString(l) {
		return !strings.HasSuffix(l, ".")
	}
	return !strings.ContainsAny(l, ".0123456789")
}

var numberedRe = regexp.MustCompile(`^(?i:(?:release|version)\s+)?[vV]?\d+(\.\d+)*[a-z]?,?\s+[\pL\d]`)

// pageFurnitureRe matches the lines a page shows about pages: a contents
// entry's dot leaders and page number ("E.1 Model description . . . . 70"),
// a running footer ("Page 15 of 34", "Seite 3 von 9", "- 12 -"), a web
// manual's links to its neighbours ("Next: Options, Previous: Usage,
// Up: Running").
var pageFurnitureRe = regexp.MustCompile(`(?i)((\.\s?){4,}\s*[0-9ivxlc]+$|^(page|seite|p\.)\s*\d+\s*(of|von|de|/)\s*\d+$|\bpage \d+ (of|von) \d+$|^[-–—]\s*\d+\s*[-–—]$|^(next|previous|prev|up):\s.*\b(next|previous|prev|up):\s)`)

// captionRe matches a figure's, a table's or a listing's caption alone
// on its line: "Figure 4: Experimentally measuring CONFIG HZ.",
// "Table 2.1 Pin functions".
var captionRe = regexp.MustCompile(`^(?:Figure|Fig\.|Table|Listing|Example)\s+\d+(?:\.\d+)*\s*[:.]?\s+\p{Lu}[^.!?]*[.]?$`)

// contentsRe matches a table of contents' entries without dot leaders,
// one or several side by side: a section's number, its title and its
// page ("1 Licence and Requirements 1", "4.2 Scaling 8   5 Index 9").
// An entry beside a numbered one may have no number: "2 News 1
// References 5".
var contentsRe = regexp.MustCompile(`^(\d{1,2}(\.\d{1,2})*\.?\s+\p{Lu}[^.!?;:=\\\d]{0,60}?\s+\d{1,4}\s*)+((\d{1,2}(\.\d{1,2})*\.?\s+)?\p{Lu}[^.!?;:=\\\d]{0,60}?\s+\d{1,4}\s*)*$`)

// indexEntryRe matches an index's entry: a term and the pages it is on
// ("maximum ray depth, 12", "lighting, 13-15, 20").
var indexEntryRe = regexp.MustCompile(`^\pL[^,;:.!?]{0,50},\s*\d{1,4}(\s*[-–,]\s*\d{1,4})*$`)

// isContents reports whether a line is made of contents entries only, or
// of an index's entries, one or two side by side.
func isContents(raw string) bool {
	if contentsRe.MatchString(strings.Join(strings.Fields(raw), " ")) {
		return true
	}
	cells := cellsOf(raw)
	for _, c := range cells {
		first, _, _ := strings.Cut(c.text, " ")
		if !indexEntryRe.MatchString(c.text) || functionWords[strings.ToLower(first)] {
			return false // "For example, 5" is a sentence's start
		}
	}
	return len(cells) > 0
}

var listItemRe = regexp.MustCompile(`^([-•*·–]|\d{1,2}[.)]|\(?[a-z]\))\s`)

// isRow reports whether a line is a table's row as pdftotext -layout
// keeps it: cells apart by runs of spaces, at least two of them numbers
// or three cells in all.
func isRow(line string) bool {
	cells := cellSplit.Split(line, -1)
	if len(cells) < 2 {
		return false
	}
	nums := 0
	for _, c := range cells {
		if numberRe.MatchString(c) && len(strings.Fields(c)) <= 2 {
			nums++
		}
	}
	return nums >= 2 || len(cells) >= 3
}

// cellSplit finds what parts a row's cells: a run of spaces, a tab, or
// a bar between spaces, as a DOCX's or a CSV's rows are written ("ambient
// | int | 35").
var cellSplit = regexp.MustCompile(`\s{3,}|\t|\s+\|(\s+\|)*\s+`)

// isGroup reports whether a line alone inside a table labels the rows
// below it: a few words, no number.
func isGroup(l string) bool {
	return len(strings.Fields(l)) <= 4 && !strings.ContainsAny(l, "0123456789") && !strings.HasSuffix(l, ".")
}

// isHeader reports whether a table's first row is its header: no cell
// is a number but for a year ("2022   2023") or a label with a number in
// it ("N=100", "Time (s)").
func isHeader(raw string) bool {
	for _, c := range cellsOf(raw) {
		if plainNumberRe.MatchString(c.text) && !bareYearRe.MatchString(c.text) {
			return false
		}
	}
	return true
}

var plainNumberRe = regexp.MustCompile(`^[-+(]?[$€£]?\d[\d,.]*%?\)?$`)

// ruleRe matches a line drawn under a table's header: dashes, equals
// signs, plus signs and bars.
var ruleRe = regexp.MustCompile(`^[-=_+|: ]{3,}$`)

// cell is a table cell's text and where it stands on its line, in
// characters.
type cell struct {
	text       string
	start, end int
}

// cellsOf splits a table's line into its cells, keeping where each
// stands.
func cellsOf(raw string) []cell {
	raw = strings.TrimRight(strings.ReplaceAll(raw, "\t", "    "), " ")
	var out []cell
	at := 0
	for _, gap := range append(cellSplit.FindAllStringIndex(raw, -1), []int{len(raw), len(raw)}) {
		if t := strings.TrimSpace(raw[at:gap[0]]); t != "" {
			lead := len(raw[at:gap[0]]) - len(strings.TrimLeft(raw[at:gap[0]], " "))
			start := utf8.RuneCountInString(raw[:at+lead])
			out = append(out, cell{strings.Join(strings.Fields(t), " "), start, start + utf8.RuneCountInString(t)})
		}
		at = gap[1]
	}
	return out
}

// labelled is a table's row read with its header: each cell after the
// header of its column ("Level -5; Time (s) 6.8"), so that the row says
// what its numbers are. A row has the header's cells one for one, or else
// each cell is under the header cell it overlaps most (pdftotext -layout
// keeps columns where they stand); a cell under none stays bare.
func labelled(header, row []cell) string {
	if len(header) < 2 {
		return joinCells(row)
	}
	col := make([]int, len(row))
	for i, c := range row {
		col[i] = -1
		if len(row) == len(header) {
			col[i] = i
			continue
		}
		best := 0
		for j, h := range header {
			if o := min(c.end, h.end) - max(c.start, h.start); o > best {
				best, col[i] = o, j
			}
		}
	}
	var parts []string
	for i := 0; i < len(row); i++ {
		text := row[i].text
		for i+1 < len(row) && col[i] >= 0 && col[i+1] == col[i] {
			i++
			text += " " + row[i].text // two cells under one header are one
		}
		if col[i] < 0 || header[col[i]].text == text {
			parts = append(parts, text)
			continue
		}
		parts = append(parts, header[col[i]].text+" "+text)
	}
	return strings.Join(parts, "; ")
}

// joinCells is a row's cells as one line.
func joinCells(row []cell) string {
	var parts []string
	for _, c := range row {
		parts = append(parts, c.text)
	}
	return strings.Join(parts, " ")
}

// abbreviations end in a full stop that ends no sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "etc": true, "vs": true, "mr": true, "mrs": true, "dr": true,
	"fig": true, "no": true, "cf": true, "al": true, "approx": true, "inc": true, "ltd": true, "co": true, "st": true, "sec": true}

// sentences splits a paragraph at the full stops, question and
// exclamation marks that a space and a capital, a digit or a quote
// follow, not after an abbreviation or an initial.
func sentences(p string) []string {
	p = strings.Join(strings.Fields(p), " ")
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if m := noteMarkRe.FindStringIndex(p[i:]); m != nil && i > 0 && unicode.IsLetter(rune(p[i-1])) {
			// "may be wrong.7 There was": a footnote's mark after the
			// full stop ends the sentence too; it stays with it.
			sp := i + strings.IndexByte(p[i:i+m[1]], ' ')
			out = append(out, p[start:sp])
			start = sp + 1
			i = sp
			continue
		}
		if c != '.' && c != '?' && c != '!' || i+2 >= len(p) || p[i+1] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(p[i+2:])
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && next != '"' && next != '(' {
			continue
		}
		if c == '.' {
			w := p[start:i]
			if k := strings.LastIndexAny(w, " ("); k >= 0 {
				w = w[k+1:]
			}
			if abbreviations[strings.ToLower(w)] || utf8.RuneCountInString(w) == 1 {
				continue
			}
		}
		out = append(out, p[start:i+1])
		start = i + 2
	}
	if start < len(p) {
		out = append(out, p[start:])
	}
	return out
}

// noteMarkRe matches a full stop with a footnote's mark after it, and the
// space and capital that start the next sentence.
var noteMarkRe = regexp.MustCompile(`^[.?!][0-9]{1,2}[*†‡]? \p{Lu}`)

// documentWords are the words by which a question names the documents
// pages are on: their file names' words, and their titles' words that the
// question writes as names (marked: "Gantry" in "How do I declare a set
// in Gantry?" names "The Gantry Modelling Language", whose pages need
// not say it; "language" in "a set in the language" names nothing).
func documentWords(pages []PageHit, marked map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, p := range pages {
		// "bohr_en.pdf" is named by "bohr" too.
		for _, w := range retrieve.Words(strings.ReplaceAll(strings.TrimSuffix(p.DocumentName, extOf(p.DocumentName)), "_", " ")) {
			out[w] = true
			// "neatoguide.pdf" is the neato guide: named by "neato".
			for _, n := range gluedNouns {
				if b, ok := strings.CutSuffix(w, n); ok && len(b) >= 3 {
					out[b] = true
				}
			}
		}
		for _, w := range retrieve.Words(p.Title) {
			if marked[w] {
				out[w] = true
			}
		}
	}
	return out
}

// gluedNouns are the nouns a file name glues to what a document is
// about: "neatoguide", "xfighowto", "bashref".
var gluedNouns = []string{"guide", "userguide", "manual", "howto", "tutorial", "handbook", "reference", "ref", "doc", "docs", "intro", "faq", "notes"}

// stem is a word's English stem, of its American spelling and of the
// word an irregular form is of: "colour" and "colors" are one word, and
// "lives" and "life", "January" and "Jan".
// A noun made of a verb is stemmed as the verb ("installation" and
// "install", "description" and "describe": nominal.go).
func stem(w string) string {
	l := retrieve.Lemma(w)
	return verbStem(l, english.Stem(l, false))
}

// stemsOf is the set of the words' stems, each stemmed once: a word of a
// question is in a text when its stem is ("released" for "release"), not
// only when a word starts like it.
func stemsOf(words []string) map[string]bool {
	out := make(map[string]bool, len(words))
	for _, x := range words {
		out[stem(x)] = true
	}
	return out
}

// headRe finds the thing a question asks for: the last word before a
// preposition or verb after "what/which (is/was) the", or the word after
// "how many/much".
var headRe = regexp.MustCompile(`(?i)^\s*(?:what|which)\s+(?:(?:is|was|are|were)\s+)?(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,3}?([\w-]+)\s+(?:of|for|in|on|at|does|do|did|is|was|are|were|has|have|had|that|to|used|between|by|with|from)\b|(?i)\bhow\s+(?:many|much)\s+([\w-]+)`)

// boundRe finds a bound asked for: "the maximum number of", "the minimum
// amount of".
var boundRe = regexp.MustCompile(`(?i)\b(maximum|minimum)\s+(number|amount|value|count)\s+of\b`)

// headOf returns the thing a question asks for, lower case, "" when it
// names none ("What was the revenue of Harbor?": revenue).
func headOf(question string) string {
	if m := boundRe.FindStringSubmatch(question); m != nil {
		return strings.ToLower(m[1]) // "the maximum number of light sources": a bound, which a passage must say
	}
	m := headRe.FindStringSubmatch(question)
	if m == nil {
		return ""
	}
	w := strings.ToLower(m[1] + m[2])
	switch w {
	case "is", "was", "are", "were", "does", "do", "did", "can", "will", "would", "should", "has", "have":
		return ""
	}
	if genericWords[w] || genericWords[strings.TrimSuffix(w, "s")] {
		return "" // "what does the -k flag do": the flag is how it is asked; "which kinds of decay"
	}
	if m[1] != "" && questionVerbs(question)[w] {
		// "Which mcpp option turns on ...?", "What integer value signals
		// that ...?": the word before a preposition is the question's
		// verb, which a passage says in its own words; the thing asked
		// for is the word before it.
		before := retrieve.Words(question[:strings.Index(strings.ToLower(question), w)])
		if len(before) < 2 {
			return ""
		}
		if b := before[len(before)-1]; !genericWords[b] && !questionWords[b] && b != "which" && b != "what" {
			return b
		}
		return ""
	}
	return w
}

// textWords are a text's words (retrieve.Words), then the parts of
// those that underscores join: "text" is in "char *err_text".
func textWords(text string) []string {
	words := retrieve.Words(text)
	n := len(words)
	for _, w := range words[:n] {
		words = append(words, retrieve.Parts(w)...)
	}
	return words
}
