package retrieve

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/investigation"
)

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Method", "method"},
		{"Explanations (Ranked by Likelihood)", "explanations-ranked-by-likelihood"},
		{"1. Fewer rows in platform=android AND app_version=5.2: 1,595 to 492 (Most Likely)",
			"1-fewer-rows-in-platformandroid-and-app_version52-1595-to-492-most-likely"},
		{"customers (6,000 rows, 4 columns)", "customers-6000-rows-4-columns"},
		{"`code` & **bold**", "code--bold"},
		{"Größe – Übersicht", "größe--übersicht"},
	}
	for _, tt := range tests {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

const reportSample = "# Amount Investigation Report\n" +
	"\n" +
	"> **Question:** Revenue fell about 10%. Why?\n" +
	"\n" +
	"## Method\n" +
	"Contributions add up to the change.\n" +
	"\n" +
	"## Explanations (Ranked by Likelihood)\n" +
	"\n" +
	"### 1. Fewer rows in platform=android (Most Likely)\n" +
	"\n" +
	"- **Kind:** volume\n" +
	"\n" +
	"  ```sql\n" +
	"  # not a heading\n" +
	"  SELECT 1\n" +
	"\n" +
	"  ## still not a heading\n" +
	"  ```\n" +
	"\n" +
	"#### Evidence stays inside\n" +
	"Evidence text.\n" +
	"\n" +
	"## Method\n" +
	"Second method section. ##\n"

func TestSplitMarkdown(t *testing.T) {
	got := SplitMarkdown("s1", "report.md", reportSample)
	want := []Chunk{
		{Scope: "s1", Ref: "report.md#amount-investigation-report", Title: "Amount Investigation Report",
			Text: "> **Question:** Revenue fell about 10%. Why?"},
		{Scope: "s1", Ref: "report.md#method", Title: "Method", Text: "Contributions add up to the change."},
		// "Explanations (Ranked by Likelihood)" has no text of its own and is left out.
		{Scope: "s1", Ref: "report.md#1-fewer-rows-in-platformandroid-most-likely", Title: "1. Fewer rows in platform=android (Most Likely)",
			Text: "- **Kind:** volume\n\n  ```sql\n  # not a heading\n  SELECT 1\n\n  ## still not a heading\n  ```\n\n#### Evidence stays inside\nEvidence text."},
		{Scope: "s1", Ref: "report.md#method-1", Title: "Method", Text: "Second method section. ##"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SplitMarkdown:\n got %q\nwant %q", got, want)
	}
}

func TestSplitMarkdownEdges(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Chunk
	}{
		{"empty", "", nil},
		{"no headings", "just text\nmore", []Chunk{{Ref: "doc.md", Text: "just text\nmore"}}},
		{"preamble then heading", "intro\n## A ##\ntext", []Chunk{
			{Ref: "doc.md", Text: "intro"},
			{Ref: "doc.md#a", Title: "A", Text: "text"}}},
		{"hashtag and indented code are not headings", "## A\n#tag\n    # code", []Chunk{
			{Ref: "doc.md#a", Title: "A", Text: "#tag\n    # code"}}},
		{"crlf", "## A\r\ntext\r\n", []Chunk{{Ref: "doc.md#a", Title: "A", Text: "text"}}},
		{"unclosed fence runs to the end", "## A\n~~~\n## B\n", []Chunk{{Ref: "doc.md#a", Title: "A", Text: "~~~\n## B"}}},
		{"longer closing fence closes", "## A\n```\nx\n`````\n## B\ny", []Chunk{
			{Ref: "doc.md#a", Title: "A", Text: "```\nx\n`````"},
			{Ref: "doc.md#b", Title: "B", Text: "y"}}},
	}
	for _, tt := range tests {
		if got := SplitMarkdown("", "doc.md", tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: SplitMarkdown = %q; want %q", tt.name, got, tt.want)
		}
	}
}

func TestSplitMarkdownLongSection(t *testing.T) {
	para := strings.TrimSpace(strings.Repeat("word ", 120))        // 599 bytes
	fence := "```\n" + strings.Repeat("SELECT 1;\n\n", 40) + "```" // 444 bytes with blank lines inside
	md := "## Long\n" + para + "\n\n" + para + "\n\n" + fence + "\n\n" + para + "\n\n" + strings.Repeat("x", 2000)
	got := SplitMarkdown("s", "r", md)
	if len(got) != 3 {
		t.Fatalf("SplitMarkdown gave %d chunks; want 3: %q", len(got), got)
	}
	for i, c := range got {
		if c.Title != "Long" || c.Ref != "r#long" {
			t.Errorf("chunk %d: title %q ref %q; want Long, r#long", i, c.Title, c.Ref)
		}
	}
	if len(got[0].Text) > MaxChunkLen || len(got[1].Text) > MaxChunkLen {
		t.Errorf("chunk lengths %d, %d; want <= %d", len(got[0].Text), len(got[1].Text), MaxChunkLen)
	}
	if !strings.Contains(got[1].Text, fence) {
		t.Errorf("the code fence was cut: %q", got[1].Text)
	}
	if got[2].Text != strings.Repeat("x", 2000) {
		t.Errorf("an over-long paragraph should stay whole in its own chunk; got %d bytes", len(got[2].Text))
	}
	var joined []string
	for _, c := range got {
		joined = append(joined, c.Text)
	}
	if j := strings.Join(joined, "\n\n"); j != strings.TrimPrefix(md, "## Long\n") {
		t.Errorf("the chunks do not add up to the section text")
	}
}

func TestMemoryChunks(t *testing.T) {
	doc := investigation.MemoryDocument{SessionID: "sess", Sections: []investigation.MemorySection{
		{Ref: "analysis/memory.md#method", Title: "Method", Text: "How the contributions were calculated."},
		{Ref: "analysis/iterations/iter_001.json", Title: "Finding find_001", Text: strings.Repeat("a", 1000) + "\n\n" + strings.Repeat("b", 1000)},
	}}
	got := MemoryChunks(doc)
	want := []Chunk{
		{Scope: "sess", Ref: "analysis/memory.md#method", Title: "Method", Text: "How the contributions were calculated."},
		{Scope: "sess", Ref: "analysis/iterations/iter_001.json", Title: "Finding find_001", Text: strings.Repeat("a", 1000)},
		{Scope: "sess", Ref: "analysis/iterations/iter_001.json", Title: "Finding find_001", Text: strings.Repeat("b", 1000)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MemoryChunks = %q; want %q", got, want)
	}
}
