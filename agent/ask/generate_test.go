package ask_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/agent/ask"
	"github.com/quarry-dev/quarry/agent/evidence"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
	"github.com/quarry-dev/quarry/room"
)

// filingPages are three pages of a filing as retrieval returns them; the
// model is shown them as passages [1], [2] and [3].
func filingPages() []ask.PageHit {
	page := func(n int, text string) ask.PageHit {
		return ask.PageHit{DocumentID: "d1", DocumentName: "acme-10k.pdf", PageNumber: n, Score: 1,
			Chunks: []room.ChunkHit{{Chunk: room.Chunk{ID: "c" + text[:4], DocumentID: "d1", PageNumber: n, Text: text}, DocumentName: "acme-10k.pdf"}}}
	}
	return []ask.PageHit{
		page(41, "Net sales for fiscal 2023 were $812 million, compared with $781 million for fiscal 2022."),
		page(58, "Consolidated Statements of Operations\n(In millions)        2023     2022\nNet sales             812      781\nOperating income     (45)       30\nHeadcount grew 12% in the year."),
		page(63, "The streaming segment added 12 million subscribers during the year."),
	}
}

// Room answers check their numbers with agent/evidence: a number is
// support only when it has the same value, at the precision written, in a
// passage the sentence cites.
func TestGenerateChecksNumbersAgainstTheCitedPassages(t *testing.T) {
	for _, c := range []struct {
		reply      string
		answerType string
		unverified []string
		verified   []bool // per citation, in order of first use
	}{
		// The same digits are not the same number: 12 million is not $812 million.
		{"Revenue was 12 million [1].", room.AnswerInsufficient, []string{"12 million is not in the cited passages"}, []bool{false}},
		{"Revenue was $812 million [1].", room.AnswerGrounded, nil, []bool{true}},
		{"Revenue was $812,000,000 [1].", room.AnswerGrounded, nil, []bool{true}},
		// A number stands for the values that round to it: $0.8 billion is
		// $0.75-0.85 billion, which holds $812 million; $0.82 billion is
		// $0.815-0.825 billion, which does not.
		{"Revenue was $0.8 billion [1].", room.AnswerGrounded, nil, []bool{true}},
		{"Revenue was $0.81 billion [1].", room.AnswerGrounded, nil, []bool{true}},
		{"Revenue was $0.82 billion [1].", room.AnswerInsufficient, []string{"$0.82 billion is not in the cited passages"}, []bool{false}},
		// Not more precise than the passage says.
		{"Revenue was $812.4 million [1].", room.AnswerInsufficient, []string{"$812.4 million is not in the cited passages"}, []bool{false}},
		// A table's amounts are in the unit its header says.
		{"Net sales were $812 million [2].", room.AnswerGrounded, nil, []bool{true}},
		{"Net sales were $781 billion [2].", room.AnswerInsufficient, []string{"$781 billion is not in the cited passages"}, []bool{false}},
		// A negative amount in parentheses, written either way.
		{"The operating loss was $(45) million [2].", room.AnswerGrounded, nil, []bool{true}},
		{"Operating income fell to a loss of $45 million [2].", room.AnswerGrounded, nil, []bool{true}},
		// A number in another passage than the one the sentence cites is
		// not support, even when the answer cites that passage elsewhere.
		{"The operating loss was $45 million [1].", room.AnswerInsufficient, []string{"$45 million is not in the cited passages"}, []bool{false}},
		{"Revenue was $812 million [1]. The operating loss was $45 million [1]. Net sales were 812 [2].", room.AnswerInsufficient,
			[]string{"$45 million is not in the cited passages"}, []bool{false, true}},
		// A percentage is not a count, nor the other way round.
		{"Subscribers grew 12% [3].", room.AnswerInsufficient, []string{"12% is not in the cited passages"}, []bool{false}},
		{"Headcount grew by 12 million [2].", room.AnswerInsufficient, []string{"12 million is not in the cited passages"}, []bool{false}},
		{"Headcount grew 12% [2], and the streaming segment added 12 million subscribers [3].", room.AnswerGrounded, nil, []bool{true, true}},
		// Years, dates, page numbers and small counts are not claims.
		{"As page 41 of the 10-K shows, net sales for the year ended December 31, 2023 were $812 million, in 1 segment [1].", room.AnswerGrounded, nil, []bool{true}},
		// A number in a sentence that cites nothing is not supported.
		{"Revenue was $812 million.", room.AnswerInsufficient, []string{"$812 million is not in the cited passages"}, nil},
		{"Revenue was $812 million [1][2].", room.AnswerGrounded, nil, []bool{true, true}},
		{"Revenue was $812 million [1, 4].", room.AnswerInsufficient, []string{"citation [4] points at no passage"}, []bool{true}},
	} {
		m := &llmtest.Model{ModelName: "test/model", Reply: func(*llm.Request) (*llm.Response, error) { return llmtest.Text(c.reply), nil }}
		g, err := ask.Generate(context.Background(), m, nil, "What was Acme's revenue in fiscal 2023?", filingPages())
		if err != nil {
			t.Fatalf("Generate(%q): %v", c.reply, err)
		}
		var verified []bool
		for _, ci := range g.Citations {
			verified = append(verified, ci.Verified)
		}
		if g.Type != c.answerType || !reflect.DeepEqual(g.Unverified, c.unverified) || !reflect.DeepEqual(verified, c.verified) {
			t.Errorf("Generate(%q) = %s, unverified %q, citations verified %v; want %s, %q, %v",
				c.reply, g.Type, g.Unverified, verified, c.answerType, c.unverified, c.verified)
		}
		if g.Type == room.AnswerGrounded && g.Text != c.reply {
			t.Errorf("Generate(%q) grounded text %q; want the reply unchanged", c.reply, g.Text)
		}
	}
}

// The answer that fails says what failed and marks it where it stands.
func TestGenerateMarksTheUnsupportedNumber(t *testing.T) {
	m := &llmtest.Model{ModelName: "test/model", Reply: func(*llm.Request) (*llm.Response, error) {
		return llmtest.Text("Revenue was 12 million [1]. It was $781 million a year before [1]."), nil
	}}
	g, err := ask.Generate(context.Background(), m, nil, "What was Acme's revenue in fiscal 2023?", filingPages())
	if err != nil {
		t.Fatal(err)
	}
	if g.Type != room.AnswerInsufficient || !strings.Contains(g.Text, "Revenue was 12 million "+evidence.Marker+" [1]. It was $781 million a year before [1].") ||
		!strings.HasSuffix(g.Text, "Unverified: 12 million is not in the cited passages.") {
		t.Errorf("Generate = %s %q; want insufficient_evidence with 12 million marked and named", g.Type, g.Text)
	}
}

// Asked through the room, as a user asks: the statement's "(In millions)"
// gives its amounts their unit, and the answer is grounded only when its
// numbers are the statement's.
func TestAskWithAModelReadsTheStatementsUnit(t *testing.T) {
	svc, r, _ := acmeRoom(t)
	owner, err := svc.EnsureUser(context.Background(), "owner")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reply, answerType string
	}{
		{"Net sales were $5,000 million in fiscal 2022 [1].", room.AnswerGrounded},
		{"Net sales were $5.0 billion in fiscal 2022, up from $4.5 billion [1].", room.AnswerGrounded},
		{"Net sales were $500 million in fiscal 2022 [1].", room.AnswerInsufficient},
		{"Net sales were $5,000 thousand in fiscal 2022 [1].", room.AnswerInsufficient},
	} {
		svc.Model = &llmtest.Model{ModelName: "test/model", Reply: func(*llm.Request) (*llm.Response, error) { return llmtest.Text(c.reply), nil }}
		q, err := svc.Ask(context.Background(), owner.ID, r.ID, "What was the revenue in FY2022?")
		if err != nil {
			t.Fatal(err)
		}
		if q.AnswerType != c.answerType || len(q.Citations) != 1 || q.Citations[0].PageNumber != 3 ||
			q.Citations[0].Verified != (c.answerType == room.AnswerGrounded) {
			t.Errorf("reply %q: answer %s %q, citations %+v; want %s citing page 3", c.reply, q.AnswerType, q.Answer, q.Citations, c.answerType)
		}
	}
}

// pageTexts is a PageReader over pages of document d1 by number.
type pageTexts map[int]string

func (p pageTexts) Page(_ context.Context, documentID string, number int) (*room.Page, error) {
	text, ok := p[number]
	if !ok || documentID != "d1" {
		return nil, errors.New("no such page")
	}
	return &room.Page{DocumentID: documentID, Number: number, Text: text}, nil
}

// A passage from the foot of a statement is in the unit the statement's
// top states, which Generate reads from the passage's page.
func TestGenerateReadsTheUnitFromThePassagesPage(t *testing.T) {
	foot := "Net sales             812      781\nOperating income     (45)       30"
	pages := []ask.PageHit{{DocumentID: "d1", DocumentName: "acme-10k.pdf", PageNumber: 70, Score: 1,
		Chunks: []room.ChunkHit{{Chunk: room.Chunk{ID: "c1", DocumentID: "d1", PageNumber: 70, Text: foot}, DocumentName: "acme-10k.pdf"}}}}
	statement := "Consolidated Statements of Operations\n(In millions)        2023     2022\n" + foot
	for _, c := range []struct {
		name       string
		pr         ask.PageReader
		answerType string
	}{
		{"the page read", pageTexts{70: statement}, room.AnswerGrounded},
		{"no reader", nil, room.AnswerInsufficient},
		{"the page unreadable", pageTexts{}, room.AnswerInsufficient},
		{"a page without a unit", pageTexts{70: foot}, room.AnswerInsufficient},
	} {
		m := &llmtest.Model{ModelName: "test/model", Reply: func(*llm.Request) (*llm.Response, error) {
			return llmtest.Text("Net sales were $812 million, against $0.78 billion a year before [1]."), nil
		}}
		g, err := ask.Generate(context.Background(), m, c.pr, "What were Acme's net sales in fiscal 2023?", pages)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if g.Type != c.answerType {
			t.Errorf("%s: Generate = %s %q; want %s", c.name, g.Type, g.Text, c.answerType)
		}
	}
}
