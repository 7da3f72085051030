package ask

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/room"
)

// TestHeadOf: the thing a question asks for, which a passage that answers
// must name.
func TestHeadOf(t *testing.T) {
	for q, want := range map[string]string{
		"What was the revenue of Harbor Components in 2023?": "revenue",
		"What is the default block size of bzip2?":           "size",
		"Which version of fontconfig added emoji?":           "version",
		"How many packages were in Debian 1.3?":              "packages",
		"How much memory does bunzip2 need?":                 "memory",
		"What is the maximum number of lights in a scene?":   "maximum",
		"What does the -k flag do?":                          "",
		"Who wrote bzip2?":                                   "",
		"Is the Z-200 heavier than the Z-100?":               "",
		"Which mcpp option turns on trigraph processing?":    "",
		"What integer value signals that AMD ran out?":       "",
		"Which kinds of decay give a Q-value?":               "",
		"Which frame mesh turns on the fine sieve?":          "mesh",
	} {
		if got := headOf(q); got != want {
			t.Errorf("headOf(%q) = %q; want %q", q, got, want)
		}
	}
}

// TestFocus: words the room never uses refuse a question when they are
// what it asks about (a name, a code, the thing asked for, a noun), not
// when they are only how it is put; a year asked about must be there.
func TestFocus(t *testing.T) {
	r := &Rarity{Passages: 40, Chunks: map[string]int{"nettle": 30, "implement": 3, "dilithium": 0, "speed": 2, "biggest": 0,
		"unpacking": 0, "check": 4, "file": 12, "emoji": 0, "color": 2, "fonts": 9, "version": 5, "added": 3, "leader": 4, "2010": 2, "tallow": 3, "author": 0, "compatible": 0, "diesel": 2}}
	for _, c := range []struct {
		question, absent, strong, soft string
	}{
		{"Does Nettle implement Dilithium?", "dilithium", "", "implement"},
		{"What is the biggest speed of the Z-200?", "", "speed 200", ""},
		{"How do I check a file without unpacking it?", "", "", "check without"},
		{"Which version of fontconfig added color emoji fonts?", "emoji", "version", "fontconfig added color fonts"},
		{"Who was the project leader in 2010?", "", "2010", "project leader"},
		// "author" asks for a name, which a cover gives without the word.
		{"Who is the author of Tallow?", "", "tallow", ""},
		// Whether one thing goes with another is how it is asked: the
		// passage says "works with".
		{"Is the Z-200 compatible with diesel?", "", "200", "diesel"},
	} {
		content := contentWords(parseQuestion(c.question))
		absent, strong, soft := focus(c.question, content, r, nil)
		if got := strings.Join(absent, " "); got != c.absent {
			t.Errorf("%q: absent %q; want %q", c.question, got, c.absent)
		}
		if got := strings.Join(strong, " "); got != c.strong {
			t.Errorf("%q: strong %q; want %q", c.question, got, c.strong)
		}
		if got := strings.Join(soft, " "); got != c.soft {
			t.Errorf("%q: soft %q; want %q", c.question, got, c.soft)
		}
	}
}

// TestQuestionVerbs: the words in a verb's place, which a passage may say
// otherwise.
func TestQuestionVerbs(t *testing.T) {
	for q, want := range map[string]string{
		"Who fixed the problem of a booktabs rule at a page break?": "fixed",
		"What arguments does specialrule take?":                     "take",
		"How can I put a footnote in a section title?":              "put",
		"Which option hides the markup and shows only the text?":    "hides shows",
		"What is the default block size of bzip2?":                  "",
		"Who is the author of enumitem?":                            "",
		"Can begin{comment} share a line with other text?":          "share",
		"Is there a way to hide all the notes?":                     "hide",
		"How to turn off the list?":                                 "turn",
		"What is the path to the file?":                             "",
		"How many packages were in Debian 1.3?":                     "",
		"Which runtest option produces XML output?":                 "produces",
		"Which mcpp option turns on trigraph processing?":           "turns",
		"Which Stata versions can read.dta handle?":                 "handle",
		"What file extensions do Systat files have?":                "have",
		"What kinds of fog can Tachyon render?":                     "render",
	} {
		var got []string
		for w := range questionVerbs(q) {
			got = append(got, w)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != want {
			t.Errorf("questionVerbs(%q) = %q; want %q", q, got, want)
		}
	}
}

// TestUnitsOfACodeListing: a listing's lines are quoted one by one, the
// chunk's first line too (it has lost its indent to the chunker, and is
// no term with a description below it).
func TestUnitsOfACodeListing(t *testing.T) {
	text := "5 \\newdimen\\heavyrulewidth\n                     6 \\newdimen\\lightrulewidth\n                     16 \\lightrulewidth=.05em"
	var got []string
	for _, u := range units(text) {
		got = append(got, u.text)
	}
	want := []string{`5 \newdimen\heavyrulewidth`, `6 \newdimen\lightrulewidth`, `16 \lightrulewidth=.05em`}
	if !slices.Equal(got, want) {
		t.Errorf("units(listing) = %q; want %q", got, want)
	}
}

// TestExtractKeepsToTheDocumentNamed: a question that names a document
// ("the comment package") is not answered by another document's passage
// that does not name it, nor is a name asked about ("ConTeXt") found in a
// word that only starts like it ("contents").
func TestExtractKeepsToTheDocumentNamed(t *testing.T) {
	chunk := func(text string) []room.ChunkHit {
		return []room.ChunkHit{{Chunk: room.Chunk{ID: text[:8], Text: text}}}
	}
	pages := []PageHit{
		{DocumentID: "b", DocumentName: "booktabs.pdf", PageNumber: 1, Score: 1,
			Chunks: chunk("Guidelines are given as to what constitutes a good table in this context, and ConTeXt is supported too.")},
		{DocumentID: "c", DocumentName: "comment.pdf", PageNumber: 4, Score: 0.8,
			Chunks: chunk("The contents of a comment are discarded. Trailing contents on the begin line are supported.")},
	}
	r := &Rarity{Passages: 20, Chunks: map[string]int{"comment": 3, "package": 6, "support": 2, "context": 1}}
	if a := Extract("Does the comment package support ConTeXt?", pages, 2, r); a.Type != room.AnswerInsufficient {
		t.Errorf("Extract = %s %q; want insufficient evidence", a.Type, a.Text)
	}
	if a := Extract("Does booktabs support ConTeXt?", pages, 2, r); a.Type != room.AnswerGrounded || !strings.Contains(a.Text, "ConTeXt is supported") {
		t.Errorf("Extract = %s %q; want the booktabs line", a.Type, a.Text)
	}
}

// TestMissingReadsCamelCase: a command's name holds the words a question
// says ("grid" in \TPShowGrid, "merge" in pyMergeChanges.py).
func TestMissingReadsCamelCase(t *testing.T) {
	text := `- Add the \TPShowGrid macro. Run python pyMergeChanges.py to accept them.`
	if got := missing([]string{"grid", "merge", "macro"}, text); len(got) != 0 {
		t.Errorf("missing(grid merge macro) = %q; want none", got)
	}
	if got := missing([]string{"colour"}, text); !slices.Equal(got, []string{"colour"}) {
		t.Errorf("missing(colour) = %q; want colour", got)
	}
}

// TestExtractReadsBelowTheFirstPages: the page that answers may rank
// seventh behind pages that share the question's commoner words.
func TestExtractReadsBelowTheFirstPages(t *testing.T) {
	var pages []PageHit
	for i := 1; i <= 6; i++ {
		pages = append(pages, PageHit{DocumentID: "t", DocumentName: "todo.pdf", PageNumber: i, Score: 1,
			Chunks: []room.ChunkHit{{Chunk: room.Chunk{ID: fmt.Sprint("c", i), Text: "A package option may remove notes from the document."}}}})
	}
	pages = append(pages, PageHit{DocumentID: "t", DocumentName: "todo.pdf", PageNumber: 9, Score: 0.5,
		Chunks: []room.ChunkHit{{Chunk: room.Chunk{ID: "c9", Text: "The disable option of the package removes every inserted note from the document."}}}})
	r := &Rarity{Passages: 40, Chunks: map[string]int{"package": 20, "option": 12, "notes": 9, "document": 20, "disable": 2, "inserted": 3}}
	a := Extract("Which package option removes all the inserted notes?", pages, 1, r)
	if a.Type != room.AnswerGrounded || len(a.Citations) == 0 || a.Citations[0].PageNumber != 9 {
		t.Errorf("Extract = %s %q %+v; want page 9 cited first", a.Type, a.Text, a.Citations)
	}
}

// TestPageFurnitureIsNoAnswer: a contents entry with dot leaders and a
// running footer are never quoted.
func TestPageFurnitureIsNoAnswer(t *testing.T) {
	text := "Contents\nE.1 Model description written in MathProg . . . . . . . . . . . 70\n" +
		"B.3 Table drivers.......................... 61\n\n" +
		"The table driver is a program module which transmits data between a model and a table.\n" +
		"The changes-package Page 15 von 34\n- 12 -\n\n" +
		"Next: Common Options, Previous: Output States, Up: Running the tests [Contents][Index]"
	for _, u := range units(text) {
		if strings.Contains(u.text, ". . .") || strings.Contains(u.text, "....") || strings.Contains(u.text, "Page 15") || u.text == "- 12 -" || strings.Contains(u.text, "Next:") {
			t.Errorf("units quote %q; want page furniture left out", u.text)
		}
	}
	if us := units(text); len(us) == 0 || !strings.HasPrefix(us[0].text, "The table driver") {
		t.Errorf("units = %+v; want the sentence about the table driver", us)
	}
}

// TestLabelled: a table's row is read with its header, cell under cell,
// so that the row says what each of its numbers is; where the row has
// fewer cells than the header, by where they stand.
func TestLabelled(t *testing.T) {
	for _, c := range []struct{ header, row, want string }{
		{"Level   Block size   Time (s)", "-5      500k         6.8", "Level -5; Block size 500k; Time (s) 6.8"},
		{"Name        Jan      Feb      Mar", "widgets              12       15", "Name widgets; Feb 12; Mar 15"},
		{"Name        Total", "widgets     12       15", "Name widgets; Total 12; 15"},
		{"Total", "12       15", "12 15"},
	} {
		if got := labelled(cellsOf(c.header), cellsOf(c.row)); got != c.want {
			t.Errorf("labelled(%q, %q) = %q; want %q", c.header, c.row, got, c.want)
		}
	}
}

// TestUnitsReadRowsWithTheirHeader: a row under a header (and its
// underline) is quoted with the header's labels; a blank line ends the
// table.
func TestUnitsReadRowsWithTheirHeader(t *testing.T) {
	text := "Level   Block size   Time (s)\n-----   ----------   --------\n-1      100k         4.1\n-9      900k         9.7\n\nLevel -9 is the default."
	var got []string
	for _, u := range units(text) {
		got = append(got, u.text)
	}
	want := []string{"Level -1; Block size 100k; Time (s) 4.1", "Level -9; Block size 900k; Time (s) 9.7", "Level -9 is the default."}
	if !slices.Equal(got, want) {
		t.Errorf("units(%q) = %q; want %q", text, got, want)
	}
}

// TestClipAround: a long quote is cut around the question's words and
// the kind of answer asked for, not from its start.
func TestClipAround(t *testing.T) {
	long := strings.Repeat("This sentence is context that says nothing about the question at all. ", 6) + "The kern between rules defaults to 0.5 em."
	got := clipAround(long, 120, []string{"kern", "default"}, nil, wants{amount: true})
	if !strings.Contains(got, "defaults to 0.5 em") || !strings.HasPrefix(got, "…") || len(got) > 130 {
		t.Errorf("clipAround(...) = %q; want the end with 0.5 em, marked as cut", got)
	}
	if got := clipAround("short", 120, nil, nil, wants{}); got != "short" {
		t.Errorf("clipAround(short) = %q", got)
	}
}

// TestSentencesEndAtANoteMark: a footnote's mark after a full stop ends
// the sentence ("wrong.7 There"), and states no amount; a version's
// number does neither.
func TestSentencesEndAtANoteMark(t *testing.T) {
	got := sentences("Hyphenation may be wrong.7 There was a reason for this. It is v1.5 Fine.")
	want := []string{"Hyphenation may be wrong.7", "There was a reason for this.", "It is v1.5 Fine."}
	if !slices.Equal(got, want) {
		t.Errorf("sentences(...) = %q; want %q", got, want)
	}
	if hasAmount("Hyphenation may be wrong.7") {
		t.Errorf("hasAmount(a note's mark) = true; want false")
	}
	if !hasAmount("The default is 7 mm.") {
		t.Errorf("hasAmount(7 mm) = false; want true")
	}
}

// TestWantsAName: a question asks for a name when it asks who, or for the
// author of something; "the author's identification" is no person.
func TestWantsAName(t *testing.T) {
	for q, want := range map[string]bool{
		"Who wrote booktabs?":                                     true,
		"What is the name of the maintainer?":                     true,
		"Which developers worked on it?":                          true,
		"Was it written by a student?":                            true,
		"What is the author of tallow?":                           true,
		"Where is the author's identification placed by default?": false,
		"How do I change the authors list style?":                 false,
	} {
		if got := wantOf(q).name; got != want {
			t.Errorf("wantOf(%q).name = %v; want %v", q, got, want)
		}
	}
}

// TestMissingReadsAVerbsForms: "added" is in "Add the grid macro" (the
// stemmer makes "ad" of one and "add" of the other), "stopped" in "stop",
// "creation" in "create".
func TestMissingReadsAVerbsForms(t *testing.T) {
	for _, c := range []struct{ word, text string }{
		{"added", "Add the grid macro."},
		{"stopped", "The run will stop here."},
		{"adding", "It adds a rule."},
		// a noun made of a verb, which the stemmer does not relate
		{"creation", "Run init to create the ledger."},
		{"specification", "The manual specifies the syntax."},
		{"definition", "Each macro is defined once."},
		{"description", "The file is described in section 5."},
		{"compressor", "It compresses the archive."},
	} {
		if got := missing([]string{c.word}, c.text); len(got) > 0 {
			t.Errorf("missing(%q, %q) = %q; want none", c.word, c.text, got)
		}
	}
	if got := missing([]string{"grid"}, "Add the frame macro."); len(got) != 1 {
		t.Errorf("missing(grid, frame) = %q; want grid", got)
	}
	if got := missing([]string{"configure"}, "The feature is new."); len(got) != 1 {
		t.Errorf("missing(configure, feature) = %q; want configure", got)
	}
}

// TestADocumentNamedAsOneIsTheOneThatAnswers: "the quill package" asks
// about quill's document; another that uses the word ("a quill pen")
// does not answer, though it says it and ranks first.
func TestADocumentNamedAsOneIsTheOneThatAnswers(t *testing.T) {
	hit := func(doc, text string) PageHit {
		return PageHit{DocumentID: doc, DocumentName: doc, PageNumber: 1, Score: 1,
			Chunks: []room.ChunkHit{{Chunk: room.Chunk{ID: doc, Text: text}, DocumentName: doc}}}
	}
	pages := []PageHit{
		hit("inkwell-guide.txt", "A quill pen needs sharpening with a knife every hour."),
		hit("quill-manual.txt", "Blocks need sharpening with the -s flag."),
	}
	a := Extract("How do I do the sharpening with the quill package?", pages, 2, nil)
	if a.Type != room.AnswerGrounded || a.Citations[0].DocumentName != "quill-manual.txt" {
		t.Errorf("Extract = %s %q; want quill-manual.txt cited first", a.Type, a.Text)
	}
}

// TestATableHeaderOfYearsLabelsItsRows: a header of years labels the
// amounts under them; a blank line between a header and its rows keeps
// it; a row of plain numbers is no header.
func TestATableHeaderOfYearsLabelsItsRows(t *testing.T) {
	text := "Item            2022      2023\n\nRevenue          812       905\nProse ends the table.\n\nSize    N=100    N=1000\n7       9        11\nProse again.\n\n5       6        8\n7       9        11"
	var got []string
	for _, u := range units(text) {
		got = append(got, u.text)
	}
	want := []string{"Item Revenue; 2022 812; 2023 905", "Prose ends the table.", "Size 7; N=100 9; N=1000 11", "Prose again.", "5 6 8", "7 9 11"}
	if !slices.Equal(got, want) {
		t.Errorf("units(%q) = %q; want %q", text, got, want)
	}
}

// TestAGroupLabelKeepsItsTable: a label alone between a table's rows
// ("Times") keeps the header for the rows below, and sets their scene.
func TestAGroupLabelKeepsItsTable(t *testing.T) {
	text := "Unit      Normal     Bold\nLengths\n\\nm       1.0 nm     1.0 nm\nTimes\n\\ns       1.0 ns     1.0 ns\nThe end of it all."
	us := units(text)
	var got []string
	for _, u := range us {
		got = append(got, u.text)
	}
	want := []string{"Unit \\nm; Normal 1.0 nm; Bold 1.0 nm", "Unit \\ns; Normal 1.0 ns; Bold 1.0 ns", "The end of it all."}
	if !slices.Equal(got, want) {
		t.Fatalf("units(%q) = %q; want %q", text, got, want)
	}
	if !strings.Contains(us[1].scene, "Times") {
		t.Errorf("scene of the second row %q; want its group, Times", us[1].scene)
	}
}

// TestScoreReadsACommandsCamelCase: a line naming \showGrid holds
// "show" and "grid", which a question asks in words.
func TestScoreReadsACommandsCamelCase(t *testing.T) {
	if got := score([]string{"show", "grid"}, nil, wants{}, `The macro \showGrid was added in 1.4.`, ""); got < 2 {
		t.Errorf("score = %v; want at least 2: both words are in the command's name", got)
	}
}

// TestContentsEntriesAreNoAnswer: a contents' entries, one or two side by
// side without dot leaders, are what a page shows of others.
func TestContentsEntriesAreNoAnswer(t *testing.T) {
	text := "Contents\n\n1 Licence and Requirements          1 5 Customization        3\n2 Usage 2\n\n1 Licence and Requirements\n\nThe package may be used under the terms of the LPPL version 1.3 or later.\n"
	for _, u := range units(text) {
		if strings.Contains(u.text, "Customization 3") || u.text == "2 Usage 2" {
			t.Errorf("units(%q) has %q; want no contents entry", text, u.text)
		}
	}
	for _, l := range []string{"4.2 Scaling 8", "1 Licence and Requirements 1", "2 News        1 References       5",
		"camera, 10                        scene description files, 9", "   maximum ray depth, 12", "lighting, 13-15"} {
		if !isContents(l) {
			t.Errorf("isContents(%q) = false; want true", l)
		}
	}
	for _, l := range []string{"Up to 112 atoms are drawn in 3", "The default is 30 minutes.", "16 \\heavyrulewidth=.08em",
		"Level 9 Time 5", "For example, 5"} {
		if isContents(l) {
			t.Errorf("isContents(%q) = true; want false", l)
		}
	}
}

// TestASizeAskedForIsAMeasure: "How big ...?" is answered first by the
// line that gives a number with its unit, not one with other numbers.
func TestASizeAskedForIsAMeasure(t *testing.T) {
	q := "How big is the nucleus circle by default?"
	content, k := contentWords(parseQuestion(q)), wantOf(q)
	options := score(content, nil, k, "nucleus-options = {tikz} Default: draw=black!80 The options of the circle around the nucleus.", "")
	radius := score(content, nil, k, "nucleus-radius = {dimension} Default: 1em The radius of the circle around the nucleus.", "")
	if radius <= options {
		t.Errorf("score of the radius %v, of the options %v; want the radius first", radius, options)
	}
}

// TestQuantifiersAndAdverbsAreHowAQuestionIsPut: "every", "each" and an
// adverb the room never uses ("automatically") ask nothing a passage must
// say: the focus is the rest.
func TestQuantifiersAndAdverbsAreHowAQuestionIsPut(t *testing.T) {
	r := &Rarity{Passages: 40, Chunks: map[string]int{"list": 3, "every": 0, "isotope": 2, "element": 9, "symbol": 4,
		"automatically": 0, "set": 5, "supply": 0}}
	for _, c := range []struct {
		question, absent, soft string
	}{
		{"How can I list every isotope of an element?", "", "isotope element"},
		{"Which option sets the symbol automatically?", "", "symbol"},
		{"What is the supply voltage?", "supply", "voltage"},
	} {
		content := contentWords(parseQuestion(c.question))
		absent, _, soft := focus(c.question, content, r, nil)
		soft = withoutVerbs(soft, questionVerbs(c.question))
		if got := strings.Join(absent, " "); got != c.absent {
			t.Errorf("%q: absent %q; want %q", c.question, got, c.absent)
		}
		if got := strings.Join(soft, " "); got != c.soft {
			t.Errorf("%q: soft %q; want %q", c.question, got, c.soft)
		}
	}
}

// TestACountIsANumberBeforeTheThingCounted: "How many glyphs ...?" is
// answered first by the line that puts its number before "glyphs", not
// by one with other numbers.
func TestACountIsANumberBeforeTheThingCounted(t *testing.T) {
	q := "How many glyphs do the fonts have?"
	content, k := contentWords(parseQuestion(q)), wantOf(q)
	other := score(content, nil, k, "The fonts are 12 pt, 100 dpi proportional fonts with many of the glyphs needed for text.", "")
	count := score(content, nil, k, "Together, the fonts contain approximately 7500 glyphs.", "")
	if count <= other {
		t.Errorf("score of the count %v, of the other line %v; want the count first", count, other)
	}
}

// TestGivesDefault: a line gives a default when it says its value, in
// words, by an assignment or under a table's "Default" column.
func TestGivesDefault(t *testing.T) {
	for u, want := range map[string]bool{
		"Name shape; Default ellipse; Values ellipse, box, circle": true,
		"The default is 0.5em.":                        true,
		"electron-radius = {dimension} Default: 1.5pt": true,
		"15 \\heavyrulewidth=.08em":                    true,
		"fontsize = 14":                                true,
		"This can be reduced with \\usepackage[textwidth=4cm]{todonotes}":        false,
		"\\setlist[enumerate]{labelsep=\\itemindent+2em] This allows loops.":     false,
		"textwidth textwidth=length sets the width of a todo item":               false,
		"\\begin{itemize}[label = \\textbullet, leftmargin = 2pc, labelsep = *]": false,
		"With enumitem you can set default values for every list.":               false,
		"The default settings are restored by holding the dial down.":            false,
		"Default filename is 'plot.dat', that the second argument overrides.":    true,
		"The default colour is green.":                                           true,
		"The default colour is not used for titles.":                             false,
		"electron-options-add = {tikz options} (initially empty)":                true,
		// a story's "at first" says no default
		"Initially, the box was the wrong size.": false,
	} {
		if got := givesDefault(u); got != want {
			t.Errorf("givesDefault(%q) = %v; want %v", u, got, want)
		}
	}
	// Only a question for a default's value needs one.
	for q, want := range map[string]bool{
		"What is the default width?":                           true,
		"How big is the nucleus by default?":                   true,
		"Where is the permanent default font path configured?": false,
		"How do I restore the default settings?":               false,
	} {
		if got := asksOf(q).fallback; got != want {
			t.Errorf("asksOf(%q).fallback = %v; want %v", q, got, want)
		}
	}
}

// TestAnswersWithoutAWordSaidInPassing: a passage answers without one of
// two soft words, or a third of them, that the question says in passing;
// not without the word that says which of a thing the passage has the
// question means.
func TestAnswersWithoutAWordSaidInPassing(t *testing.T) {
	for _, c := range []struct {
		question, soft, text string
		want                 bool
	}{
		{"How do I stop the reel writing its log to a file, for example when fishing?", "log example",
			"-nolog: do not write the log", true},
		{"Which code is assigned to external pointers?", "external pointers",
			"Pointers to functions have code 7.", false},
		{"Which code is assigned to external pointers?", "external pointers",
			"External pointers have code 22.", true},
		// "foreign" says which package, not which imports
		{"Which function in package foreign imports a Minitab worksheet?", "package foreign minitab worksheet",
			"The package's read.mtp imports a Minitab Portable Worksheet.", true},
		{"Which reel holds braided line?", "braided line", "The Tarn reel holds 120 m of line.", false},
	} {
		soft := strings.Fields(c.soft)
		if got := answers(nil, soft, modifiers(c.question), c.text); got != c.want {
			t.Errorf("answers(%q, %q) = %v; want %v", c.soft, c.text, got, c.want)
		}
	}
}

// TestMissingReadsIrregularForms: a passage says a question's word in
// another form a stemmer does not know: "1 Jan 1999" for January, a
// half-life for half-lives.
func TestMissingReadsIrregularForms(t *testing.T) {
	for _, c := range []struct{ word, text string }{
		{"january", "3124137600      32      # 1 Jan 1999"},
		{"lives", "The half-life is given in ps."},
		{"written", "Petra wrote the package in 2019."},
	} {
		if got := missing([]string{c.word}, c.text); len(got) > 0 {
			t.Errorf("missing(%q, %q) = %v; want none", c.word, c.text, got)
		}
	}
}

// TestAShortLineIsToldWithTheNext: a short sentence is quoted with the
// one after it in its paragraph, a term with the sentence that describes
// it; a line of code alone.
func TestAShortLineIsToldWithTheNext(t *testing.T) {
	for _, c := range []struct{ text, first, want string }{
		{"Random placement gives other layouts. It is asked for by setting start to rand.\n", "Random placement", "setting start to rand"},
		{"-D0, -D1\n\nIf you specify -D1, the shell stops at a breakpoint.\n", "-D0", "breakpoint"},
		{"4 \\ledgergap=.8ex\n5 \\ledgerskip=2pt\n", "4 \\ledgergap", ""},
	} {
		us := units(c.text)
		if len(us) == 0 || !strings.HasPrefix(us[0].text, c.first) {
			t.Fatalf("units(%q) = %+v; want %q first", c.text, us, c.first)
		}
		got := told(us[0].quote(wants{}), us[0].next)
		if c.want == "" && got != us[0].text || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("told(%q) = %q; want it with %q", us[0].text, got, c.want)
		}
	}
}

// TestVersionsOfAThingInThePlural: "versions 5 up to 12 of Stata" gives
// Stata's versions, as "Stata versions 13 and later" does.
func TestVersionsOfAThingInThePlural(t *testing.T) {
	a := asksOf("Which Stata versions can read.dta handle?")
	for _, u := range []string{"Files from versions 5 up to 12 of Stata can be read by read.dta.", "For Stata versions 13 and later see haven."} {
		if !a.held(u) || !a.versionOf(u, nil) {
			t.Errorf("held(%q) = %v, versionOf = %v; want both", u, a.held(u), a.versionOf(u, nil))
		}
	}
	if u := "Stata files are binary."; a.held(u) {
		t.Errorf("held(%q) = true; want false", u)
	}
}

// TestARowOfCellsApartByBarsIsARow: a table written with its cells apart
// by bars (a DOCX's or a web page's table, a CSV's rows) is read row by
// row with its header, not run together as one paragraph.
func TestARowOfCellsApartByBarsIsARow(t *testing.T) {
	text := "Name | Type | Default | Meaning\nambient | int | 35 | amount of ambient light\ndiffuse | int | 60 | diffuse reflected light\n"
	us := units(text)
	if len(us) != 2 || us[0].text != "Name ambient; Type int; Default 35; Meaning amount of ambient light" {
		t.Errorf("units(%q) = %+v; want each row with its header", text, us)
	}
}

// TestNamedThings: the things a question names by their kind, not a
// sort of them ("the example function") nor a document ("the Tachyon
// user's guide").
func TestNamedThings(t *testing.T) {
	for q, want := range map[string]string{
		"What uid does the www-data user have?":                           "www data",
		"What gid does the sudo group have?":                              "sudo",
		"With the marginal option, what is the default footnotemargin?":   "marginal",
		"Under which uid does the example function consider a user?":      "",
		"Which MPI implementations does the Tachyon user's guide prefer?": "",
		"Who wrote the comment package?":                                  "",
	} {
		if got := strings.Join(namedThings(q), " "); got != want {
			t.Errorf("namedThings(%q) = %q; want %q", q, got, want)
		}
	}
}

// TestAReferenceIsNoValue: a reference to a work, a section or a figure
// by number ("[1, 2]", "section 4.3") gives no number and no version; a
// range asked for is a number; a count is of the thing counted.
func TestAReferenceIsNoValue(t *testing.T) {
	for _, c := range []struct {
		question, line string
		want           bool
	}{
		{"Which version introduced the try/catch construct?", "The script contained unsafe constructs such as embedded C (section 4.3).", false},
		{"Which version introduced the try/catch construct?", "Version 2.9 introduced try/catch.", true},
		{"How many nonzeros does the factor have?", "It uses an algorithm [1, 2] to find a factor with fewer nonzeros.", false},
		{"How many nonzeros does the factor have?", "The factor has 1,204 nonzeros.", true},
		{"Which uid range does the policy reserve?", "The policy reserves ranges for these users.", false},
		{"Which uid range does the policy reserve?", "The policy reserves uids 100 to 999.", true},
		// A line that names what "How many ...?" counts holds the answer
		// only with a number of it near.
		{"How many FITS files can the library keep open?", "The routine opens the file and moves to the first image with NAXIS greater than 0.", false},
		{"How many FITS files can the library keep open?", "Up to 300 files may be open at once.", true},
		{"How many nested levels of macro rescans does it allow?", "RESCAN_LIMIT (Maximum number of nested levels of macro rescans) | 64", true},
		{"How many nonzeros does the factor have?", "The factor has fewer nonzeros; its size is 1.2e + 9n integers in all, n being 14.", false},
		{"How many entries does the Info array hold?", "#define AMD_INFO 20 /* size of Info array */", true},
	} {
		if got := asksOf(c.question).held(c.line); got != c.want {
			t.Errorf("asksOf(%q).held(%q) = %v; want %v", c.question, c.line, got, c.want)
		}
	}
	if m := markedWords("Which version introduced the try/catch construct?"); !m["try"] || !m["catch"] {
		t.Errorf("markedWords: %v; want try/catch marked as a name", m)
	}
}

// TestATermHoldsOnlyItsOwnParagraph: a list entry's term is quoted with
// the paragraph right under it, not with a later one that has lost its
// own term ("-D0, -D1 Start the debugger." is no part of --build).
func TestATermHoldsOnlyItsOwnParagraph(t *testing.T) {
	text := "--build [triplet]\n\nThe build machine's triplet.\n\n-D0, -D1 Start the internal debugger.\n\nOptions\n\nThese are the options.\n"
	var got []string
	for _, u := range units(text) {
		got = append(got, u.quote(wants{}))
	}
	want := []string{"--build [triplet]: The build machine's triplet.", "-D0, -D1 Start the internal debugger.", "These are the options."}
	if !slices.Equal(got, want) {
		t.Errorf("units quoted %q; want %q", got, want)
	}
}

// TestNamesCode: what a manual writes as code, and not the question's
// own words nor an escape in quotes.
func TestNamesCode(t *testing.T) {
	asked := map[string]bool{"which": true, "option": true, "sets": true, "the": true, "eol": true}
	for u, want := range map[string]bool{
		"cc -o myprog myprog.c -lloam -lm":          true,
		`the command is prefixed with "ch"`:         true,
		"use write.csv2 for appropriate defaults":   true,
		"set \\normalsize for the text":             true,
		"Programs must be linked with the library.": false,
		`for which use eol = "\r\n"`:                false,
		"e.g. the main program":                     false,
	} {
		if got := namesCode(u, asked); got != want {
			t.Errorf("namesCode(%q) = %v; want %v", u, got, want)
		}
	}
}

// TestCoverName: who wrote a document, on its cover: a name with its
// initials, the first of names side by side, before an address; not the
// title above them.
func TestCoverName(t *testing.T) {
	for cover, want := range map[string]string{
		"AMD User Guide\n      Patrick R. Amestoy*     Timothy A. Davis     Iain S. Duff\n\n     VERSION 2.4.6, May 4, 2016": "Patrick R. Amestoy*     Timothy A. Davis     Iain S. Duff",
		"Systemtap tutorial\n             Frank Ch. Eigler <fche@redhat.com>\n      February 28, 2023":                       "Frank Ch. Eigler <fche@redhat.com>",
		"CFITSIO Quick Start Guide\n        William Pence ∗\n\n      January 2003":                                           "William Pence ∗",
		"Kettle manual\n\nAda Moreno\n": "Ada Moreno",
	} {
		if got := coverName(cover); got != want {
			t.Errorf("coverName(%q) = %q; want %q", cover, got, want)
		}
	}
}

// TestTheThingAskedForRanksFirstThoughTheRoomIsAboutIt: "Which font ...?"
// in a room about fonts is answered by the line that names a font, not by
// one about labels that says no font.
func TestTheThingAskedForRanksFirstThoughTheRoomIsAboutIt(t *testing.T) {
	pages := []PageHit{
		{DocumentID: "g", DocumentName: "layout.pdf", PageNumber: 6, Score: 1, Chunks: []room.ChunkHit{{Chunk: room.Chunk{ID: "c6",
			Text: "By default, graphs draw boxes as circles labeled with their names."}}}},
		{DocumentID: "g", DocumentName: "layout.pdf", PageNumber: 10, Score: 0.9, Chunks: []room.ChunkHit{{Chunk: room.Chunk{ID: "c10",
			Text: "The typeface of labels is set by fontname; by default it is Times-Roman."}}}},
	}
	r := &Rarity{Passages: 40, Chunks: map[string]int{"font": 20, "labels": 6, "default": 8, "graphs": 10}}
	a := Extract("Which font do graphs use for labels by default?", pages, 1, r)
	if a.Type != room.AnswerGrounded || len(a.Citations) == 0 || a.Citations[0].PageNumber != 10 {
		t.Errorf("Extract = %s %q %+v; want page 10 cited first", a.Type, a.Text, a.Citations)
	}
}

// TestMissingReadsANamesParts: a name that underscores join holds the
// words a question says ("the error text": err_text), and a name the
// question joins is in a text that has its parts one after another.
func TestMissingReadsANamesParts(t *testing.T) {
	for _, c := range []struct {
		need []string
		text string
		want []string
	}{
		{[]string{"text"}, "void fits_get_errstatus(int status, char *err_text)", nil},
		{[]string{"config_hz"}, "Figure 4: Experimentally measuring CONFIG HZ.", nil},
		{[]string{"set_voltage"}, "set_\nvoltage(v) sets the voltage", nil},
		{[]string{"set_voltage"}, "the voltage you set", []string{"set_voltage"}},
	} {
		if got := missing(c.need, c.text); !slices.Equal(got, c.want) {
			t.Errorf("missing(%v, %q) = %v; want %v", c.need, c.text, got, c.want)
		}
	}
}

// TestANumericValueIsAnAmount: "the numeric value of" asks for a number,
// and "numeric" is how it is asked, not what a passage must say.
func TestANumericValueIsAnAmount(t *testing.T) {
	q := "What is the numeric value of COL_NOT_FOUND?"
	if !wantOf(q).amount {
		t.Errorf("wantOf(%q).amount = false; want true", q)
	}
	if got := contentWords(parseQuestion(q)); slices.Contains(got, "numeric") {
		t.Errorf("contentWords(%q) = %v; want no numeric", q, got)
	}
}

// TestACaptionIsNoAnswer: a figure's caption names what the lines around
// it show; they answer, it does not.
func TestACaptionIsNoAnswer(t *testing.T) {
	text := "# stap timer.stp\nratio 30:123 => CONFIG_HZ=243\n\nFigure 4: Experimentally measuring CONFIG HZ.\n\nTable 2.1 Pin functions of the board\n"
	for _, u := range units(text) {
		if strings.HasPrefix(u.text, "Figure") || strings.HasPrefix(u.text, "Table") {
			t.Errorf("units(%q) has %q; want no caption", text, u.text)
		}
	}
	if us := units(text); len(us) == 0 || !strings.Contains(us[0].text, "CONFIG_HZ=243") {
		t.Errorf("units(%q) = %v; want the line with CONFIG_HZ=243", text, us)
	}
}

// TestAsksList: a question for several things of a kind asks for a list;
// one for a thing, a count or a yes does not.
func TestAsksList(t *testing.T) {
	for q, want := range map[string]bool{
		"Which packages does R load at startup by default?": true,
		"What kinds of fog can Tachyon render?":             true,
		"In which file formats can surf save images?":       true,
		"What are the phases of a run?":                     true,
		"Which package handles the line spacing?":           false,
		"How many packages are loaded?":                     false,
		"What is the default colour?":                       false,
		"Does the ledger keep its settings?":                false,
		"In what increments do the files offer choices?":    false,
		"What packages are loaded?":                         true,
	} {
		if got := asksList(q); got != want {
			t.Errorf("asksList(%q) = %v; want %v", q, got, want)
		}
	}
	for u, want := range map[string]bool{
		"The formats are CSV, JSON and plain text.":        true,
		"It saves TIFF, PBM.":                              false,
		"surf can store black and white images.":           false,
		"Resistors : 560, 1k, 2.2k, 10k, 51k and 200 kOhm": true,
	} {
		if got := hasList(u); got != want {
			t.Errorf("hasList(%q) = %v; want %v", u, got, want)
		}
	}
}

// TestCarriedHeader: a page that starts with a table's rows carries the
// header of the table the page before ends in; a page that starts with
// prose, or follows one that ends in prose, carries none.
func TestCarriedHeader(t *testing.T) {
	prev := "Some prose.\n\n   Level    Pack    Unpack\n   -1       1100k   500k\n   -2       2000k   900k\n\n      7\n"
	for _, c := range []struct{ prev, page, want string }{
		{prev, "   -3       3800k   1700k\n", "   Level    Pack    Unpack"},
		{prev, "The level is chosen with -L.\n", ""},
		{"Some prose ends the page.\n", "   -3       3800k   1700k\n", ""},
		{prev, "   Level    Pack    Unpack\n   -3       3800k   1700k\n", ""},
	} {
		if got := CarriedHeader(c.prev, c.page); got != c.want {
			t.Errorf("CarriedHeader(%q, %q) = %q; want %q", c.prev, c.page, got, c.want)
		}
	}
}
