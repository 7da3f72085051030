package web_test

// The browser tests drive the real pages in headless Chromium the way a
// newcomer would: they click, type, upload files and read what the page
// shows, then run axe-core over each page and keep full-page screenshots.
//
// They need Debian's chromium and the axe-core pinned in tools/axe:
//
//	apt-get install -y --no-install-recommends chromium
//	npm ci --prefix tools/axe
//
// $QUARRY_CHROMIUM and $QUARRY_AXE_JS override where they are looked for,
// and $QUARRY_SCREENSHOTS where the screenshots go. Without the tools the
// tests skip, except under CI=true, where they fail.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/quarry-dev/quarry/internal/sampledata"
)

// browserTimeout bounds one browser test from start to end, and
// waitTimeout one wait for the page to show something.
const (
	browserTimeout = 4 * time.Minute
	waitTimeout    = 90 * time.Second
)

// revenueSegment is the top cause of the revenue_drop sample.
const revenueSegment = "platform=android AND app_version=5.2"

func TestBrowserInvestigation(t *testing.T) {
	scenario, _ := sampledata.Get("revenue_drop")
	e := newEnv(t)
	b := newBrowser(t, e.srv.URL, true)

	b.open("/")
	b.checkA11y("home page")
	b.click("#new-session")
	b.waitFor("the investigation form", `!!document.querySelector("#file-input") && location.pathname.startsWith("/sessions/")`)

	b.upload("orders.csv", "One row per order placed in the shop in March 2024.")
	b.upload("customers.csv", "One row per customer account.")
	cards := b.fileCards()
	for _, want := range []struct{ name, rows string }{{"orders.csv", "34,179"}, {"customers.csv", "6,000"}} {
		if !strings.Contains(cards[want.name].text, want.rows) {
			t.Errorf("the card of %s reads %q; want its row count %s", want.name, cards[want.name].text, want.rows)
		}
	}

	// Edit a description, save it, and see it kept after a reload.
	const described = "Customer accounts with their segment: consumer, smb or enterprise."
	card := fmt.Sprintf(`.file-card[data-file-id=%q]`, cards["customers.csv"].id)
	b.set(card+` textarea[name="description"]`, described)
	b.click(card + ` .description-form button[type="submit"]`)
	// With htmx the card says it saved; a click that lands before htmx
	// has taken the form (a loaded machine) posts it plainly, and the
	// server answers with the page at the card.
	b.waitFor("the description saved", fmt.Sprintf(`!!document.querySelector(%q) || location.hash === %q`,
		card+" .saved", "#file-"+cards["customers.csv"].id))
	b.reload()
	if got := b.value(card + ` textarea[name="description"]`); got != described {
		t.Errorf("after saving and reloading the description reads %q; want %q", got, described)
	}
	b.checkA11y("form page with files")
	b.screenshot("01-form")

	// Starting without a metric shows an inline error, and the form keeps
	// what was typed.
	b.fillInvestigation(scenario, "")
	b.click("#start")
	b.waitFor("an inline error", `!!document.querySelector(".field-error")`)
	if got := b.value("#business_context"); got != scenario.Context {
		t.Errorf("after the error the business context reads %q; want what was typed", got)
	}
	b.checkA11y("form page with an error")
	b.screenshot("02-form-error")

	b.fillInvestigation(scenario, scenario.MetricSQL)
	b.click("#start")
	seen := b.waitForEither("progress or the report", "#report", "#progress li")
	if seen == "#progress li" {
		b.screenshot("02-progress")
	}
	b.waitFor("the report", `!!document.querySelector("#report")`)
	iterations := evalJS[int](b, `[...document.querySelectorAll("#progress li")].filter(li => /Iteration \d/.test(li.textContent)).length`)
	if seen != "#progress li" && iterations == 0 {
		t.Error("neither the running page nor the report lists the iterations in #progress")
	}

	report := b.text("#report")
	if !strings.Contains(report, revenueSegment) {
		t.Errorf("the report does not name %q:\n%.2000s", revenueSegment, report)
	}
	b.waitFor("the charts to load", `[...document.querySelectorAll("#report img")].every(i => i.complete)`)
	if n := b.count("#report img"); n == 0 {
		t.Error("the report has no chart")
	}
	if broken := evalJS[[]string](b, `[...document.querySelectorAll("#report img")].filter(i => i.naturalWidth === 0).map(i => i.src)`); len(broken) > 0 {
		t.Errorf("charts that did not load: %v", broken)
	}
	if b.count("#data-model svg") == 0 {
		t.Error("no data model diagram (#data-model svg)")
	}
	b.checkA11y("report page")
	b.screenshot("03-report")

	b.ask("How did you calculate the contribution?")
	answer, _ := b.ask("Which hypotheses were ruled out and why?")
	if !strings.Contains(answer, "hyp_") {
		t.Errorf("the answer on ruled-out hypotheses names no hypothesis (hyp_...): %q", answer)
	}
	b.checkA11y("report page with chat")
	b.screenshot("04-report-chat")

	download := b.attr("#download-report", "href")
	if names := zipNames(t, download); !names["report.md"] {
		t.Errorf("the download %s lacks report.md; it holds %v", download, names)
	}
}

func TestBrowserWithoutJavaScript(t *testing.T) {
	scenario, _ := sampledata.Get("revenue_drop")
	e := newEnv(t)
	b := newBrowser(t, e.srv.URL, false)

	b.open("/")
	if evalJS[bool](b, `typeof htmx !== "undefined"`) {
		t.Fatal("htmx ran although JavaScript is disabled")
	}
	b.click("#new-session")
	b.waitFor("the investigation form", `!!document.querySelector("#file-input")`)
	b.upload("orders.csv", "One row per order placed in the shop in March 2024.")
	b.screenshot("nojs-01-form")

	b.fillInvestigation(scenario, scenario.MetricSQL)
	b.click("#start")
	// While the run goes on, a <noscript> meta refresh reloads the page.
	b.waitFor("the report after the page reloads itself", `!!document.querySelector("#report")`)
	if report := b.text("#report"); !strings.Contains(report, revenueSegment) {
		t.Errorf("the report does not name %q:\n%.2000s", revenueSegment, report)
	}
	answer, _ := b.ask("Which hypotheses were ruled out and why?")
	if !strings.Contains(answer, "hyp_") {
		t.Errorf("the answer on ruled-out hypotheses names no hypothesis (hyp_...): %q", answer)
	}
	b.screenshot("nojs-02-report")
}

// browser is one headless Chromium tab pointed at a test server.
type browser struct {
	t     *testing.T
	ctx   context.Context
	base  string // the server's URL
	axe   string // axe-core's source
	shots string // where screenshots go
	js    bool   // JavaScript is on
}

// newBrowser starts Chromium for one test, with JavaScript on or off; it
// stops with the test.
func newBrowser(t *testing.T, base string, js bool) *browser {
	t.Helper()
	chromium := findTool(t, "chromium", "apt-get install -y --no-install-recommends chromium",
		os.Getenv("QUARRY_CHROMIUM"), "/usr/bin/chromium", lookPath("chromium"))
	axePath := findTool(t, "axe-core", "npm ci --prefix tools/axe",
		os.Getenv("QUARRY_AXE_JS"), filepath.Join("..", "tools", "axe", "node_modules", "axe-core", "axe.min.js"))
	axe, err := os.ReadFile(axePath)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancelTab := chromedp.NewContext(ctx)
	var watch sync.WaitGroup
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		cancel()
		watch.Wait()
	})
	b := &browser{t: t, ctx: ctx, base: base, axe: string(axe), shots: screenshotDir(t), js: js}
	b.run("start chromium " + chromium)
	if !js {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatalf("disable JavaScript: %v", err)
		}
	}
	// A script error in a page fails the test.
	watch.Go(func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.IsException() {
				t.Errorf("uncaught exception in the page %s:%d: %s", m.URL, m.Line+1, m.Text)
			}
		}
	})
	return b
}

// findTool returns the first existing candidate path. Without one the
// test fails under CI=true and skips elsewhere, saying how to install it.
func findTool(t *testing.T, name, install string, candidates ...string) string {
	t.Helper()
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	msg := fmt.Sprintf("%s not found (looked at %q); install it with: %s", name, candidates, install)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func lookPath(name string) string {
	p, _ := exec.LookPath(name)
	return p
}

// screenshotDir is $QUARRY_SCREENSHOTS or a directory under the system's
// temporary directory.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("QUARRY_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "quarry-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run performs actions on the tab and fails the test on an error.
func (b *browser) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.fail("%s: %v", what, err)
	}
}

// fail ends the test with a screenshot of the page as it was.
func (b *browser) fail(format string, args ...any) {
	b.t.Helper()
	msg := fmt.Sprintf(format, args...)
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if url, err := chromedp.Run(ctx, chromedp.Location()); err == nil {
		msg += "\npage: " + url
	}
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		path := filepath.Join(b.shots, "failed-"+strings.ReplaceAll(b.t.Name(), "/", "-")+".png")
		if os.WriteFile(path, png, 0o644) == nil {
			msg += "\nscreenshot: " + path
		}
	}
	b.t.Fatal(msg)
}

func (b *browser) open(path string) {
	b.t.Helper()
	b.run("open "+path, chromedp.Navigate(b.base+path))
}

func (b *browser) reload() {
	b.t.Helper()
	b.run("reload", chromedp.Reload())
}

func (b *browser) click(sel string) {
	b.t.Helper()
	b.run("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// evalJS evaluates a JavaScript expression in the page and decodes its
// value; a promise is awaited.
func evalJS[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.fail("evaluate %.200s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds, for up to
// waitTimeout. Errors while a new page loads are retried.
func (b *browser) waitFor(what, cond string) {
	b.t.Helper()
	b.waitUntil(what, `(`+cond+`) ? "yes" : ""`)
}

// waitForEither waits until one of the selectors matches and returns it.
func (b *browser) waitForEither(what string, sels ...string) string {
	b.t.Helper()
	list, _ := json.Marshal(sels)
	return b.waitUntil(what, fmt.Sprintf(`%s.find(s => document.querySelector(s)) ?? ""`, list))
}

// waitUntil polls a JavaScript expression until it gives a non-empty
// string and returns it.
func (b *browser) waitUntil(what, expr string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
	defer cancel()
	var last error
	for {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err == nil && got != "" {
			return got
		}
		if err != nil && ctx.Err() == nil {
			last = err
		}
		select {
		case <-ctx.Done():
			b.fail("waiting for %s: %v (last error: %v)", what, ctx.Err(), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (b *browser) count(sel string) int {
	b.t.Helper()
	return evalJS[int](b, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

// text is the rendered text of the first element matching sel.
func (b *browser) text(sel string) string {
	b.t.Helper()
	return evalJS[string](b, fmt.Sprintf(`document.querySelector(%q)?.innerText ?? ""`, sel))
}

func (b *browser) value(sel string) string {
	b.t.Helper()
	return evalJS[string](b, fmt.Sprintf(`document.querySelector(%q)?.value ?? ""`, sel))
}

// attr is an attribute as the DOM resolves it (an href is absolute).
func (b *browser) attr(sel, name string) string {
	b.t.Helper()
	return evalJS[string](b, fmt.Sprintf(`document.querySelector(%q)?.[%q] ?? ""`, sel, name))
}

// set puts a value into a field. Date inputs are set directly since typing
// into them depends on the locale.
func (b *browser) set(sel, value string) {
	b.t.Helper()
	v, _ := json.Marshal(value)
	if !evalJS[bool](b, fmt.Sprintf(`(f => !!f && (f.value = %s, true))(document.querySelector(%q))`, v, sel)) {
		b.fail("no field %s to fill", sel)
	}
}

// upload sends one sample file through the upload form with a description
// and waits for its card.
func (b *browser) upload(name, description string) {
	b.t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "testdata", "revenue_drop", name))
	if err != nil {
		b.t.Fatal(err)
	}
	before := b.count(".file-card")
	b.run("choose "+name, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{path}))
	b.set("#file-description", description)
	b.click("#upload-button")
	b.waitFor("the card of "+name, fmt.Sprintf(`document.querySelectorAll(".file-card").length > %d`, before))
}

// fileCard is one uploaded file as its card shows it.
type fileCard struct{ id, text string }

// fileCards returns the cards by the file name they show.
func (b *browser) fileCards() map[string]fileCard {
	b.t.Helper()
	var cards []fileCard
	raw := evalJS[[][2]string](b, `[...document.querySelectorAll("#file-list .file-card")].map(c => [c.dataset.fileId, c.innerText])`)
	for _, c := range raw {
		cards = append(cards, fileCard{id: c[0], text: c[1]})
	}
	byName := map[string]fileCard{}
	for _, c := range cards {
		for _, name := range []string{"orders.csv", "customers.csv"} {
			if strings.Contains(c.text, name) {
				byName[name] = c
			}
		}
	}
	if len(cards) != 2 || len(byName) != 2 {
		b.fail("want one card for each of orders.csv and customers.csv in #file-list; got %q", cards)
	}
	return byName
}

// fillInvestigation fills the investigation fields from the scenario with
// the given metric.
func (b *browser) fillInvestigation(s sampledata.Scenario, metric string) {
	b.t.Helper()
	b.set("#metric_sql", metric)
	b.set("#business_context", s.Context)
	b.set("#baseline_start", s.Baseline.Start.String())
	b.set("#baseline_end", s.Baseline.End.String())
	b.set("#comparison_start", s.Comparison.Start.String())
	b.set("#comparison_end", s.Comparison.End.String())
	b.set("#investigation_prompt", s.Prompt)
}

// ask sends a chat question and returns the answer's text and the
// sources it cites.
func (b *browser) ask(question string) (answer string, sources []string) {
	b.t.Helper()
	before := b.count(".chat-message.assistant")
	b.run("ask "+question,
		chromedp.SendKeys(chromedp.CSS("#chat-message"), question),
		chromedp.Click(chromedp.CSS("#chat-send")),
	)
	b.waitFor("the answer to "+question, fmt.Sprintf(`document.querySelectorAll(".chat-message.assistant").length > %d`, before))
	users := evalJS[[]string](b, `[...document.querySelectorAll(".chat-message.user")].map(m => m.innerText)`)
	if len(users) == 0 || !strings.Contains(users[len(users)-1], question) {
		b.t.Errorf("the chat does not show the question %q; user messages: %q", question, users)
	}
	const last = `[...document.querySelectorAll(".chat-message.assistant")].at(-1)`
	answer = evalJS[string](b, last+`.querySelector(".chat-body")?.innerText ?? ""`)
	sources = evalJS[[]string](b, `[...`+last+`.querySelectorAll(".chat-refs a")].map(a => a.innerText)`)
	if strings.TrimSpace(answer) == "" {
		b.t.Errorf("empty answer to %q", question)
	}
	if len(sources) == 0 {
		b.t.Errorf("the answer to %q cites no sources: %q", question, answer)
	}
	if cites := evalJS[int](b, last+`.querySelectorAll(".chat-body a[href*='/artifacts/']").length`); cites == 0 {
		b.t.Errorf("the answer to %q has no inline citation links", question)
	}
	// With JavaScript the newest answer is scrolled into view (chat.js,
	// after htmx settles); without it the page jumps to #chat-messages.
	if !b.js {
		return answer, sources
	}
	b.waitFor("the chat scrolled to the newest answer", `(() => { const m = document.getElementById("chat-messages"); return m.scrollHeight - m.scrollTop - m.clientHeight < 4 })()`)
	return answer, sources
}

// screenshot saves a full-page PNG of the tab as name.png (a quality
// below 100 would give a JPEG).
// A page caught while it reloads (analysis.js reloads when a run ends)
// has no layout yet: the screenshot is taken again once it has.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	var png []byte
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		// "0 width": the page is still laid out; "Not attached to an
		// active page": it is reloading (analysis.js reloads when a run
		// ends); a capture begun as the reload starts may never answer,
		// so each attempt has its own deadline. All pass in a moment.
		ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
		png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
		timedOut := ctx.Err() != nil && b.ctx.Err() == nil
		cancel()
		if err == nil || !timedOut && !strings.Contains(err.Error(), "0 width") && !strings.Contains(err.Error(), "Not attached to an active page") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		b.fail("screenshot %s: %v", name, err)
	}
	path := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", path)
}

// axeViolation is one failed rule of an axe-core run.
type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

// checkA11y runs axe-core's WCAG 2.1 A and AA rules over the page and fails
// on serious or critical violations; lesser ones are logged.
func (b *browser) checkA11y(page string) {
	b.t.Helper()
	for _, v := range b.axeViolations() {
		msg := fmt.Sprintf("axe on the %s: %s (%s): %s; at %s", page, v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
		if v.Impact == "serious" || v.Impact == "critical" {
			b.t.Error(msg)
		} else {
			b.t.Log(msg)
		}
	}
}

// axeViolations runs axe-core's WCAG 2.1 A and AA rules over the page.
func (b *browser) axeViolations() []axeViolation {
	b.t.Helper()
	if !evalJS[bool](b, `typeof axe !== "undefined"`) {
		b.run("inject axe-core", chromedp.Evaluate[chromedp.Void](b.axe))
	}
	return evalJS[[]axeViolation](b, `axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})
		.then(r => r.violations.map(v => ({id: v.id, impact: v.impact ?? "", help: v.help, targets: v.nodes.map(n => n.target.join(" "))})))`)
}

// zipNames downloads a zip and returns the names of its entries.
func zipNames(t *testing.T, url string) map[string]bool {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %.300s", url, res.StatusCode, body)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("GET %s is not a zip: %v", url, err)
	}
	names := map[string]bool{}
	for _, f := range zr.File {
		names[f.Name] = true
	}
	return names
}
