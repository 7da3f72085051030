package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/quarry-dev/quarry/research"
)

// kestrelBroadQuestion asks about everything the sample corpus plants a
// contradiction in.
const kestrelBroadQuestion = "What changed in Kestrel Dynamics' finances, operations and legal exposure in 2024 and 2025?"

// newResearchBrowserEnv is newResearchEnv with a browser: requests
// without X-User come from alice, who owns room kestrel with the sample
// corpus.
func newResearchBrowserEnv(t *testing.T) *researchEnv {
	t.Helper()
	e := newKestrelEnv(t, "Kestrel Dynamics' filings and press")
	e.serveAs(nil, headerAuth{"alice": e.alice, "bob": e.bob, "": e.alice})
	return e
}

// TestBrowserResearch researches the sample corpus from the research
// page in headless Chromium: it starts a research over the room, watches
// the stages reach completed, reads the plan tree, the discrepancies
// (both sides, the one preferred and why) and the shared name, opens a
// citation of the narrative to its passage and source, with the mouse
// and with the keyboard, and follows the source to the room's page.
// axe-core checks every page and the open dialog.
func TestBrowserResearch(t *testing.T) {
	e := newResearchBrowserEnv(t)
	b := newBrowser(t, e.srv.URL, true)

	b.open("/research")
	b.waitFor("the research form", `!!document.querySelector("#research-form")`)
	if got := b.text("#researches-heading + .empty"); got == "" {
		t.Error("the research page does not say there is no research yet")
	}
	checkA11yAll(b, "research page")
	b.screenshot("research-01-form")

	// A question that is too short is refused at its field.
	b.set("#research-question", "revenue?")
	b.click("#start-research")
	b.waitFor("the question's error", `!!document.querySelector("#research-question-error")`)
	checkA11yAll(b, "research page with an error")

	b.set("#research-question", kestrelBroadQuestion)
	b.click("#depth-standard")
	if !evalJS[bool](b, fmt.Sprintf(`(s => !!s && (s.value = %q, s.value === %q))(document.querySelector("#research-room"))`, e.a.ID, e.a.ID)) {
		b.fail("the room picker does not offer room kestrel")
	}
	b.click("#start-research")
	b.waitFor("the research's page", `location.pathname.startsWith("/research/") && !!document.querySelector("#stages")`)
	id := strings.TrimPrefix(evalJS[string](b, `location.pathname`), "/research/")

	// The stages move on to completed; the page then has the report.
	b.waitFor("the research to complete", `document.querySelector("#stage-end")?.classList.contains("stage-done") && !!document.querySelector("#executive-summary")`)
	states := evalJS[[]string](b, `[...document.querySelectorAll("#stages > .stage")].map(li => li.dataset.stage + "=" + li.className.replace("stage stage-", ""))`)
	if got, want := strings.Join(states, " "), "planning=done executing=done verifying=done synthesizing=done completed=done"; got != want {
		t.Errorf("stages %s; want %s", got, want)
	}
	if n := evalJS[int](b, `document.querySelectorAll("#stages .stage-messages li").length`); n < 5 {
		t.Errorf("the stages say %d things; want each stage's messages", n)
	}
	if got := b.text("#research-status"); got != "Completed" {
		t.Errorf("the status badge reads %q; want Completed", got)
	}
	checkA11yAll(b, "research result page")
	b.screenshot("research-02-result")

	// The plan: 5-7 questions at the root (standard), the disputed
	// figures followed up one level down.
	roots := b.count("#plan-tree > .plan-node")
	followUps := b.count("#plan-tree > .plan-node > .plan-tree > .plan-node")
	if roots < 5 || roots > 7 || followUps == 0 {
		t.Errorf("the plan tree has %d roots and %d follow-ups; want 5-7 and some", roots, followUps)
	}
	if got := b.text("#plan-tree > .plan-node .priority"); got != "Priority 1" {
		t.Errorf("the first question of the plan reads %q; want Priority 1", got)
	}

	// The discrepancies: every one has two sides or more, each citing
	// its sources, and a resolution; the restated revenue prefers the
	// 10-K/A's figure by recency.
	type panel struct {
		Topic, Resolution, Why, Preferred string
		Sides                             []string
		Sources                           int
	}
	panels := evalJS[[]panel](b, `[...document.querySelectorAll("#discrepancies .discrepancy")].map(d => ({
		topic: d.querySelector("h3").innerText,
		resolution: d.querySelector(".resolution-text")?.innerText ?? "",
		why: d.querySelector(".resolution dd:nth-of-type(2)")?.innerText ?? "",
		preferred: d.querySelector(".side-preferred .side-value strong")?.innerText ?? "",
		sides: [...d.querySelectorAll(".side .side-value strong")].map(s => s.innerText),
		sources: d.querySelectorAll(".side-sources li .source").length}))`)
	if len(panels) < 4 {
		t.Errorf("%d discrepancy panels; want the 4 planted", len(panels))
	}
	var revenue *panel
	for i, p := range panels {
		if len(p.Sides) < 2 || p.Sources < 2 || p.Resolution == "" || p.Why == "" {
			t.Errorf("discrepancy %q: sides %q from %d sources, resolution %q, why %q; want both sides with sources and a resolution", p.Topic, p.Sides, p.Sources, p.Resolution, p.Why)
		}
		if strings.Contains(p.Topic, "revenue") {
			revenue = &panels[i]
		}
	}
	if revenue == nil || revenue.Preferred != "$46.9 million" || !strings.Contains(strings.Join(revenue.Sides, "|"), "$48.2 million") || !strings.HasPrefix(revenue.Why, "Recency") {
		t.Errorf("the revenue panel %+v; want $46.9 million preferred over $48.2 million by recency", revenue)
	}
	if got := b.text("#ambiguities"); !strings.Contains(got, "Not a conflict") || !strings.Contains(got, "Kestrel Dynamics Ltd") {
		t.Errorf("the shared names read %q; want Kestrel Dynamics Ltd told apart, not a conflict", got)
	}

	// A citation in the narrative opens its passage and source.
	v := e.view("alice", id)
	facts := map[string]research.FactView{}
	for _, f := range v.Facts {
		facts[f.ID] = f
	}
	const cite = "#executive-summary .cite-ref"
	factID := evalJS[string](b, fmt.Sprintf(`document.querySelector(%q).dataset.fact`, cite))
	fact, ok := facts[factID]
	if !ok {
		t.Fatalf("the first citation names fact %q, which the research does not have", factID)
	}
	b.click(cite)
	b.waitFor("the citation's dialog", `document.querySelector("#citation-dialog")?.open === true`)
	if got := norm(b.text("#citation-body .cite-passage")); got == "" || got != norm(fact.Passage) {
		t.Errorf("the dialog quotes %q; want the fact's passage %q", got, fact.Passage)
	}
	source := b.text("#citation-body .cite-source")
	if !strings.Contains(source, fact.SourceTitle) {
		t.Errorf("the dialog's source reads %q; want %q", source, fact.SourceTitle)
	}
	pageHref := evalJS[string](b, `document.querySelector("#citation-body .source-link")?.getAttribute("href") ?? ""`)
	if !strings.HasPrefix(pageHref, "/rooms/"+e.a.ID+"/documents/") || !strings.Contains(pageHref, "/pages/") {
		t.Errorf("the source links to %q; want the room's page view", pageHref)
	}
	checkA11yAll(b, "research page with a citation open")
	b.screenshot("research-03-citation")
	b.run("press Escape", chromedp.KeyEvent(kb.Escape))
	b.waitFor("the dialog to close and give the focus back", fmt.Sprintf(`!document.querySelector("#citation-dialog").open && document.activeElement === document.querySelector(%q)`, cite))

	// With the keyboard: Enter on a citation of a section opens it too.
	const sectionCite = ".narrative:not(#executive-summary) .cite-ref"
	evalJS[bool](b, fmt.Sprintf(`(document.querySelector(%q).focus(), true)`, sectionCite))
	// Enter's key down follows the link and its key press must not go on
	// to press a button of the dialog it opened.
	b.run("press Enter", chromedp.KeyEvent(kb.Enter))
	b.waitFor("the dialog opened by the keyboard", `document.querySelector("#citation-dialog")?.open === true`)
	want := facts[evalJS[string](b, fmt.Sprintf(`document.querySelector(%q).dataset.fact`, sectionCite))]
	if got := norm(b.text("#citation-body .cite-passage")); got != norm(want.Passage) {
		t.Errorf("Enter on a section's citation shows %q; want %q", got, want.Passage)
	}
	// Its link to the table closes it and shows the fact's row.
	b.click("#citation-fact-link")
	b.waitFor("the fact's row", fmt.Sprintf(`!document.querySelector("#citation-dialog").open && document.activeElement?.id === %q`, "fact-"+want.ID))

	// The source opens the room's page with the passage on it.
	b.open(pageHref)
	b.waitFor("the cited page", `!!document.querySelector(".page-text")`)
	if got := norm(b.text(".page-text")); !strings.Contains(got, norm(fact.Passage)) {
		t.Errorf("the cited page's text lacks the passage %q:\n%.1500s", fact.Passage, got)
	}

	// The research is in the list.
	b.open("/research")
	b.waitFor("the list of researches", `!!document.querySelector("table.researches")`)
	if got := b.text("table.researches tbody tr"); !strings.Contains(got, kestrelBroadQuestion) || !strings.Contains(got, "Completed") {
		t.Errorf("the list's row reads %q; want the question, completed", got)
	}
	checkA11yAll(b, "research page with a research")
	b.screenshot("research-04-list")
}

// norm is s with its white space collapsed.
func norm(s string) string { return strings.Join(strings.Fields(s), " ") }
