package web_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/web"
)

// TestBrowserAnalysis starts an analysis from the form in headless
// Chromium, as e2e_test.go drives investigations: it uploads the sample
// sales export, follows the plan to its end, pages a table, verifies the
// log, and runs axe-core over each page.
func TestBrowserAnalysis(t *testing.T) {
	e := newEnv(t)
	b := newBrowser(t, e.srv.URL, true)

	b.open("/")
	b.click(`.site-nav a[href="/analyses"]`)
	b.waitFor("the analyses page", `!!document.querySelector("#analysis-form")`)
	b.checkA11y("analyses page")
	b.screenshot("analysis-01-form")

	// Starting without a request shows the error at its field and keeps
	// what was typed.
	b.set("#row_limit", "5000")
	b.click("#start-analysis")
	b.waitFor("an inline error", `!!document.querySelector("#intent-error")`)
	if got := b.value("#row_limit"); got != "5000" {
		t.Errorf("after the error the row limit reads %q; want 5000", got)
	}
	b.checkA11y("analyses page with an error")
	b.screenshot("analysis-02-form-error")

	sales, err := filepath.Abs(filepath.Join("..", "testdata", "analyze", "sales.csv"))
	if err != nil {
		t.Fatal(err)
	}
	b.set("#intent", richIntent)
	b.run("choose sales.csv", chromedp.SetUploadFiles(chromedp.CSS("#files"), []string{sales}))
	b.click("#start-analysis")
	b.waitFor("the analysis page", `location.pathname.startsWith("/analyses/") && !!document.querySelector("#plan")`)
	if evalJS[bool](b, `!!document.querySelector("#live-status")`) {
		b.screenshot("analysis-03-running")
	}

	// analysis.js reloads the page when the run ends; then every box of
	// the diagram and every step of the list says it succeeded.
	b.waitFor("every step to succeed", `(() => {
		const boxes = [...document.querySelectorAll("#plan-dag .dag-node")];
		return document.querySelector("#analysis-status")?.textContent === "Completed" && boxes.length > 0 &&
			boxes.every(g => g.classList.contains("status-succeeded") && g.querySelector(".dag-status").textContent === "✓ Succeeded");
	})()`)
	steps := evalJS[[]string](b, `[...document.querySelectorAll("#plan-steps > li .task-status")].map(s => s.textContent)`)
	if boxes := b.count("#plan-dag .dag-node"); len(steps) != boxes {
		t.Errorf("the list has %d steps and the diagram %d", len(steps), boxes)
	}
	for i, s := range steps {
		if s != "✓ Succeeded" {
			t.Errorf("step %d of the list reads %q; want ✓ Succeeded", i+1, s)
		}
	}
	// The answer comes first: the section right after the page's heading
	// is the answer, it opens with the summary's first figure, and the
	// artifacts and the plan come after it.
	if got := b.answerFirst(); got != "" {
		t.Error(got)
	}
	if got := evalJS[string](b, `document.querySelector("#answer-heading").nextElementSibling.id`); got != "summary" {
		t.Errorf("the answer opens with #%s; want the summary", got)
	}
	if first := b.text("#summary li"); !strings.HasPrefix(first, "Totals of sales (2021): amount 435,786.80") {
		t.Errorf("the answer opens with %q; want the totals", first)
	}

	b.waitFor("the charts to load", `[...document.querySelectorAll("#charts img")].every(i => i.complete)`)
	if n := b.count("#charts img"); n < 4 {
		t.Errorf("%d charts; want 4", n)
	}
	if broken := evalJS[[]string](b, `[...document.querySelectorAll("#charts img")].filter(i => i.naturalWidth === 0 || !i.alt).map(i => i.src)`); len(broken) > 0 {
		t.Errorf("charts that did not load or have no alt text: %v", broken)
	}

	// htmx pages the table in place.
	const table = `[...document.querySelectorAll(".result-table")].find(t => t.querySelector("h3").textContent.startsWith("Total amount by month and state"))`
	b.run("next page", chromedp.Evaluate[chromedp.Void](table+`.querySelector('.pagination a[href*="page=2"]').click()`))
	b.waitFor("the table's second page", table+`?.textContent.includes("page 2 of 3")`)
	if rows := evalJS[int](b, table+`.querySelectorAll("tbody tr").length`); rows != 25 {
		t.Errorf("the second page shows %d rows; want 25", rows)
	}

	b.click("#verify")
	b.waitFor("the verification", `!!document.querySelector("#verify-result #verify-ok")`)
	if got := b.text("#verify-result"); !strings.Contains(got, "OK") {
		t.Errorf("the verification reads %q", got)
	}
	b.checkA11y("analysis page")
	b.screenshot("analysis-04-page")

	b.open("/analyses")
	if got := b.text("table.analyses tbody"); !strings.Contains(got, "Completed") || !strings.Contains(got, richIntent) {
		t.Errorf("the list of analyses reads %q", got)
	}
	b.checkA11y("analyses page with an analysis")
	b.screenshot("analysis-05-list")
}

// TestBrowserAnalysisFailed uploads a file that is not what its name says:
// the analysis fails while loading it, and its page says so first, in
// red, before the plan that was never made.
func TestBrowserAnalysisFailed(t *testing.T) {
	e := newEnv(t)
	b := newBrowser(t, e.srv.URL, true)
	bad := filepath.Join(t.TempDir(), "sales.parquet")
	if err := os.WriteFile(bad, []byte("day,amount\n2024-01-01,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.open("/analyses")
	b.waitFor("the analyses page", `!!document.querySelector("#analysis-form")`)
	b.set("#intent", "total amount by day")
	b.run("choose sales.parquet", chromedp.SetUploadFiles(chromedp.CSS("#files"), []string{bad}))
	b.click("#start-analysis")
	b.waitFor("the failed analysis", `location.pathname.startsWith("/analyses/") && document.querySelector("#analysis-status")?.textContent === "Failed"`)
	if got := b.attr("#analysis-status", "className"); got != "badge badge-failed" {
		t.Errorf("the badge's class is %q; want badge badge-failed", got)
	}
	if got := b.answerFirst(); got != "" {
		t.Error(got)
	}
	if got := evalJS[string](b, `document.querySelector("#answer-heading").nextElementSibling.id`); got != "not-answered" {
		t.Errorf("the answer opens with #%s; want #not-answered", got)
	}
	if lead := b.text("#answer-lead"); !strings.HasPrefix(lead, "I could not answer this: sales.parquet could not be read") {
		t.Errorf("the answer reads %q", lead)
	}
	if got := b.text("#no-plan"); got != "No plan was made: the analysis ended before its steps were planned." {
		t.Errorf("the plan reads %q", got)
	}
	b.checkA11y("failed analysis page")
	b.screenshot("analysis-08-failed")
}

// TestBrowserAnalysisClarification shows an analysis that needs its
// request clarified (the result as the request parser records it): the
// words not understood, with why and the nearest columns, open the page,
// and the page passes axe-core.
func TestBrowserAnalysisClarification(t *testing.T) {
	f := unclearAnalysis()
	srv := httptest.NewServer(web.New(nil, web.Options{Analyses: f}))
	t.Cleanup(srv.Close)
	b := newBrowser(t, srv.URL, true)
	b.open("/analyses/" + f.res.RequestID)
	b.waitFor("the page", `!!document.querySelector("#answer")`)
	if got := b.text("#analysis-status"); got != "Needs clarification" {
		t.Errorf("the badge reads %q; want Needs clarification", got)
	}
	if got := b.answerFirst(); got != "" {
		t.Error(got)
	}
	if got := evalJS[[]string](b, `[...document.querySelectorAll("#clarification .not-understood li")].map(l => l.innerText)`); len(got) != 2 ||
		got[0] != "“high temperature”: no column or value is called that\nNearest in the data: temp_max, temp_min" {
		t.Errorf("the words not understood read %q", got)
	}
	b.checkA11y("analysis page that needs clarification")
	b.screenshot("analysis-09-clarification")
}

// answerFirst checks an analysis's page for the answer first: "" when the
// section after the page's heading is the answer and every other section
// of the page comes after it, else what is wrong.
func (b *browser) answerFirst() string {
	return evalJS[string](b, `(() => {
		const head = document.querySelector("#analysis > .page-head");
		const answer = document.querySelector("#answer");
		if (!answer) return "the page has no answer section";
		if (head.nextElementSibling !== answer) return "the page's heading is followed by #" + head.nextElementSibling.id + ", not the answer";
		if (answer.querySelector("h2")?.textContent !== "Answer") return "the answer section is not headed Answer";
		const late = [...document.querySelectorAll("#analysis > section")].filter(s => s !== answer &&
			!(answer.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING)).map(s => s.id || s.getAttribute("aria-labelledby"));
		return late.length ? "sections before the answer: " + late.join(", ") : "";
	})()`)
}

// TestBrowserAnalysisLive follows a running analysis whose events the test
// sends: analysis.js moves each step's box and list entry to its new
// status, then reloads the page when the analysis ends.
func TestBrowserAnalysisLive(t *testing.T) {
	f := runningAnalysis()
	srv := httptest.NewServer(web.New(nil, web.Options{Analyses: f}))
	t.Cleanup(srv.Close) // after the browser has closed its event stream
	b := newBrowser(t, srv.URL, true)

	b.open("/analyses/" + f.res.RequestID)
	b.waitFor("the diagram", `!!document.querySelector("#dag-node-by_state")`)
	b.checkA11y("running analysis page")
	b.screenshot("analysis-06-running")

	const state = `(id => [document.getElementById("dag-node-" + id).getAttribute("class"),
		document.querySelector("#dag-node-" + id + " .dag-status").textContent,
		document.getElementById("step-status-" + id).textContent].join("|"))`
	f.live <- analysis.Event{Step: "task", TaskID: "by_state", Status: analysis.TaskSucceeded}
	b.waitFor("by_state to succeed", state+`("by_state") === "dag-node status-succeeded|✓ Succeeded|✓ Succeeded"`)
	f.live <- analysis.Event{Step: "task", TaskID: "by_state_chart", Status: analysis.TaskRunning}
	f.live <- analysis.Event{Step: "task", TaskID: "by_state_chart", Status: "retry"}
	b.waitFor("by_state_chart to be retried", state+`("by_state_chart") === "dag-node status-running|↻ Retrying|↻ Retrying"`)
	if got := b.text("#live-status"); got != "Step by_state: succeeded." {
		t.Errorf("the status line reads %q", got)
	}
	b.screenshot("analysis-07-live")

	f.finish()
	b.waitFor("the finished page", `document.querySelector("#analysis-status")?.textContent === "Completed" && !document.querySelector("#live-status")`)
	if n := b.count("#plan-dag .dag-node.status-succeeded"); n != 6 {
		t.Errorf("%d boxes succeeded after the reload; want 6", n)
	}
}
