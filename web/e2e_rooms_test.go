package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/quarry-dev/quarry/docparse"
)

// TestBrowserRooms drives a data room in headless Chromium as e2e_test.go
// drives investigations: create a room, upload a PDF and watch it be
// processed without reloading, ask a question answered on page 2, rate
// the answer, open the citation, and check that the page image loaded
// with a highlight over the cited words. axe-core checks every page.
func TestBrowserRooms(t *testing.T) {
	e := newRoomsEnvAs(t, "alice")
	b := newBrowser(t, e.srv.URL, true)
	pdf := filepath.Join(t.TempDir(), "harbor-10k.pdf")
	if err := os.WriteFile(pdf, filingPDF(), 0o644); err != nil {
		t.Fatal(err)
	}

	b.open("/rooms")
	b.waitFor("the rooms page", `!!document.querySelector("#new-room-form")`)
	if b.count(`.site-nav a[href="/rooms"]`) != 1 {
		t.Error(`the navigation has no "Data rooms" link`)
	}
	checkA11yAll(b, "rooms page")
	b.screenshot("rooms-01-list")

	b.set("#room-name", "Harbor diligence")
	b.click("#create-room")
	b.waitFor("the new room", `location.pathname.startsWith("/rooms/") && !!document.querySelector("#upload-form")`)
	checkA11yAll(b, "empty room page")

	// Upload: the browser reports the bytes sent, the row comes in, and
	// the room's events take it to completed without a reload.
	evalJS[bool](b, `(() => { window.stayed = true; window.sent = [];
		document.querySelector("#upload-form").addEventListener("htmx:xhr:progress", () => window.sent.push(document.querySelector("#upload-progress").value));
		return true })()`)
	b.run("choose the PDF", chromedp.SetUploadFiles(chromedp.CSS("#document-file"), []string{pdf}))
	b.click("#upload-button")
	b.waitFor("the document's row", `!!document.querySelector("#documents .doc-row")`)
	b.waitFor("the document to be processed", `document.querySelector("#documents .doc-row")?.dataset.status === "completed"`)
	if !evalJS[bool](b, `window.stayed === true`) {
		t.Error("the page reloaded while the document was processed; the events should have updated it")
	}
	if sent := evalJS[[]float64](b, `window.sent`); len(sent) == 0 || sent[len(sent)-1] != 100 {
		t.Errorf("upload progress values %v; want progress events ending at 100", sent)
	}
	row := b.text("#documents .doc-row")
	if !strings.Contains(row, "harbor-10k.pdf") || !strings.Contains(row, "Completed") || !strings.Contains(row, "2") {
		t.Errorf("the document's row reads %q; want its name, Completed and 2 pages", row)
	}
	if b.text("#upload-status") == "" {
		t.Error("the upload said nothing in its status line")
	}
	checkA11yAll(b, "room page with a document")
	b.screenshot("rooms-02-document")

	// Ask: the answer comes in above the others, with numbered citations.
	b.set("#question", capexQuestion)
	b.click("#ask-button")
	b.waitFor("the answer", `!!document.querySelector("#answers .answer")`)
	answer := b.text("#answers .answer .answer-text")
	if !strings.Contains(answer, capex) {
		t.Errorf("the answer %q does not quote %s", answer, capex)
	}
	if got := b.text("#answers .answer .citation-link"); !strings.Contains(got, "harbor-10k.pdf, page 2") {
		t.Errorf("the first citation reads %q; want harbor-10k.pdf, page 2", got)
	}
	if b.value("#question") != "" {
		t.Error("the ask box kept the question after the answer came")
	}
	if b.count("#answers .answer .cite-ref") == 0 {
		t.Error("the answer's text has no numbered citation")
	}

	b.set(`#answers .answer textarea[name="comment"]`, "Right page, right number.")
	b.click(`#answers .answer button[value="helpful"]`)
	b.waitFor("the feedback saved", `/saved as helpful/.test(document.querySelector("#answers .answer .feedback-state")?.textContent ?? "")`)
	checkA11yAll(b, "room page with an answer")
	b.screenshot("rooms-03-answer")

	// The citation opens page 2 as an image with the cited words
	// highlighted.
	b.click("#answers .answer .citation-link")
	b.waitFor("the page image", `location.pathname.endsWith("/pages/2") && (i => !!i && i.complete && i.naturalWidth > 0)(document.querySelector("#page-image"))`)
	if n := b.count(".page-highlights .highlight"); n == 0 {
		b.fail("no highlight over the page image")
	}
	layout, err := docparse.WordBoxes(context.Background(), pdf, 2)
	if err != nil {
		t.Fatal(err)
	}
	var cited *docparse.Word
	for i, w := range layout.Words {
		if strings.Contains(w.Text, capex) {
			cited = &layout.Words[i]
		}
	}
	if cited == nil {
		t.Fatalf("poppler finds no %s on page 2", capex)
	}
	// The word's box, scaled to the image as the browser shows it, must
	// lie inside one of the highlight boxes.
	overlap := evalJS[bool](b, fmt.Sprintf(`(() => {
		const img = document.querySelector("#page-image").getBoundingClientRect();
		const sx = img.width / %g, sy = img.height / %g;
		const w = {l: img.left + %g * sx, t: img.top + %g * sy, r: img.left + %g * sx, b: img.top + %g * sy};
		return [...document.querySelectorAll(".page-highlights .highlight")].some(h => {
			const r = h.getBoundingClientRect();
			return r.left <= w.l + 1 && r.right >= w.r - 1 && r.top <= w.t + 1 && r.bottom >= w.b - 1;
		});
	})()`, layout.Width, layout.Height, cited.XMin, cited.YMin, cited.XMax, cited.YMax))
	if !overlap {
		b.fail("no highlight box covers the cited words %q on the page image", cited.Text)
	}
	// Only the sentence that answers is highlighted, not the chunk's
	// next sentence ("... funded from operating cash flow.").
	for _, w := range layout.Words {
		if w.Text != "operating" {
			continue
		}
		covered := evalJS[bool](b, fmt.Sprintf(`(() => {
			const img = document.querySelector("#page-image").getBoundingClientRect();
			const sx = img.width / %g, sy = img.height / %g;
			const cx = img.left + %g * sx, cy = img.top + %g * sy;
			return [...document.querySelectorAll(".page-highlights .highlight")].some(h => {
				const r = h.getBoundingClientRect();
				return r.left <= cx && r.right >= cx && r.top <= cy && r.bottom >= cy;
			});
		})()`, layout.Width, layout.Height, (w.XMin+w.XMax)/2, (w.YMin+w.YMax)/2))
		if covered {
			t.Error(`the highlight covers "operating", in the sentence after the one that answers`)
		}
	}
	if got := b.text("#passage-text"); !strings.Contains(got, capex) {
		t.Errorf("the marked passage in the page's text reads %q", got)
	}
	checkA11yAll(b, "cited page")
	b.screenshot("rooms-04-cited-page")

	b.click("#back-to-answer")
	b.waitFor("the answer page", `location.pathname.includes("/queries/") && !!document.querySelector(".answer")`)
	if !strings.Contains(b.text(".answer .feedback-state"), "helpful") {
		t.Error("the answer page does not show the rating given")
	}
	checkA11yAll(b, "answer page")

	b.open(evalJS[string](b, `document.querySelector('main a[href$="/history"]').getAttribute("href")`))
	b.waitFor("the history", `!!document.querySelector("#history .answer")`)
	checkA11yAll(b, "history page")
	b.screenshot("rooms-05-history")
}

// checkA11yAll runs axe-core's WCAG 2.1 A and AA rules over the page and
// fails on any violation, whatever its impact.
func checkA11yAll(b *browser, page string) {
	b.t.Helper()
	for _, v := range b.axeViolations() {
		b.t.Errorf("axe on the %s: %s (%s): %s; at %s", page, v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}
}
