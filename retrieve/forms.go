package retrieve

// Forms of a word that a stemmer does not relate to it: irregular
// plurals ("lives": life, "indices": index), irregular verbs ("written",
// "wrote": write) and the months' abbreviations ("January": Jan, as
// tables and lists of dates write them). A question in one form and a
// document in another ask and say the same: Lemma gives the one form both
// are compared in, Spellings the forms a search looks for.

// irregularForms are forms with the word they are a form of.
var irregularForms = map[string]string{
	// plurals
	"lives": "life", "leaves": "leaf", "halves": "half", "knives": "knife", "wives": "wife", "shelves": "shelf",
	"wolves": "wolf", "selves": "self", "children": "child", "men": "man", "women": "woman", "feet": "foot",
	"teeth": "tooth", "mice": "mouse", "geese": "goose", "people": "person", "indices": "index",
	"matrices": "matrix", "vertices": "vertex", "appendices": "appendix", "analyses": "analysis", "axes": "axis",
	"crises": "crisis", "theses": "thesis", "hypotheses": "hypothesis", "criteria": "criterion",
	"phenomena": "phenomenon", "radii": "radius", "nuclei": "nucleus", "foci": "focus", "stimuli": "stimulus",
	"corpora": "corpus", "schemata": "schema", "loci": "locus",
	// verbs
	"wrote": "write", "written": "write", "chose": "choose", "chosen": "choose", "drew": "draw", "drawn": "draw",
	"gave": "give", "given": "give", "took": "take", "taken": "take", "made": "make", "ran": "run",
	"began": "begin", "begun": "begin", "broke": "break", "broken": "break", "froze": "freeze", "frozen": "freeze",
	"hid": "hide", "hidden": "hide", "spoke": "speak", "spoken": "speak", "threw": "throw", "thrown": "throw",
	"grew": "grow", "grown": "grow", "knew": "know", "known": "know", "shown": "show", "saw": "see", "seen": "see",
	"went": "go", "gone": "go", "found": "find", "held": "hold", "kept": "keep", "lost": "lose", "meant": "mean",
	"sent": "send", "spent": "spend", "told": "tell", "thought": "think", "brought": "bring", "bought": "buy",
	"caught": "catch", "taught": "teach", "sold": "sell", "stood": "stand", "understood": "understand",
	"led": "lead", "fell": "fall", "fallen": "fall", "rose": "rise", "risen": "rise", "built": "build",
	"dealt": "deal", "felt": "feel", "paid": "pay", "laid": "lay", "said": "say", "got": "get", "gotten": "get",
	"forgot": "forget", "forgotten": "forget", "bound": "bind", "wound": "wind", "sought": "seek", "struck": "strike",
	"swore": "swear", "sworn": "swear", "tore": "tear", "torn": "tear", "wore": "wear", "worn": "wear",
	// months ("May" is a verb as often)
	"january": "jan", "february": "feb", "march": "mar", "april": "apr", "june": "jun", "july": "jul",
	"august": "aug", "september": "sep", "sept": "sep", "october": "oct", "november": "nov", "december": "dec",
}

// formsOf are irregularForms the other way: a word's other forms.
var formsOf = func() map[string][]string {
	m := map[string][]string{}
	for f, w := range irregularForms {
		m[w] = append(m[w], f)
	}
	return m
}()

// Lemma returns w, a lower-case word, in the form it is compared in: as
// American English spells it, an irregular form as the word it is a form
// of ("lives" life, "written" write, "january" jan), a name of letters
// and digits with the digits OCR confuses with letters read as those
// ("od1" odl: ocr.go).
func Lemma(w string) string {
	w = ocrFold(American(w))
	if l, ok := irregularForms[w]; ok {
		return l
	}
	return w
}

// otherForms returns the forms of w's word other than w: its lemma and
// the lemma's other irregular forms ("january": jan; "jan": january;
// "wrote": write, written).
func otherForms(w string) []string {
	l, ok := irregularForms[w]
	if !ok {
		l = w
	}
	var out []string
	if l != w {
		out = append(out, l)
	}
	for _, f := range formsOf[l] {
		if f != w {
			out = append(out, f)
		}
	}
	return out
}
