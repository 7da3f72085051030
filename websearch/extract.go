package websearch

import (
	"io"
	"net/url"
	"regexp"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"

	"github.com/quarry-dev/quarry"
)

// maxElements bounds the HTML elements readability scores; a page with
// more is refused rather than parsed for minutes.
const maxElements = 200_000

// extract reads an HTML page's main text, title, site name and date into
// p with readability (Mozilla's Readability.js algorithm): navigation,
// sidebars, ads and footers are left out.
func extract(r io.Reader, pageURL *url.URL, p *Page) error {
	parser := readability.NewParser()
	parser.MaxElemsToParse = maxElements
	article, err := parser.Parse(r, pageURL)
	if err != nil {
		return quarry.Errorf(quarry.ECodeMalformedDocument, "the page's main text cannot be extracted: %s", shorten(err.Error(), 120))
	}
	if article.Node == nil {
		return quarry.Errorf(quarry.ECodeEmptyFile, "the page holds no main text")
	}
	var b strings.Builder
	if err := article.RenderText(&b); err != nil {
		return quarry.Errorf(quarry.ECodeMalformedDocument, "the page's main text cannot be rendered: %w", err)
	}
	p.Text = tidyText(b.String())
	p.Title = cleanText(article.Title())
	p.SiteName = cleanText(article.SiteName())
	if t, err := article.PublishedTime(); err == nil {
		p.Published = t.UTC()
	}
	if p.Title == "" {
		p.Title = hostPath(pageURL.String())
	}
	return nil
}

var (
	spacesRE    = regexp.MustCompile(`[ \t\x{a0}]+`)
	blankRunsRE = regexp.MustCompile(`\n{3,}`)
)

// tidyText collapses runs of spaces and of blank lines, keeping
// paragraphs apart.
func tidyText(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	s = spacesRE.ReplaceAllString(s, " ")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(blankRunsRE.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}
