package web

import (
	"html/template"
	"regexp"
	"strings"
	"testing"
)

// FuzzRenderMarkdown renders arbitrary Markdown as the report page and a
// chat message do: it never panics or fails, its HTML stays within a
// constant factor of the source, no raw HTML from the source gets through
// (a script tag, an event handler, a javascript: link), headings stay
// within h1..h6, and the data model is placed exactly once.
func FuzzRenderMarkdown(f *testing.F) {
	f.Add("# Revenue Investigation Report\n\n## Data Model\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n![chart](charts/waterfall.png)\n", true, 2)
	f.Add("  <details><summary>SQL</summary>\n\n  ```sql\n  SELECT 1\n  ```\n\n  </details>\n", false, 3)
	f.Add("<script>alert(1)</script>\n[x](javascript:alert(1))\n<img src=x onerror=alert(1)>", true, 1)
	f.Add("###### deep\n# top\n### skip\n", false, 6)
	f.Add("[a](../files/data.csv) [b](charts/../../audit.jsonl) [c](results/explanations.json#1)", true, 2)
	f.Add("|"+strings.Repeat("a|", 50)+"\n|"+strings.Repeat("-|", 50)+"\n"+strings.Repeat("x\n", 50), false, 2)
	f.Fuzz(func(t *testing.T, src string, report bool, top int) {
		md, opt := chatMarkdown, markdownOptions{SessionID: "s1", TopLevel: 1 + (top%5+5)%5}
		if report {
			md, opt.Title, opt.DataModel = reportMarkdown, true, template.HTML(`<div id="dm-marker"></div>`)
		}
		out, err := renderMarkdown(md, src, opt)
		if err != nil {
			t.Fatalf("renderMarkdown: %v", err)
		}
		html := string(out.HTML)
		// A GFM table pads every row to its header's columns, so a wide
		// header over many short rows makes cells quadratic in the source
		// (50 columns by 50 one-letter rows: 300 bytes become 2,500 cells).
		// renderMarkdown bounds them (maxTableCells); everything else is
		// linear in the source.
		cells := strings.Count(html, "<td") + strings.Count(html, "<th")
		if cells > maxTableCells {
			t.Fatalf("renderMarkdown of %d bytes made %d table cells; the budget is %d", len(src), cells, maxTableCells)
		}
		if len(html) > 64*len(src)+32*cells+4096 {
			t.Fatalf("renderMarkdown of %d bytes gave %d bytes of HTML (%d table cells)", len(src), len(html), cells)
		}
		lower := strings.ToLower(html)
		for _, bad := range []string{"<script", "<img src=x", "<iframe"} {
			if strings.Contains(lower, bad) {
				t.Fatalf("renderMarkdown(%q) lets %q through:\n%s", src, bad, html)
			}
		}
		if jsLink.MatchString(lower) {
			t.Fatalf("renderMarkdown(%q) links to javascript:\n%s", src, html)
		}
		if onHandler.MatchString(lower) {
			t.Fatalf("renderMarkdown(%q) lets an event handler through:\n%s", src, html)
		}
		if report && strings.Count(html, "dm-marker") != 1 {
			t.Fatalf("renderMarkdown placed the data model %d times", strings.Count(html, "dm-marker"))
		}
		if badHeading.MatchString(html) {
			t.Fatalf("renderMarkdown(%q) made a heading outside h1..h6:\n%s", src, html)
		}
	})
}

var (
	// onHandler is an attribute of a tag the renderer wrote, not text.
	onHandler  = regexp.MustCompile(`<[a-z][^>]*\son[a-z]+\s*=`)
	jsLink     = regexp.MustCompile(`(href|src)\s*=\s*"\s*javascript:`)
	badHeading = regexp.MustCompile(`<h(0|[7-9]|\d\d)`)
)

// TestRenderMarkdownTableBudget: a table whose padded cells would be
// quadratic in its text is shown as text, and a report's table is not.
func TestRenderMarkdownTableBudget(t *testing.T) {
	wide := "|" + strings.Repeat("a|", 5000) + "\n|" + strings.Repeat("-|", 5000) + "\n" + strings.Repeat("x\n", 20000)
	out, err := renderMarkdown(chatMarkdown, wide, markdownOptions{TopLevel: 3})
	if err != nil {
		t.Fatal(err)
	}
	if cells := strings.Count(string(out.HTML), "<td"); cells != 0 || !strings.Contains(string(out.HTML), `<pre class="md-plain">`) {
		t.Fatalf("a 5,000-column table over 20,000 rows made %d cells; want it shown as text", cells)
	}
	normal := "| Period | Amount |\n|---|--:|\n" + strings.Repeat("| 2024-03-01 | 5 |\n", 200)
	out, _ = renderMarkdown(chatMarkdown, normal, markdownOptions{TopLevel: 3})
	if cells := strings.Count(string(out.HTML), "<td"); cells != 400 {
		t.Fatalf("a 2-column, 200-row table made %d cells; want 400", cells)
	}
}
