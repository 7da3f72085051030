package retrieve

import "strings"

// A question may name an action by its noun where a manual says the verb:
// "the installation of a font" and "install a font", "a description of
// each option" and "describes each option". Porter's stemmer, which the
// index uses, relates some of them (installation, install) but not
// others (creation, create; definition, define; specification, specify).
// VerbForms gives the verbs a noun may be made of, which a
// search looks for when the room lacks the noun (agent/ask).

// nominalRules make a noun's verbs: the noun's ending, what takes its
// place, and how long the rest must be.
var nominalRules = []struct {
	suffix string
	verbs  []string
	min    int
}{
	{"scription", []string{"scribe"}, 1},   // description: describe
	{"ication", []string{"y"}, 3},          // specification: specify
	{"ation", []string{"ate", "e", ""}, 3}, // creation: create; configuration: configure; installation: install
	{"ition", []string{"e", ""}, 3},        // definition: define; addition: add
	{"ssion", []string{"ss"}, 3},           // compression: compress
	{"tion", []string{"t", "te"}, 4},       // selection: select; deletion: delete
}

// VerbForms returns the verbs w, a lower-case noun, may be made of, nil
// when it has no noun's ending. Some are no words ("selecte" of
// "selection"), which a search does not find.
func VerbForms(w string) []string {
	for _, r := range nominalRules {
		stem, ok := strings.CutSuffix(w, r.suffix)
		if !ok || len(stem) < r.min {
			continue
		}
		var out []string
		for _, v := range r.verbs {
			if f := stem + v; f != w {
				out = append(out, f)
			}
		}
		return out
	}
	return nil
}
