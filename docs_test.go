package quarry_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines keeps the README one screen long: what Quarry is, the two
// commands, one example per job and where to read more. The reference
// lives in docs/.
const readmeMaxLines = 180

// mdLink is a Markdown inline link, [text](target); targets hold no
// spaces in these documents.
var mdLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// codeSpan is inline code, whose brackets are not links.
var codeSpan = regexp.MustCompile("`[^`]*`")

// TestDocLinks checks every relative link of the README and of docs/: the
// file or directory it names exists, and the heading its #fragment names,
// as GitHub makes anchors, is in that file. It also keeps the README
// short.
func TestDocLinks(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{"README.md"}, docs...)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := map[string]bool{}
		lines, err := prose(path)
		if err != nil {
			t.Errorf("%v", err)
		}
		seen := map[string]int{}
		for _, l := range lines {
			if !strings.HasPrefix(l, "#") {
				continue
			}
			slug := anchor(strings.TrimLeft(l, "#"))
			if n := seen[slug]; n > 0 {
				a[slug+"-"+strconv.Itoa(n)] = true
			} else {
				a[slug] = true
			}
			seen[slug]++
		}
		anchors[path] = a
		return a
	}

	links := 0
	for _, file := range files {
		lines, err := prose(file)
		if err != nil {
			t.Fatal(err)
		}
		if file == "README.md" {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(raw), "\n"); n > readmeMaxLines {
				t.Errorf("README.md has %d lines, more than %d: move the reference to docs/", n, readmeMaxLines)
			}
		}
		for _, l := range lines {
			for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(l, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				path, frag, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s: link %s: %s does not exist", file, target, dest)
						continue
					}
				}
				if frag == "" {
					continue
				}
				if !strings.HasSuffix(dest, ".md") {
					t.Errorf("%s: link %s: a fragment of a file that is not Markdown", file, target)
					continue
				}
				if !anchorsOf(dest)[frag] {
					t.Errorf("%s: link %s: %s has no heading with the anchor #%s", file, target, dest, frag)
				}
			}
		}
	}
	if links == 0 {
		t.Fatal("no relative links found: the README should link to docs/")
	}
}

// prose returns the lines of a Markdown file outside code: fenced blocks
// and lines indented as code (four spaces or a tab after a blank line or
// another code line) are left out.
func prose(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	fenced, code, blank := false, false, true
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		indented := strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")
		code = indented && (blank || code)
		blank = strings.TrimSpace(l) == ""
		if fenced || code {
			continue
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// anchor is the fragment GitHub gives a heading: lower case, punctuation
// other than hyphens and underscores dropped, spaces turned into hyphens.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
