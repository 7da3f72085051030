package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/quarry-dev/quarry/investigation"
)

// firstScreen is the screen the report's answer must fit on.
const firstScreenWidth, firstScreenHeight = 1280, 800

// answerLayout is where the report page puts its answer, its ranked
// explanations and the first chart or table of evidence, in CSS pixels
// from the top of the page (getBoundingClientRect at scroll 0).
type answerLayout struct {
	Viewport     float64  `json:"viewport"`
	AnswerTop    float64  `json:"answerTop"`
	AnswerBottom float64  `json:"answerBottom"`
	Answer       string   `json:"answer"`
	RankedBottom float64  `json:"rankedBottom"`
	Ranked       []string `json:"ranked"`
	// EvidenceTop is the top of the first chart, table, code block or
	// folded SQL in the report, and Evidence names it.
	EvidenceTop float64 `json:"evidenceTop"`
	Evidence    string  `json:"evidence"`
}

// layoutJS measures answerLayout. The answer is the paragraph that opens
// with "Answer:", the ranked explanations the list after the heading
// "Explanations (Ranked by Likelihood)".
const layoutJS = `(() => {
	window.scrollTo(0, 0);
	const report = document.querySelector("#report");
	const answer = [...report.querySelectorAll("p")].find(p => p.querySelector("strong")?.textContent.trim() === "Answer:");
	const heading = [...report.querySelectorAll("h2, h3")].find(h => h.textContent.trim() === "Explanations (Ranked by Likelihood)");
	let list = heading;
	while (list && list.tagName !== "OL") list = list.nextElementSibling;
	const evidence = [...report.querySelectorAll("img, table, pre, details, svg")]
		.map(el => ({el, top: el.getBoundingClientRect().top}))
		.sort((a, b) => a.top - b.top)[0];
	return {
		viewport: window.innerHeight,
		answerTop: answer ? answer.getBoundingClientRect().top : -1,
		answerBottom: answer ? answer.getBoundingClientRect().bottom : -1,
		answer: answer ? answer.innerText : "",
		rankedBottom: list ? list.getBoundingClientRect().bottom : -1,
		ranked: list ? [...list.querySelectorAll(":scope > li")].map(li => li.innerText) : [],
		evidenceTop: evidence ? evidence.top : -1,
		evidence: evidence ? evidence.el.tagName + (evidence.el.getAttribute("aria-label") ? " " + evidence.el.getAttribute("aria-label") : "") : "",
	};
})()`

// TestBrowserReportAnswersFirst: on a 1280x800 screen the report page
// shows the answer and every ranked explanation, with their headline
// numbers, before any chart or table of evidence; the chat still answers,
// with the same number for the top explanation.
func TestBrowserReportAnswersFirst(t *testing.T) {
	e := newEnv(t)
	id := e.investigated()
	var got struct{ Explanations []investigation.Explanation }
	if err := json.Unmarshal(e.jsonReq(http.MethodGet, "/api/sessions/"+id+"/explanations", nil).body, &got); err != nil || len(got.Explanations) < 2 {
		t.Fatalf("explanations: %v, %d of them", err, len(got.Explanations))
	}

	b := newBrowser(t, e.srv.URL, true)
	if _, err := chromedp.Call(b.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: firstScreenWidth, Height: firstScreenHeight, DeviceScaleFactor: 1}); err != nil {
		t.Fatalf("a %dx%d screen: %v", firstScreenWidth, firstScreenHeight, err)
	}
	b.open("/sessions/" + id)
	b.waitFor("the report and its charts", `!!document.querySelector("#report img") && [...document.querySelectorAll("#report img")].every(i => i.complete)`)
	l := evalJS[answerLayout](b, layoutJS)
	if l.Viewport != firstScreenHeight {
		t.Fatalf("the screen is %v px high; want %d", l.Viewport, firstScreenHeight)
	}
	if l.AnswerTop < 0 || l.AnswerBottom > l.Viewport {
		t.Errorf("the answer spans %v..%v px; want it on the first %v px", l.AnswerTop, l.AnswerBottom, l.Viewport)
	}
	if len(l.Ranked) != len(got.Explanations) || l.RankedBottom > l.Viewport {
		t.Errorf("%d ranked explanations end at %v px; want all %d on the first %v px", len(l.Ranked), l.RankedBottom, len(got.Explanations), l.Viewport)
	}
	if l.EvidenceTop < l.RankedBottom {
		t.Errorf("the evidence (%s) starts at %v px, above the end of the ranked explanations at %v px", l.Evidence, l.EvidenceTop, l.RankedBottom)
	}
	top := got.Explanations[0]
	if !strings.Contains(l.Answer, "The top explanation is “"+top.Title+"”: "+top.Headline) {
		t.Errorf("the answer does not give the top explanation with its number %q:\n%s", top.Headline, l.Answer)
	}
	for i, e := range got.Explanations[:min(len(got.Explanations), len(l.Ranked))] {
		if !strings.HasPrefix(l.Ranked[i], e.Title) || !strings.Contains(l.Ranked[i], e.Headline) {
			t.Errorf("ranked explanation %d reads %q; want %q with %q", i+1, l.Ranked[i], e.Title, e.Headline)
		}
	}
	b.checkA11y("report page, answer first")
	b.screenshot("answer-first-1280x800")
	b.run("the first screen only", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))

	answer, _ := b.ask("Why did revenue fall?")
	if !strings.Contains(answer, top.Headline) {
		t.Errorf("the chat's answer lacks the top explanation's number %q:\n%s", top.Headline, answer)
	}
}
