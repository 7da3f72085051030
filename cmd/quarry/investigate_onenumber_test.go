package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/investigation"
)

// TestOneNumberPerFinding runs one investigation (broken_pipeline: the
// metric fell, a data problem comes first) and reads each explanation's
// headline number on every surface: the command line, explanations.json,
// report.md, the report page and the chat's answer. It is the same value,
// rounded the same way (investigation.Numbers), signed as the total
// change is: a fall is negative everywhere, with its share of the change.
func TestOneNumberPerFinding(t *testing.T) {
	dir := t.TempDir()
	stdout := demoText(t, "broken_pipeline", dir)
	m := regexp.MustCompile(`(?m)^report: .*sessions/([0-9a-f-]+)/report\.md$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no report path in\n%s", stdout)
	}
	id := m[1]
	session := filepath.Join(dir, "sessions", id)
	var expls []investigation.Explanation
	readJSON(t, filepath.Join(session, "results", "explanations.json"), &expls)
	if len(expls) < 2 {
		t.Fatalf("%d explanations; want several", len(expls))
	}
	report := readFile(t, filepath.Join(session, "report.md"))
	page, chat := servedSurfaces(t, dir, id, "Why did the value fall?")

	// The metric is a sum of about 700,000 a period: whole units.
	f := investigation.Numbers{Decimals: 0}
	for i, e := range expls {
		if total := e.Change / e.ShareOfChange; total >= 0 {
			t.Fatalf("%q: a change of %v is %v of a total change of %v; want a fall", e.Title, e.Change, e.ShareOfChange, total)
		}
		want := f.Contribution(e.Change, e.ShareOfChange)
		if e.Headline != want {
			t.Errorf("explanations.json: %q has headline %q; want %q", e.Title, e.Headline, want)
		}
		if e.Change < 0 != strings.HasPrefix(e.Headline, "-") || strings.HasPrefix(e.Headline, "-") == strings.Contains(e.Headline, "(-") {
			t.Errorf("%q: headline %q is not signed as the fall it is part of", e.Title, e.Headline)
		}
		surfaces := []struct{ name, text, want string }{
			{"the command line", stdout, "[" + e.Likelihood + "] " + want + ": " + e.Title},
			{"report.md's ranked list", report, "**" + e.Title + "** (" + e.Likelihood + "): " + want + ";"},
			{"report.md's evidence", report, "- **Change:** " + want},
			{"the report page", page, want},
		}
		if i == 0 {
			surfaces = append(surfaces,
				struct{ name, text, want string }{"the command line's answer", stdout, "“" + e.Title + "”: " + want},
				struct{ name, text, want string }{"report.md's answer", report, "“" + e.Title + "”: " + want},
				struct{ name, text, want string }{"the chat", chat, want})
		}
		for _, s := range surfaces {
			if !strings.Contains(s.text, s.want) {
				t.Errorf("%s lacks %q", s.name, s.want)
			}
		}
	}
	// No surface rounds a share of the change another way.
	share := regexp.MustCompile(`[+-]?[\d,]+(?:\.\d+)?% of the (?:total )?change`)
	oneDecimal := regexp.MustCompile(`^-?[\d,]+\.\d% of the change$`)
	for _, s := range []struct{ name, text string }{{"the command line", stdout}, {"report.md", report}, {"the chat", chat}} {
		for _, sh := range share.FindAllString(s.text, -1) {
			if !oneDecimal.MatchString(sh) {
				t.Errorf("%s prints a share another way: %q", s.name, sh)
			}
		}
	}
}

// servedSurfaces serves data dir dir and returns session id's report
// page and the chat's answer to question.
func servedSurfaces(t *testing.T, dir, id, question string) (page, chat string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, _, done := startServeIn(ctx, dir, "--sample", "")
	base := serverURL(t, done, stdout)
	res, err := http.Get(base + "/sessions/" + id)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /sessions/%s: %d", id, res.StatusCode)
	}
	msg, _ := json.Marshal(map[string]string{"message": question})
	res, err = http.Post(base+"/api/sessions/"+id+"/chat", "application/json", bytes.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var reply struct{ Response string }
	if err := json.NewDecoder(res.Body).Decode(&reply); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("chat: %d %v", res.StatusCode, err)
	}
	cancel()
	<-done
	return string(body), reply.Response
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
