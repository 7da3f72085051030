package research

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	rs "github.com/quarry-dev/quarry/research"
	"github.com/quarry-dev/quarry/retrieve"
)

func TestValuesAndSame(t *testing.T) {
	vs := Values("Revenue for fiscal 2024 was $48.2 million, and 1,240 people worked on the Falcon-3 under the 10-K.")
	var got []string
	for _, v := range vs {
		got = append(got, fmt.Sprintf("%s:%s", v.Kind, v.Text))
	}
	want := "date:2024 money:$48.2 million number:1,240 people"
	if strings.Join(got, " ") != want {
		t.Errorf("Values = %v; want %s", got, want)
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"$48.2 million", "$48,200,000", true},
		{"$48.2 million", "$46.9 million", false},
		{"5 January 1884", "January 1884", true},
		{"5 January 1884", "26 December 1844", false},
		{"1,240 people", "1,240 employees", true},
	} {
		a, b := Values(tc.a)[0], Values(tc.b)[0]
		if Same(a, b) != tc.same {
			t.Errorf("Same(%q, %q) = %v; want %v", tc.a, tc.b, !tc.same, tc.same)
		}
	}
	for text, year := range map[string]int{"consul in 112 BC": -112, "built in the 1890s": 1890} {
		if v := Values(text); len(v) != 1 || v[0].Kind != KindDate || v[0].Year != year {
			t.Errorf("Values(%q) = %+v; want the year %d", text, v, year)
		}
	}
	tg := TargetOf("What does VCD refer to?", "VCD")
	if v, ok := tg.find("They measured vibrational circular dichroism (VCD) spectra.", []string{"vcd"}); !ok || v.Value.Text != "vibrational circular dichroism" {
		t.Errorf("the meaning of VCD = %+v, %v; want vibrational circular dichroism", v.Value, ok)
	}
	if !Same(Value{Kind: KindTerm, Text: "American football"}, Value{Kind: KindTerm, Text: "football"}) {
		t.Error("Same(American football, football) = false; want true")
	}
}

func TestSentences(t *testing.T) {
	got := Sentences("# Title\n\nKestrel Dynamics Inc. makes drones. It was founded in 2009 by J. Smith! Is it big? Yes.\n\nNew paragraph")
	want := []string{"Kestrel Dynamics Inc. makes drones.", "It was founded in 2009 by J. Smith!", "Is it big?", "Yes.", "New paragraph"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Sentences = %q; want %q", got, want)
	}
}

func TestQuestionParsing(t *testing.T) {
	for _, tc := range []struct {
		q, subject string
		kind       Kind
	}{
		{"What is the population of Broken Bow?", "Broken Bow", KindNumber},
		{"When was Stephen O'Mara born?", "Stephen O'Mara", KindDate},
		{"What sport is Bobby Carpenter associated with?", "Bobby Carpenter", KindTerm},
		{`Who is the artist of the album "Crazy for You"?`, "Crazy for You", KindPerson},
		{"Where is the News Democrat published?", "News Democrat", KindPlace},
	} {
		q := parseQuestion(tc.q)
		if q.Subject != tc.subject || q.Target.Kind != tc.kind {
			t.Errorf("parseQuestion(%q) = %q, %s; want %q, %s", tc.q, q.Subject, q.Target.Kind, tc.subject, tc.kind)
		}
	}
	if !parseQuestion("What changed in Acme's finances and legal exposure?").Target.Broad {
		t.Error("a question about a briefing's aspects is not broad")
	}
}

func TestEntityLabel(t *testing.T) {
	for _, tc := range []struct{ text, subject, want string }{
		{"Araki Station (Chiba) Araki Station is served by the line.", "Araki Station", "Araki Station (Chiba)"},
		{"Stephen M. O'Mara Stephen Mary O'Mara (5 January 1884 – 1959) was", "Stephen O'Mara", "Stephen M. O'Mara"},
		{"The Belleville News-Democrat is a daily newspaper.", "News Democrat", "Belleville News-Democrat"},
		{"# Heading about Kestrel Dynamics\n\nKestrel Dynamics Ltd, the Coventry firm.", "Kestrel Dynamics", "Kestrel Dynamics Ltd"},
		{"Kestrel Dynamics makes drones.", "Kestrel Dynamics", ""},
	} {
		if got := entityLabel(tc.text, parseQuestion("Who is "+tc.subject+"?").SubjectWords); got != tc.want {
			t.Errorf("entityLabel(%q, %s) = %q; want %q", tc.text, tc.subject, got, tc.want)
		}
	}
}

// memoryCorpus returns every document that shares a word with the query.
type memoryCorpus []Passage

func (c memoryCorpus) Search(_ context.Context, query string, k int) ([]Passage, error) {
	var out []Passage
	terms := retrieve.Terms(query)
	for _, p := range c {
		lower := strings.ToLower(p.Text)
		for _, w := range terms {
			if strings.Contains(lower, w) {
				out = append(out, p)
				break
			}
		}
	}
	return out[:min(k, len(out))], nil
}

func run(t *testing.T, corpus memoryCorpus, question string) *rs.Result {
	t.Helper()
	req, err := rs.NewRequest(question, "quick", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var stages []rs.Status
	r := &Researcher{Corpus: corpus, Progress: func(s rs.Stage) { stages = append(stages, s.Status) }}
	res, err := r.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run = %v", err)
	}
	if stages[len(stages)-1] != rs.StatusCompleted || res.Request.Status != rs.StatusCompleted {
		t.Fatalf("stages %v, status %s; want completed", stages, res.Request.Status)
	}
	if err := res.Validate(); err != nil {
		t.Fatalf("result does not validate: %v", err)
	}
	return res
}

// TestConflictAndAmbiguity: one entity with a minority value is a
// conflict resolved by consensus; two qualified entities with their own
// values are an ambiguity and no discrepancy.
func TestConflictAndAmbiguity(t *testing.T) {
	conflict := memoryCorpus{
		{URL: "doc://a", Title: "A", Text: "As of the census of 2010, there were 3,559 people in Broken Bow, Nebraska."},
		{URL: "doc://b", Title: "B", Text: "Broken Bow had a population of 3,559 people at the 2010 census."},
		{URL: "doc://c", Title: "C", Text: "Broken Bow had a population of 10,000 people at the 2010 census."},
	}
	res := run(t, conflict, "What is the population of Broken Bow?")
	if len(res.Discrepancies) != 1 || !strings.HasPrefix(res.Discrepancies[0].Preferred, "3,559") || res.Discrepancies[0].Strategy != rs.StrategyConsensus {
		t.Fatalf("discrepancies %+v; want one resolved to 3,559 by consensus", res.Discrepancies)
	}
	if a := res.Answer; !strings.Contains(a, "3,559") || strings.Contains(a, "10,000") {
		t.Errorf("Answer = %q; want 3,559 without 10,000", a)
	}
	ambiguous := memoryCorpus{
		{URL: "doc://a", Title: "A", Text: "Araki Station (Chiba) Araki Station opened on April 1, 1958 on the Narita Line."},
		{URL: "doc://b", Title: "B", Text: "Araki Station (Fukuoka) Araki Station opened on 20 April 1910 on the Kagoshima Main Line."},
	}
	res = run(t, ambiguous, "When was Araki Station opened?")
	if len(res.Discrepancies) != 0 || len(res.Ambiguities) != 1 || len(res.Ambiguities[0].Entities) != 2 {
		t.Fatalf("discrepancies %+v, ambiguities %+v; want one ambiguity of two entities and no conflict", res.Discrepancies, res.Ambiguities)
	}
	if a := res.Answer; !strings.Contains(a, "1958") || !strings.Contains(a, "1910") {
		t.Errorf("Answer = %q; want both entities' dates", a)
	}
	for _, s := range res.Report.Sections {
		if len(s.FactIDs) == 0 {
			t.Errorf("section %s cites nothing", s.Title)
		}
	}
}

// TestThinSources: a corpus with nothing on the question gives a report
// that says so rather than invent.
func TestThinSources(t *testing.T) {
	res := run(t, memoryCorpus{{URL: "doc://a", Title: "A", Text: "The weather in Dayton was mild."}}, "What is the population of Broken Bow?")
	if len(res.Facts) != 0 || !strings.Contains(res.Report.Sections[0].Content, "nothing is reported") || len(res.Report.Limitations) == 0 {
		t.Errorf("facts %d, report %+v; want none and a report that says so", len(res.Facts), res.Report)
	}
}

func TestDescribeDocument(t *testing.T) {
	d := DescribeDocument("02-form-10-k-a.md", "", "# Amendment on Form 10-K/A\n\nFiled: April 22, 2025\n\nText.")
	if d.Kind != "amended filing" || d.Credibility < 0.9 || d.Published.Format("2006-01-02") != "2025-04-22" {
		t.Errorf("DescribeDocument = %+v; want an amended filing of 2025-04-22", d)
	}
	if b := DescribeDocument("blog.md", "", "Posted by Rob"); b.Credibility >= d.Credibility {
		t.Errorf("a blog's credibility %.2f is not below a filing's %.2f", b.Credibility, d.Credibility)
	}
}

func TestSubstitution(t *testing.T) {
	for _, tc := range []struct {
		a, b   string
		x, y   string
		edited bool
	}{
		{"The squadron was formed on October 1st 1974 at Chitose air base", "The squadron was formed on January 1st 1950 at Chitose air base", "october 1st 1974", "january 1st 1950", true},
		// One name put in for another everywhere it stood.
		{"War Music (Slim the Mobster album) War Music is the street album by American rapper Slim the Mobster, hosted by DJ Whoo Kid.",
			"War Music (Jay-Z album) War Music is the street album by American rapper Jay-Z, hosted by DJ Whoo Kid.", "slim the mobster", "jay z", true},
		// Two different changes are not one substitution.
		{"the album by rapper Slim released in May by Sony records", "the album by rapper Jay released in June by Sony records", "", "", false},
		// Words added, not replaced.
		{"the album by rapper Slim released by Sony records", "the album by famous rapper Slim released by Sony records", "", "", false},
		{"same words here", "same words here", "", "", false},
		// Too little in common.
		{"alpha beta gamma", "delta epsilon gamma", "", "", false},
	} {
		x, y, ok := substitution(words(tc.a), words(tc.b))
		if ok != tc.edited || x != tc.x || y != tc.y {
			t.Errorf("substitution(%q, %q) = %q, %q, %v; want %q, %q, %v", tc.a, tc.b, x, y, ok, tc.x, tc.y, tc.edited)
		}
	}
}

// A saved web page's chrome makes no claim: it is not a sentence.
func TestSentencesLeaveOutPageChrome(t *testing.T) {
	got := Sentences("Main menu move to sidebar hide Navigation.\n\nThe station opened on 19 January 1871. Retrieved 20 April 2016. Archived from the original on 24 December 2016.\n\n" +
		"Chapter 2. Leadership |  | Chapter 4. A Detailed History\n\nPrev  Next\n\n" +
		"By using this site, you agree to the Terms of Use and Privacy Policy. Content is available under CC BY-SA 4.0 unless otherwise noted. The museum was founded in 1872.")
	want := []string{"The station opened on 19 January 1871.", "The museum was founded in 1872."}
	if !slices.Equal(got, want) {
		t.Errorf("Sentences = %q; want %q", got, want)
	}
}

// TestLoneClaimRelatedOrNot: a value one source alone gives, beside an
// entity two sources attest, is a disagreement about that entity when its
// document is about the same thing, and another entity of the name when
// its document is about something else.
func TestLoneClaimRelatedOrNot(t *testing.T) {
	corpus := memoryCorpus{
		{URL: "doc://a", Title: "A", Text: "Cove Fort is a historic fort in Millard County, Utah, on the road between Salt Lake City and the southern settlements. Cove Fort was founded in 1867 by Ira Hinckley at the request of Brigham Young."},
		{URL: "doc://b", Title: "B", Text: "Cove Fort stands in Millard County, Utah, where Ira Hinckley and local workmen built the fort of volcanic rock in 1867 for travelers on the road to Salt Lake City."},
		{URL: "doc://c", Title: "C", Text: "Cove Fort in Millard County, Utah, was built in 1857 and protected telegraph lines and travelers on the road between Salt Lake City and the southern settlements."},
		{URL: "doc://d", Title: "D", Text: "Cove Fort was built as a coastal defence fortification in 1743, on instruction of the Vice-Admiral of the Coast, and defended Cork Harbour with its artillery batteries."},
	}
	res := run(t, corpus, "When was Cove Fort built?")
	if len(res.Discrepancies) != 1 {
		t.Fatalf("discrepancies %+v; want one, 1867 against 1857", res.Discrepancies)
	}
	d := res.Discrepancies[0]
	facts := res.FactsByID()
	var values []string
	for _, id := range d.FactIDs {
		values = append(values, facts[id].Value)
	}
	if !strings.Contains(d.Preferred, "1867") || !slices.Contains(values, "1857") || slices.Contains(values, "1743") {
		t.Errorf("discrepancy between %q preferring %q; want 1867 over 1857, without Cork's 1743", values, d.Preferred)
	}
	if a := res.Answer; !strings.Contains(a, "1867") || !strings.Contains(a, "1743") {
		t.Errorf("Answer = %q; want Utah's 1867 and Cork's 1743", a)
	}
}
