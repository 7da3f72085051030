package investigate

import (
	"strings"
	"unicode"
)

// "Which industries drove it?" asks for the change split by industry,
// whatever the top explanation turns out to be. The question names a
// column by its name or plural ("platforms", "customer segment"), or names
// something after which/by/per/across that may match no column at all
// ("by country" over a file without one); that is reported, not dropped.

// mention is a column, or a noun no column matches, that the question
// names, in the order the question names them.
type mention struct {
	words  string // as the question wrote it: "industries"
	column string // the column matched; "" when none matches
	// asked: the words follow an ask word ("by month"), so they ask for a
	// split rather than mention the column in passing ("year over year").
	asked bool
}

// askWords start a phrase that names a dimension: "which industries",
// "by country", "per platform", "across regions".
var askWords = map[string]bool{"which": true, "by": true, "per": true, "across": true, "among": true, "each": true, "every": true}

// fillerWords may stand between an ask word and its noun.
var fillerWords = map[string]bool{"the": true, "a": true, "an": true, "all": true, "top": true, "its": true, "their": true,
	"our": true, "different": true, "various": true, "individual": true, "specific": true, "particular": true}

// notDimensions are words after an ask word that name no dimension:
// verbs, pronouns, amounts, generic nouns and time (the periods are the
// time already).
var notDimensions = wordSet(`is are was were be been has have had did do does drove drive drives caused cause causes
	explain explains explained made make led lead can could would should will may might it they this that these those
	one ones of how far much more less most least far what who where when why if to in on at for from with and or not no
	segment segments dimension dimensions group groups part parts factor factors driver drivers reason reasons thing things
	way ways area areas side sides percent percentage cent amount number numbers value values change changes
	board other others then now itself themselves
	day days week weeks month months quarter quarters year years date dates period periods time times hour hours`)

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// textWords splits text into lower-case words of letters and digits ("_"
// splits too, so a column customer_segment reads as two words).
func textWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// singular returns an English plural's singular: industries -> industry,
// boxes -> box, regions -> region; other words as they are.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// askedFor returns what text names: the columns (of names) it names by
// their words or plural, and the nouns after an ask word that match no
// column. Each column and noun once, in the order of the text.
func askedFor(text string, names []string) []mention {
	ws := textWords(text)
	sing := make([]string, len(ws))
	for i, w := range ws {
		sing[i] = singular(w)
	}
	var out []mention
	seen := map[string]bool{}
	covered := make([]bool, len(ws))
	for i := range ws {
		for _, name := range names {
			n := textWords(name)
			if len(n) == 0 || i+len(n) > len(ws) || seen[name] || !phraseAt(sing, ws, i, n) {
				continue
			}
			seen[name] = true
			out = append(out, mention{words: strings.Join(ws[i:i+len(n)], " "), column: name, asked: afterAsk(ws, i)})
			for k := i; k < i+len(n); k++ {
				covered[k] = true
			}
		}
	}
	for i, w := range ws {
		if !askWords[w] {
			continue
		}
		j := i + 1
		for j < len(ws) && fillerWords[ws[j]] {
			j++
		}
		if j == len(ws) || covered[j] || notDimensions[ws[j]] || notDimensions[sing[j]] || !isWord(ws[j]) || seen["?"+sing[j]] {
			continue
		}
		seen["?"+sing[j]] = true
		out = append(out, mention{words: ws[j], asked: true})
	}
	return sortMentions(out, ws)
}

// namedIn returns what the prompt names (askedFor), then what the
// business context asks for after an ask word: a context that says "we
// sell in 12 countries" describes the business, it does not ask for a
// split by country.
func namedIn(prompt, context string, names []string) []mention {
	out := askedFor(prompt, names)
	seen := map[string]bool{}
	for _, m := range out {
		seen[m.column+"|"+singular(m.words)] = true
	}
	for _, m := range askedFor(context, names) {
		if m.asked && !seen[m.column+"|"+singular(m.words)] {
			out = append(out, m)
		}
	}
	return out
}

// afterAsk reports whether the word at i follows an ask word, with only
// filler words between.
func afterAsk(ws []string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch {
		case askWords[ws[j]]:
			return true
		case !fillerWords[ws[j]]:
			return false
		}
	}
	return false
}

// phraseAt reports whether the words n (a column name's) stand at i,
// each as written or, for the last, as its plural.
func phraseAt(sing, ws []string, i int, n []string) bool {
	for k, w := range n {
		if ws[i+k] != w && !(k == len(n)-1 && sing[i+k] == singular(w)) {
			return false
		}
	}
	return true
}

// isWord is true for a word with a letter in it that is not a number.
func isWord(w string) bool {
	return len(w) > 1 && strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// sortMentions orders mentions by where their words first stand.
func sortMentions(ms []mention, ws []string) []mention {
	at := func(m mention) int {
		first := strings.Fields(m.words)[0]
		for i, w := range ws {
			if w == first {
				return i
			}
		}
		return len(ws)
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && at(ms[j]) < at(ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
	return ms
}
