package retrieve

import "strings"

// British and American English spell many words of manuals apart
// (colour, centre, licence, optimise, analyse, catalogue, grey, labelled,
// anticlockwise): a question in one and a document in the other ask and
// say the same. American gives one spelling both are compared in; Spellings
// the forms a search looks for.

// britishWords are spellings no rule below makes, with their American
// forms.
var britishWords = map[string]string{
	"licence": "license", "licences": "licenses", "defence": "defense", "offence": "offense",
	"grey": "gray", "greys": "grays", "greyed": "grayed", "greyscale": "grayscale",
	"programme": "program", "programmes": "programs", "aluminium": "aluminum", "tyre": "tire", "tyres": "tires",
	"anticlockwise": "counterclockwise", "labelled": "labeled", "labelling": "labeling", "modelled": "modeled",
	"modelling": "modeling", "travelled": "traveled", "travelling": "traveling", "cancelled": "canceled",
	"cancelling": "canceling", "signalled": "signaled", "signalling": "signaling", "levelled": "leveled",
	"fuelled": "fueled", "channelled": "channeled", "tunnelling": "tunneling", "marshalling": "marshaling",
	"judgement": "judgment", "acknowledgement": "acknowledgment", "plough": "plow", "mould": "mold",
	"catalogue": "catalog", "catalogues": "catalogs", "dialogue": "dialog", "dialogues": "dialogs",
	"analogue": "analog", "centred": "centered", "centring": "centering",
}

// americanWords are britishWords the other way.
var americanWords = func() map[string]string {
	m := map[string]string{}
	for b, a := range britishWords {
		m[a] = b
	}
	return m
}()

// British endings and their American forms, for words long enough that
// the ending is a suffix ("colour", not "four"; "optimise", not "rise").
var spellingRules = []struct {
	british, american string
	min               int // the least length of a British word the rule applies to
}{
	{"our", "or", 6}, {"ours", "ors", 7}, {"oured", "ored", 8}, {"ouring", "oring", 9}, {"ourful", "orful", 9},
	{"tre", "ter", 5}, {"tres", "ters", 6}, {"bre", "ber", 5},
	{"ise", "ize", 7}, {"ised", "ized", 8}, {"ises", "izes", 8}, {"ising", "izing", 9}, {"iser", "izer", 8},
	{"isers", "izers", 9}, {"isation", "ization", 9}, {"isations", "izations", 10},
	{"yse", "yze", 6}, {"ysed", "yzed", 7}, {"ysing", "yzing", 8}, {"yser", "yzer", 7},
}

// American returns w, a lower-case word, as American English spells it:
// "colour" color, "centre" center, "optimise" optimize, "licence"
// license. A word that is no British spelling is returned as it is.
func American(w string) string {
	if a, ok := britishWords[w]; ok {
		return a
	}
	for _, r := range spellingRules {
		if len(w) >= r.min && strings.HasSuffix(w, r.british) && !strings.HasSuffix(w, "o"+r.british) && !notIse(w, r.british) {
			return strings.TrimSuffix(w, r.british) + r.american
		}
	}
	return w
}

// iseWords end in "ise" in both Englishes: precise, otherwise, promise,
// enterprise, advertise, revise, noise, merchandise, franchise.
var iseWords = []string{"cise", "wise", "prise", "omise", "emise", "vise", "ertise", "andise", "adise", "oise", "chise", "ercise"}

// notIse reports whether w's "ise" (british, with an ending after it) is
// no British spelling of "ize".
func notIse(w, british string) bool {
	if !strings.HasPrefix(british, "is") {
		return false
	}
	stem := strings.TrimSuffix(w, british) + "ise"
	for _, e := range iseWords {
		if strings.HasSuffix(stem, e) {
			return true
		}
	}
	return false
}

// Spellings returns w and the word in the other English's spelling when
// it has one: "colour" and "color", "color" and "colour". The other form
// may be no word at all ("motour"), which a search simply does not find.
// Its irregular forms follow (forms.go): "january" and "jan", "lives"
// and "life"; then the verbs a noun may be made of ("creation": create;
// nominal.go); then, for a name of letters and digits, the forms OCR may
// read it in ("od1": odl, 0d1; ocr.go).
func Spellings(w string) []string {
	return append(append(append(spellings(w), otherForms(w)...), VerbForms(w)...), ocrForms(w)...)
}

func spellings(w string) []string {
	if a := American(w); a != w {
		return []string{w, a}
	}
	if b, ok := americanWords[w]; ok {
		return []string{w, b}
	}
	for _, r := range spellingRules {
		if b := strings.TrimSuffix(w, r.american) + r.british; strings.HasSuffix(w, r.american) && len(b) >= r.min && American(b) == w {
			return []string{w, b}
		}
	}
	return []string{w}
}
