package web

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Markdown is rendered with goldmark and GitHub's extensions. Raw HTML in
// the source is not passed through (goldmark's default); the one exception
// is the exact <details><summary>…</summary> … </details> wrapper the
// report puts around evidence SQL, which is re-emitted from a whitelist.
// Tables are wrapped in a focusable scroll region, and cell alignment is
// written as attributes, since the pages forbid inline styles.
func newMarkdown(headingIDs bool) goldmark.Markdown {
	var popts []parser.Option
	if headingIDs {
		popts = append(popts, parser.WithAutoHeadingID())
	}
	return goldmark.New(
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough, extension.Linkify, extension.TaskList,
		),
		goldmark.WithParserOptions(popts...),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(pageNodeRenderer{}, 100))),
	)
}

var (
	reportMarkdown = newMarkdown(true)
	chatMarkdown   = newMarkdown(false)
)

// reservedIDs are element ids of the report page; headings of the report
// never take them.
var reservedIDs = []string{"main", "report", "report-title", "data-model", "dm-title", "dm-desc", "progress",
	"progress-status", "chat", "chat-heading", "chat-messages", "chat-form", "chat-message", "chat-send",
	"chat-error", "chat-hint", "download-report", "failure", "question-heading", "progress-heading", "log-heading",
	"error-summary-title"}

// markdownOptions say how a piece of Markdown sits in a page.
type markdownOptions struct {
	// SessionID is the session whose artifacts relative links point at.
	SessionID string
	// TopLevel is the level the outermost heading of the text becomes:
	// 2 in the report (under the page's h1), 3 in a chat message.
	TopLevel int
	// Title takes a leading h1 out of the text to be the page's h1.
	Title bool
	// DataModel is inserted after the heading "Data Model", or at the end.
	DataModel template.HTML
}

// renderedMarkdown is Markdown turned into HTML for a page.
type renderedMarkdown struct {
	Title string // the text of the leading h1, when Title was asked for
	HTML  template.HTML
}

// renderMarkdown converts src. Headings are renumbered so the page keeps
// one h1 and no skipped levels; links and images to the session's
// artifacts (charts/x.png) are pointed at the artifacts route.
func renderMarkdown(md goldmark.Markdown, src string, opt markdownOptions) (renderedMarkdown, error) {
	if tableCells(src) > maxTableCells {
		// Parsing would build every padded cell before anything could
		// stop it; the text is shown as it is instead.
		return renderedMarkdown{HTML: template.HTML(`<pre class="md-plain">`+html.EscapeString(src)+`</pre>`) + opt.DataModel}, nil
	}
	source := []byte(src)
	ids := parser.NewContext()
	for _, id := range reservedIDs {
		ids.IDs().Put([]byte(id))
	}
	doc := md.Parser().Parse(text.NewReader(source), parser.WithContext(ids))

	var out renderedMarkdown
	if first, ok := doc.FirstChild().(*ast.Heading); ok && opt.Title && first.Level == 1 {
		out.Title = plainText(first, source)
		doc.RemoveChild(doc, first)
	}
	var headings []*ast.Heading
	var dataModel *ast.Heading
	section := ""
	labels := map[string]int{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			headings = append(headings, n)
			section = plainText(n, source)
			if dataModel == nil && strings.EqualFold(section, "data model") {
				dataModel = n
			}
		case *extast.Table:
			label := tableLabel(n, source, section)
			labels[label]++
			if k := labels[label]; k > 1 {
				label = fmt.Sprintf("%s (%d)", label, k)
			}
			n.SetAttributeString("aria-label", []byte(label))
		case *ast.Image:
			n.Destination = artifactLink(opt.SessionID, n.Destination)
		case *ast.Link:
			n.Destination = artifactLink(opt.SessionID, n.Destination)
		}
		return ast.WalkContinue, nil
	})
	renumberHeadings(headings, opt.TopLevel)
	if opt.DataModel != "" {
		node := &trustedHTML{html: opt.DataModel}
		if dataModel != nil {
			doc.InsertAfter(doc, dataModel, node)
		} else {
			doc.AppendChild(doc, node)
		}
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, source, doc); err != nil {
		return out, err
	}
	out.HTML = template.HTML(buf.String()) // goldmark escapes the text; raw HTML is not passed through
	return out, nil
}

// renumberHeadings shifts headings so the outermost is at top, then lowers
// any heading that would skip a level below the one before it.
func renumberHeadings(hs []*ast.Heading, top int) {
	if len(hs) == 0 {
		return
	}
	least := 6
	for _, h := range hs {
		least = min(least, h.Level)
	}
	prev := top - 1
	for _, h := range hs {
		level := min(h.Level-least+top, prev+1, 6)
		h.Level = level
		prev = level
	}
}

// artifactPrefixes are the session directories the artifacts route serves.
var artifactPrefixes = []string{"charts/", "analysis/", "results/"}

// artifactLink points a relative link at one of the session's artifacts
// to the artifacts route; other links are left as they are.
func artifactLink(sessionID string, dest []byte) []byte {
	rel := string(dest)
	if !allowedArtifact(strings.SplitN(rel, "#", 2)[0]) {
		return dest
	}
	return []byte("/sessions/" + url.PathEscape(sessionID) + "/artifacts/" + rel)
}

// allowedArtifact reports whether rel is a clean relative path to a file
// the pages may show: report.md or a file under charts/, analysis/ or
// results/. Uploaded data (files/), the audit log and the metadata stay out.
func allowedArtifact(rel string) bool {
	if rel == "report.md" {
		return true
	}
	if rel == "" || strings.ContainsAny(rel, "\\:?") || path.Clean(rel) != rel {
		return false
	}
	for _, p := range artifactPrefixes {
		if strings.HasPrefix(rel, p) && len(rel) > len(p) {
			return true
		}
	}
	return false
}

// plainText is the text of an inline tree, without its markup.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(source))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// kindTrustedHTML is a block of HTML the server built itself (the data
// model diagram), placed in the Markdown tree.
var kindTrustedHTML = ast.NewNodeKind("TrustedHTML")

type trustedHTML struct {
	ast.BaseBlock
	html template.HTML
}

func (n *trustedHTML) Kind() ast.NodeKind { return kindTrustedHTML }

func (n *trustedHTML) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// pageNodeRenderer renders what the pages do differently from goldmark.
type pageNodeRenderer struct{}

func (pageNodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindTrustedHTML, renderTrustedHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(extast.KindTable, renderTable)
}

func renderTrustedHTML(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(string(n.(*trustedHTML).html))
		_ = w.WriteByte('\n')
	}
	return ast.WalkSkipChildren, nil
}

var (
	detailsOpen  = regexp.MustCompile(`^<details>\s*<summary>([^<>]{0,200})</summary>$`)
	detailsClose = regexp.MustCompile(`^</details>$`)
)

// renderHTMLBlock lets through only the report's collapsible SQL wrapper;
// any other raw HTML is dropped, as goldmark does by default.
func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var raw strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		line := n.Lines().At(i)
		raw.Write(line.Value(source))
	}
	if n.HasClosure() {
		raw.Write(n.ClosureLine.Value(source))
	}
	block := strings.TrimSpace(raw.String())
	switch {
	case detailsOpen.MatchString(block):
		summary := detailsOpen.FindStringSubmatch(block)[1]
		_, _ = w.WriteString("<details><summary>" + html.EscapeString(html.UnescapeString(summary)) + "</summary>\n")
	case detailsClose.MatchString(block):
		_, _ = w.WriteString("</details>\n")
	default:
		_, _ = w.WriteString("<!-- raw HTML omitted -->\n")
	}
	return ast.WalkContinue, nil
}

// renderTable wraps a table in a region that scrolls sideways on narrow
// screens and can be scrolled from the keyboard; its name is the table's
// column headers. The rows and cells are goldmark's.
func renderTable(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</table>\n</div>\n")
		return ast.WalkContinue, nil
	}
	label := "Table"
	if v, ok := n.AttributeString("aria-label"); ok {
		label = string(v.([]byte))
	}
	_, _ = w.WriteString(`<div class="table-wrap" role="region" tabindex="0" aria-label="` +
		html.EscapeString(label) + `">` + "\n<table>\n")
	return ast.WalkContinue, nil
}

// tableLabel names a table by its columns and the section it is in,
// briefly: "Table: Period, Days, Amount (Data Model)".
func tableLabel(n ast.Node, source []byte, section string) string {
	var cols []string
	if head := n.FirstChild(); head != nil && head.Kind() == extast.KindTableHeader {
		for c := head.FirstChild(); c != nil; c = c.NextSibling() {
			if t := plainText(c, source); t != "" {
				cols = append(cols, t)
			}
		}
	}
	label := "Table"
	if len(cols) > 0 {
		label = "Table: " + clip(strings.Join(cols, ", "), 70)
	}
	if section != "" {
		label += " (" + clip(section, 50) + ")"
	}
	return label
}

// maxTableCells bounds the table cells one text may make. A GFM table pads
// every row to its header's columns, so a wide header over many short
// rows makes cells quadratic in the text (a 20 KB header over 40 KB of
// one-letter rows: 200 million cells); Quarry's own reports stay far
// below this.
const maxTableCells = 50_000

// tableCells is an upper bound, in one pass, of the table cells Markdown
// src can make: each line of a block (lines up to a blank one) counts as
// many cells as the widest line of the block so far has pipes, plus one.
func tableCells(src string) int {
	cells, width := 0, 0
	for line := range strings.Lines(src) {
		if strings.TrimSpace(line) == "" {
			width = 0
			continue
		}
		width = max(width, strings.Count(line, "|")+1)
		if width > 1 {
			cells += width
		}
	}
	return cells
}
