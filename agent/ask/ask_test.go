package ask_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/agent/ask"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/room"
	"github.com/quarry-dev/quarry/rooms"
	"github.com/quarry-dev/quarry/sqlite"
)

// acmeRoom is a room holding one small 10-K (testdata, written for these
// tests): a cover, an MD&A page that talks about the quick ratio at length
// without a number, and the three statements.
func acmeRoom(t *testing.T) (*rooms.Service, *room.Room, []room.Document) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "acme-widgets-2022-10k.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return oneDocumentRoom(t, nil, "acme-widgets-2022-10k.txt", f)
}

// oneDocumentRoom is a room of the local owner's holding one processed
// document, with chunks embedded by e when it is set.
func oneDocumentRoom(t *testing.T, e llm.Embedder, name string, r io.Reader) (*rooms.Service, *room.Room, []room.Document) {
	t.Helper()
	return roomOf(t, e, map[string]io.Reader{name: r}, name)
}

// roomOf is a room of the local owner's holding the documents (read from
// files, uploaded in the order of names) processed, with chunks embedded
// by e when it is set.
func roomOf(t *testing.T, e llm.Embedder, files map[string]io.Reader, names ...string) (*rooms.Service, *room.Room, []room.Document) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.OpenRooms(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := rooms.New(rooms.Config{Store: st, Dir: t.TempDir(), Embedder: e, EmbeddingModel: "concepts"})
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	rm, err := svc.CreateRoom(ctx, owner.ID, "deal", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		d, err := svc.Upload(ctx, owner.ID, rm.ID, name, files[name])
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Process(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
	}
	docs, err := svc.Documents(ctx, owner.ID, rm.ID)
	if err != nil {
		t.Fatal(err)
	}
	return svc, rm, docs
}

func TestRetrieveLiftsTheStatementAQuestionNeeds(t *testing.T) {
	svc, r, docs := acmeRoom(t)
	if docs[0].Meta.Company == "" || len(docs[0].Meta.Years) == 0 || docs[0].Meta.Years[0] != 2022 {
		t.Fatalf("metadata %+v: want Acme's 2022 filing", docs[0].Meta)
	}
	for _, c := range []struct {
		question string
		page     int
	}{
		// The MD&A page names the quick ratio; the numbers for it are on
		// the balance sheet.
		{"What was Acme Widgets' quick ratio at the end of FY2022?", 4},
		{"How much capex did Acme Widgets spend in FY2022?", 5},
		// The MD&A page says "inventories" three times, the balance sheet
		// once.
		{"How large were Acme Widgets' inventories at the end of FY2022?", 4},
		{"Has Acme Widgets' gross margin improved between FY2021 and FY2022?", 3},
	} {
		// Documents processed before their statements' pages were
		// recorded are searched for them by title instead.
		unread := slices.Clone(docs)
		unread[0].Meta.Statements = nil
		for _, ds := range [][]room.Document{docs, unread} {
			pages, err := ask.Retrieve(context.Background(), svc.Store, ask.Request{RoomID: r.ID, Docs: ds, Question: c.question, K: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) == 0 || pages[0].PageNumber != c.page {
				t.Errorf("%q (statements recorded: %v): pages %v, want page %d first", c.question, ds[0].Meta.Statements != nil, pageNumbers(pages), c.page)
			}
		}
	}
}

func TestRetrieveWithoutAStatementRanksByWords(t *testing.T) {
	svc, r, docs := acmeRoom(t)
	pages, err := ask.Retrieve(context.Background(), svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: "What does Acme Widgets say about its revolving credit facility?", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 || pages[0].PageNumber != 2 {
		t.Errorf("pages %v, want page 2 first", pageNumbers(pages))
	}
}

func pageNumbers(ps []ask.PageHit) []int {
	var out []int
	for _, p := range ps {
		out = append(out, p.PageNumber)
	}
	return out
}

func TestAskFindsRevenueWhereTheFilingSaysNetSales(t *testing.T) {
	svc, r, _ := acmeRoom(t)
	owner, err := svc.EnsureUser(context.Background(), "owner")
	if err != nil {
		t.Fatal(err)
	}
	q, err := svc.Ask(context.Background(), owner.ID, r.ID, "What was the revenue in FY2022?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerGrounded || !strings.Contains(q.Answer, "5,000") || len(q.Citations) == 0 || q.Citations[0].PageNumber != 3 {
		t.Fatalf("answer %q (%s), citations %+v: want net sales of 5,000 from page 3", q.Answer, q.AnswerType, q.Citations)
	}
}

// A question naming an issuer is searched within its documents and, when
// they are not filings that name their trading symbols, across the room
// too: here the answer is in a memo that routing cannot know is about
// Acme. It ranks after the issuer's own pages, but it is found.
func TestRetrieveKeepsARoomWideNetBesideRouting(t *testing.T) {
	svc, r, _ := acmeRoom(t)
	ctx := context.Background()
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	memo := "BOARD MINUTES, MARCH 2023\nThe directors approved closing the Ohio plant of the widget business by the end of 2023, with severance for its 140 employees.\n"
	d, err := svc.Upload(ctx, owner.ID, r.ID, "board-minutes.txt", strings.NewReader(memo))
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Process(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	docs, err := svc.Documents(ctx, owner.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := ask.Retrieve(ctx, svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: "Did Acme Widgets decide to close its Ohio plant?", K: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(pages, func(p ask.PageHit) bool { return p.DocumentName == "board-minutes.txt" }) {
		t.Fatalf("pages %v: want the board minutes among them", pageNames(pages))
	}
}

func pageNames(ps []ask.PageHit) []string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s#%d", p.DocumentName, p.PageNumber))
	}
	return out
}

// TestTheAnswerComesFirst: the offline answer's first line is the
// sentence, table row or list item that answers, of the kind the question
// asks for ("It cost $12.5 million" after the sentence naming the centre),
// and a question whose focus the room never uses is refused, however it
// is put.
func TestTheAnswerComesFirst(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "zorblax-manual.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	svc, r, _ := oneDocumentRoom(t, nil, "zorblax-manual.txt", f)
	ctx := context.Background()
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ question, first string }{
		{"How much did the Reno test centre cost?", "$12.5 million"},
		{"What is the power of the Z-200 in kW?", "Model Z-200; Bore (mm) 86; Stroke (mm) 94; Power (kW) 145"},
		{"Who designed the Zorblax engine?", "Mira Tan"},
		{"How often should the oil be changed?", "every 250 hours"},
		{"How long does the warranty last?", "three years"},
		{"What is the maximum speed of the Z-200?", "6,800 rpm"},
		// Put in other words than the manual's: the way of asking is not
		// what is asked.
		{"What is the biggest speed of the Z-200?", "6,800 rpm"},
		// A question the manual asks itself is answered by what follows.
		{"Can a Zorblax engine run on petrol?", "Petrol damages the injectors"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, c.question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), c.first) {
			t.Errorf("%q: %s, first line %q; want grounded, first line with %q\n%s", c.question, q.AnswerType, firstLine(q.Answer), c.first, q.Answer)
		}
		if len(q.Citations) == 0 || q.Citations[0].DocumentName != "zorblax-manual.txt" {
			t.Errorf("%q: citations %+v; want the manual first", c.question, q.Citations)
		} else if rel := q.Citations[0].RelevanceScore; rel <= 0.5 || rel > 1 {
			t.Errorf("%q: the answer's citation has relevance %v; want the share of the question's words it holds, above 0.5", c.question, rel)
		}
	}
	for _, question := range []string{"Does the Zorblax engine run on hydrogen?", "Can hydrogen fuel a Zorblax engine?",
		"What was the revenue of Quill Works in 1999?"} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerInsufficient {
			t.Errorf("%q: %s %q; want insufficient evidence: the room never mentions it", question, q.AnswerType, q.Answer)
		}
	}
}

// firstLine is an answer's first line, without its list marker: the
// answer itself, never a heading before it.
func firstLine(answer string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(answer), "\n")
	return strings.TrimPrefix(l, "- ")
}

// TestATitleWordDoesNotHijackTheQuestion: a question with "memory" is
// answered from the manual that says how much memory decompressing needs,
// not from Memory-Usage.txt because of its file name: a word the room uses
// in much of its text names no document.
func TestATitleWordDoesNotHijackTheQuestion(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "Memory-Usage.txt", "quill-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	q, err := svc.Ask(ctx, owner.ID, r.ID, "How much memory does decompressing a file need?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerGrounded || len(q.Citations) == 0 || q.Citations[0].DocumentName != "quill-manual.txt" ||
		!strings.Contains(firstLine(q.Answer), "3.7 MB") {
		t.Errorf("answer %q (%s), citations %+v; want 3.7 MB from quill-manual.txt first", q.Answer, q.AnswerType, q.Citations)
	}
}

// acmeRoomOf is a room of the local owner's holding the named testdata
// documents, processed.
func acmeRoomOf(t *testing.T, names ...string) (*rooms.Service, *room.Room, []room.Document) {
	t.Helper()
	files := map[string]io.Reader{}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = bytes.NewReader(data)
	}
	return roomOf(t, nil, files, names...)
}

// TestAnOptionAskedAboutIsTheOneAnswered: "-k" in a question names the
// option as written; the answer is its line, whatever else matches the
// words, and "flag" or "option" need not be there.
func TestAnOptionAskedAboutIsTheOneAnswered(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "Memory-Usage.txt", "quill-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ question, first string }{
		{"What does the -k flag do?", "Keep (do not delete) the input file"},
		{"What is the --small option for?", "Use less memory"},
		{"Which flag shows the compression ratio?", "-v --verbose"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, c.question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), c.first) {
			t.Errorf("%q: %s, first line %q; want %q", c.question, q.AnswerType, firstLine(q.Answer), c.first)
		}
	}
}

// TestAPassageAnswersInItsOwnWords: a manual nobody tuned on (tallow, a
// package written for this test) answers questions put in other words
// than its own; its verbs are not the focus, its nouns are, and a
// question whose noun it never uses is refused.
func TestAPassageAnswersInItsOwnWords(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "tallow-manual.txt", "quill-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ question, first string }{
		// "take" and "halts" are how the question is put.
		{"What thickness does each ledger line take?", "ledgerwidth"},
		{"Which command halts the ledger line before the last column?", "stops short of the last column"},
		// A line of code is quoted alone, not run into its neighbours.
		{"What is the default ledgergap?", "ledgergap=.8ex\""},
		// A sentence goes on after a displayed command.
		{"How do I draw a line under one row only?", "ledger[once] after the row"},
		// A line ending in ":" is quoted with what it introduces.
		{"How do I give each ledger line its own colour?", "\\ledgercolour{teal}"},
		// "This ..." is quoted after what it points back to.
		{"Why are long tables slow to typeset?", "mandatory to repeat"},
		// A list's items are quoted with the line that introduces them,
		// not taken for headings.
		{"Which cells can ledger lines not be drawn under?", "merged cells"},
		// Who wrote a document is on its cover.
		{"Who is the author of tallow?", "Petra Lindqvist"},
		{"Who does the tallow author thank?", "Olof Berg"},
		// A change is dated by its release's heading.
		{"In which version did ledger lines start repeating at page breaks?", "2.0, 2018 May 9"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, c.question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), c.first) {
			t.Errorf("%q: %s, first line %q; want grounded, first line with %q\n%s", c.question, q.AnswerType, firstLine(q.Answer), c.first, q.Answer)
		}
	}
	for _, question := range []string{"Which version of tallow added support for spreadsheets?", "Who translated the tallow manual into Finnish?"} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerInsufficient {
			t.Errorf("%q: %s %q; want insufficient evidence", question, q.AnswerType, q.Answer)
		}
	}
}

// TestATableRowIsReadWithItsHeader: a plain-text results table (kiln, a
// benchmark written for this test) answers with the row asked about,
// each number after its column's header.
func TestATableRowIsReadWithItsHeader(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "kiln-bench.txt", "quill-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ question, first string }{
		{"How much memory does kiln need at level 9?", "Level -9; Block size 900k; Compressed (kB) 12480; Time (s) 9.7; Memory (MB) 7.4"},
		{"How long does kiln take at level 5?", "Time (s) 6.8"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, c.question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), c.first) {
			t.Errorf("%q: %s, first line %q; want %q", c.question, q.AnswerType, firstLine(q.Answer), c.first)
		}
	}
}

// TestATitleNamesItsDocument: a question may name a document by its title
// ("Gantry", "the Gantry language") though the file is gml-reference.txt
// and the page that answers says neither word (a guide written for this
// test, its sections on pages of their own).
func TestATitleNamesItsDocument(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "gml-reference.txt", "quill-manual.txt", "tallow-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ question, first string }{
		{"How do I declare a set in Gantry?", "A set is declared with the set statement"},
		{"How do I count the members of a set in the Gantry language?", "The card function counts the members of a set."},
		{"In Gantry, where does the translator write its output?", "model.out"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, c.question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), c.first) {
			t.Errorf("%q: %s, first line %q; want %q", c.question, q.AnswerType, firstLine(q.Answer), c.first)
		}
	}
	q, err := svc.Ask(ctx, owner.ID, r.ID, "Does Gantry support quadratic objectives?")
	if err != nil {
		t.Fatal(err)
	}
	if q.AnswerType != room.AnswerInsufficient {
		t.Errorf("quadratic objectives: %s %q; want %s", q.AnswerType, q.Answer, room.AnswerInsufficient)
	}
}

// TestAHowToQuestionIsAnsweredByAnInstruction: "How do I ...?" asks for a
// way; of two lines with the question's words, the one that says what to
// do (a verb of doing, an option, a command) answers first.
func TestAHowToQuestionIsAnsweredByAnInstruction(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "spool-manual.txt", "quill-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	q, err := svc.Ask(ctx, owner.ID, r.ID, "How do I keep finished jobs out of the queue?")
	if err != nil {
		t.Fatal(err)
	}
	if want := "--purge"; q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), want) {
		t.Errorf("%s, first line %q; want %q", q.AnswerType, firstLine(q.Answer), want)
	}
}

// TestFilingsWordsOnlyInARoomOfFilings: "margin" is widened to the
// words filings report it by (gross profit, operating income) only where
// the room holds filings; in a room of manuals a margin is a page's, and
// a page of accounts that says those words does not outrank the manual.
func TestFilingsWordsOnlyInARoomOfFilings(t *testing.T) {
	ctx := context.Background()
	svc, r, docs := acmeRoomOf(t, "quire-manual.txt", "club-accounts.txt")
	pages, err := ask.Retrieve(ctx, svc.Store, ask.Request{RoomID: r.ID, Docs: docs, Question: "Where are the notes placed when the margin is small?", K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 || pages[0].DocumentName != "quire-manual.txt" {
		t.Errorf("pages %v; want quire-manual.txt first", pageNames(pages))
	}
}

// TestAVerbAloneIsTheFocus: when a question asks about nothing but an
// action and a document ("Who translated the tallow manual?"), the action
// is its focus: a room that never says it refuses, though the cover
// answers who wrote it.
func TestAVerbAloneIsTheFocus(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "tallow-manual.txt", "quill-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for question, want := range map[string]string{
		"Who translated the tallow manual?": room.AnswerInsufficient,
		"Who wrote tallow?":                 room.AnswerGrounded,
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != want {
			t.Errorf("%q: %s %q; want %s", question, q.AnswerType, q.Answer, want)
		}
	}
}

// TestADefaultAskedForIsTheLineThatSaysOne: "What is the default ...?"
// is answered first by the line that says what holds unless set, not by
// one with more of the question's words that says what else may be set.
func TestADefaultAskedForIsTheLineThatSaysOne(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "kettle-manual.txt", "quill-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	q, err := svc.Ask(ctx, owner.ID, r.ID, "How long does the kettle keep water warm by default?")
	if err != nil {
		t.Fatal(err)
	}
	if want := "By default the kettle keeps it warm for 5 minutes"; q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), want) {
		t.Errorf("%s, first line %q; want %q", q.AnswerType, firstLine(q.Answer), want)
	}
}

// TestAQuestionForAValueIsAnsweredByALineThatHoldsOne: a question that
// asks for a version, a date, a number, a person or a default is answered
// by a line that holds one beside its focus; a room that talks about its
// focus without one refuses it, whatever words the question shares with
// that talk ("added", "support", "default").
func TestAQuestionForAValueIsAnsweredByALineThatHoldsOne(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "lantern-manual.txt", "kettle-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ question, first string }{
		{"Which version of the lantern added solar charging?", "Version 2.3"},
		{"What is the default beam width of the lantern?", "60 degrees"},
		{"Who designed the lantern's case?", "Ada Moreno"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, c.question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), c.first) {
			t.Errorf("%q: %s, first line %q; want grounded, first line with %q\n%s", c.question, q.AnswerType, firstLine(q.Answer), c.first, q.Answer)
		}
	}
	for _, question := range []string{
		"Which version of the lantern added boost mode?",
		"Which version of the solar panels does the lantern support?", // 2.3 is the lantern's version, not the panels'        // boost mode is there, no version beside it
		"When was boost mode added to the lantern?",                   // nor a date
		"What is the default brightness of the lantern dimmer?",       // the dimmer is there, not its default
		"How many hooks come with the lantern?",                       // hooks are there, no number of them
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerInsufficient {
			t.Errorf("%q: %s %q; want insufficient evidence: no line about it holds the value asked for", question, q.AnswerType, firstLine(q.Answer))
		}
	}
}

// TestBritishAndAmericanSpellingsAskTheSame: a question spelled in one
// English is answered by a manual spelled in the other ("colours":
// colors, "center": centre), not refused for a word the room spells
// otherwise.
func TestBritishAndAmericanSpellingsAskTheSame(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "lantern-manual.txt", "kettle-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ question, first string }{
		{"Which colours does the lantern case come in?", "olive and sand"},
		{"Should the lantern hang at the center of the tent?", "centre of the tent"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, c.question)
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), c.first) {
			t.Errorf("%q: %s, first line %q; want grounded, first line with %q\n%s", c.question, q.AnswerType, firstLine(q.Answer), c.first, q.Answer)
		}
	}
}

// TestAQuestionPutInLightVerbsAsksAboutItsSubject: "Where does the
// battery come from?" in a room that talks of the battery on every page
// asks about the battery, not about coming: the room's common words are
// its focus when the question's only others are light verbs ("come",
// "give back", "build on"), and a room that never says "come" does not
// refuse it.
func TestAQuestionPutInLightVerbsAsksAboutItsSubject(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "lumen-torch.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, question := range []string{"Where does the battery come from?", "Where is the battery brought in from?"} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		if want := "Volta Works"; q.AnswerType != room.AnswerGrounded || !strings.Contains(q.Answer, want) {
			t.Errorf("%q: %s %q; want grounded, quoting %q", question, q.AnswerType, q.Answer, want)
		}
	}
}

// TestWhoWroteADocumentIsOnItsCover: the author of a document named by
// its file ("gantry" for gantry_en.txt) is on its cover, which says the
// name once, beside an address, while every other page says "Gantry"
// more often.
func TestWhoWroteADocumentIsOnItsCover(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "gantry_en.txt", "kettle-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, question := range []string{"Who wrote gantry?", "Who is the author of Gantry?"} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		if want := "Ola Berg"; q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), want) {
			t.Errorf("%q: %s, first line %q; want grounded, first line with %q\n%s", question, q.AnswerType, firstLine(q.Answer), want, q.Answer)
		}
		if len(q.Citations) == 0 || q.Citations[0].PageNumber != 1 {
			t.Errorf("%q: citations %+v; want the cover first", question, q.Citations)
		}
	}
}

// TestAnEntryOfATwoColumnListIsItsOwnPassage: an option list laid out in
// two columns (term at the left, its meaning at the right) is read entry
// by entry: the line that answers is the entry asked about, not one run
// together with the entries around it.
func TestAnEntryOfATwoColumnListIsItsOwnPassage(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "torch-options.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ question, first, not string }{
		{"How bright is the standby glow by default?", "default value is 2", "timer"},
		{"When does the torch switch off?", "30 unless set", "glow"},
	} {
		q, err := svc.Ask(ctx, owner.ID, r.ID, c.question)
		if err != nil {
			t.Fatal(err)
		}
		if l := firstLine(q.Answer); q.AnswerType != room.AnswerGrounded || !strings.Contains(l, c.first) || strings.Contains(l, c.not) {
			t.Errorf("%q: %s, first line %q; want grounded, first line with %q, without %q", c.question, q.AnswerType, l, c.first, c.not)
		}
	}
}

// checkAnswers asks each question in a room of the testdata documents
// named: it is answered grounded with a first line holding the text
// given, or refused when the text given is "".
func checkAnswers(t *testing.T, docs []string, cases map[string]string) {
	t.Helper()
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, docs...)
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	for question, first := range cases {
		q, err := svc.Ask(ctx, owner.ID, r.ID, question)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case first == "" && q.AnswerType != room.AnswerInsufficient:
			t.Errorf("%q: %s %q; want insufficient evidence", question, q.AnswerType, firstLine(q.Answer))
		case first != "" && (q.AnswerType != room.AnswerGrounded || !strings.Contains(firstLine(q.Answer), first)):
			t.Errorf("%q: %s, first line %q; want grounded, first line with %q\n%s", question, q.AnswerType, firstLine(q.Answer), first, q.Answer)
		}
	}
}

// TestALineAboutAnotherThingOfTheKindIsNoAnswer: a question about one
// user, group or option of the many a manual lists is answered by the
// line that names it (or is under its heading) and says what is asked
// of it; the uid of another user is no answer, and a room that gives
// none for the one asked about refuses.
func TestALineAboutAnotherThingOfTheKindIsNoAnswer(t *testing.T) {
	checkAnswers(t, []string{"burrow-accounts.txt", "kettle-manual.txt"}, map[string]string{
		"What uid does the badger user have?":   "uid 41",
		"What gid does the mole group have?":    "gid 57",
		"What uid did the vole account use?":    "uid 63",
		"What uid does the ferret user have?":   "", // its entry gives none; badger's and vole's do
		"What gid does the stoat program have?": "", // named in passing in mole's entry
	})
}

// TestAListsEntryIsQuotedWithItsTerm: an entry of a list of terms (a
// group's name above what it is for) is quoted with its term, which is
// what "Which group ...?" asks for, and the sentence before an entry,
// the last of another entry, sets no scene for it.
func TestAListsEntryIsQuotedWithItsTerm(t *testing.T) {
	checkAnswers(t, []string{"sett-groups.txt", "kettle-manual.txt"}, map[string]string{
		"Which group gives full access to the side tunnels?": "hollow",
		"Which group is the lantern plotter setgid to?":      "warren",
	})
}

// TestTheSentenceThatAnswersNotTheTopic: the sentences of a paragraph are
// about what its first one names: the line that answers says what is
// asked (the reading's unit), not only the name of the function the
// paragraph is about.
func TestTheSentenceThatAnswersNotTheTopic(t *testing.T) {
	checkAnswers(t, []string{"trowel-functions.txt", "kettle-manual.txt"}, map[string]string{
		"In what unit is the reading printed by dig_depth?": "millimetres",
	})
}

// TestAQuestionForAnOptionIsAnsweredByALineThatNamesOne: "Which flag
// ...?" asks for something a manual writes as code: the line that names
// one ("-lloam") answers, not the one that only talks of linking.
func TestAQuestionForAnOptionIsAnsweredByALineThatNamesOne(t *testing.T) {
	checkAnswers(t, []string{"loam-build.txt", "kettle-manual.txt"}, map[string]string{
		"Which library flag do I link my program with to use loam?": "-lloam",
	})
}

// TestAFileNameGluedToItsNounNamesTheDocument: "spadeguide.txt" is the
// spade guide, whose author is on its cover, not the maker of spades
// its pages name.
func TestAFileNameGluedToItsNounNamesTheDocument(t *testing.T) {
	checkAnswers(t, []string{"spadeguide.txt", "kettle-manual.txt"}, map[string]string{
		"Who wrote the spade guide?": `"Mara Lind"`, // the cover's name, not a page's sentence
	})
}

// TestWhatExtractionLeavesIsRead: what a PDF, a scan or a manual's
// layout does to words is undone before they are compared, and a line
// is quoted with what it answers about.
func TestWhatExtractionLeavesIsRead(t *testing.T) {
	for _, c := range []struct {
		name  string
		docs  []string
		cases map[string]string
	}{{
		// A PDF may draw a name's underscores as rules that extraction
		// reads as spaces ("set flow" for set_flow): the question that
		// writes the name answers from the line that has its parts one
		// after another, and the numeric value of a code is the number
		// its row gives.
		"underscores", []string{"pump-reference.txt", "kettle-manual.txt"}, map[string]string{
			"Between which values must the rate of set_flow lie?": "between 2 and 40",
			"What is the numeric value of VALVE_STUCK?":           "42",
			"What is the numeric value of PUMP_HOT?":              "",
		},
	}, {
		// The passage names what the question asks about (IN1), but the
		// line that holds the value asked for is about another thing it
		// names (A1): the room does not say.
		"another named thing", []string{"pump-reference.txt", "kettle-manual.txt"}, map[string]string{
			"What is the input impedance of A1?":  "1 megaohm",
			"What is the input impedance of IN1?": "",
		},
	}, {
		// What a routine does, written under its call or its usage line,
		// is quoted with that line when the question asks which routine
		// or utility does it: the line alone names none, or another one.
		"routines", []string{"hoe-routines.txt", "kettle-manual.txt"}, map[string]string{
			"Which function never records a bed twice on the same day?": "condmarkweeded(",
			"Which utility counts the beds weeded since a day?":         "hoecount",
		},
	}, {
		// A typeset manual breaks words at the end of its lines ("de-"
		// above "fault"): the question's word is found in them, and the
		// line quoted says it whole. "Which frame yields to ...?" asks
		// for a frame; "yields", which the manual never says, is how it
		// is asked.
		"broken words", []string{"sieve-manual.txt", "kettle-manual.txt"}, map[string]string{
			"What is the default mesh of a new sieve?":  "six millimetres by default",
			"Which soils does the sieve separate well?": "homogeneous soils",
			"Which sieve frame yields to a finer soil?": "fits the fine frame",
		},
	}, {
		// OCR reads a name's 1 as l and its O as 0 ("ODl", "0D2"): the
		// question that writes OD1 or OD2 is answered from the scan.
		"look-alikes", []string{"scanned-board.txt", "kettle-manual.txt"}, map[string]string{
			"What current can the OD1 output drive?":         "5 mA",
			"What current does OD2 drive the relay coil at?": "40 mA",
			"Which frequencies does SQR1 give?":              "1 Hz to 100 kHz",
		},
	}} {
		t.Run(c.name, func(t *testing.T) { checkAnswers(t, c.docs, c.cases) })
	}
}

// TestANounAsksWhatItsVerbSays: a question names an action by its noun
// ("the creation of the ledger", "the installation of the bird lists",
// "the file's specification") where the manual says the verb (create,
// install, specifies): kestrel, written for this test, answers them.
func TestANounAsksWhatItsVerbSays(t *testing.T) {
	checkAnswers(t, []string{"kestrel-manual.txt", "quill-manual.txt"}, map[string]string{
		"Which command handles the creation of the ledger?":         "kestrel init",
		"Where does the installation of the bird lists go?":         "/usr/share/kestrel/lists",
		"Where is the specification of the settings file's syntax?": "kestrel-settings(5)",
	})
}

// TestTheLineAfterGivesTheValue: a sentence about the thing asked for
// that only announces it is quoted with the one after it that gives the
// value asked for (a default, a list), and a line alone under one ending
// in ":" is what it introduces, not a heading.
func TestTheLineAfterGivesTheValue(t *testing.T) {
	checkAnswers(t, []string{"kestrel-manual.txt", "quill-manual.txt"}, map[string]string{
		"What is the default colour of the counts in reports?":         "green",
		"What must the first line of a doubtful sighting's note read?": "DOUBTFUL",
		"Which formats can Kestrel export the ledger in?":              "CSV, JSON",
	})
}

// TestALineIsQuotedWithWhatItPointsTo: a sentence that introduces a list
// without a colon ("listed below") is quoted with it, and one that
// points back ("Both of them") with the sentence before it.
func TestALineIsQuotedWithWhatItPointsTo(t *testing.T) {
	checkAnswers(t, []string{"kestrel-manual.txt", "quill-manual.txt"}, map[string]string{
		"Does Kestrel know about feeder kinds?":                              "Tube, tray and suet",
		"Is every visit of a bird at a tray feeder counted as one sighting?": "Tube and tray feeders have perches",
	})
}

// TestATableCutByAPageBreakKeepsItsHeader: rows on the page after their
// table's header are read with it: "How much memory does unpacking at
// level -4 need?" is answered by the row of -4, labelled.
func TestATableCutByAPageBreakKeepsItsHeader(t *testing.T) {
	ctx := context.Background()
	svc, r, _ := acmeRoomOf(t, "gravel-reference.txt", "quill-manual.txt")
	owner, err := svc.EnsureUser(ctx, "owner")
	if err != nil {
		t.Fatal(err)
	}
	q, err := svc.Ask(ctx, owner.ID, r.ID, "How much unpack memory does level -4 need?")
	if err != nil {
		t.Fatal(err)
	}
	if first := firstLine(q.Answer); q.AnswerType != room.AnswerGrounded || !strings.Contains(first, "Unpack memory 3400k") || len(q.Citations) == 0 || q.Citations[0].PageNumber != 2 {
		t.Errorf("%s, first line %q, citations %+v; want the -4 row read with its header, page 2", q.AnswerType, first, q.Citations)
	}
}
