package main

import (
	"strings"
	"testing"
)

// TestInvestigateAnswersFirst: the command prints the answer before
// anything else (what moved, by how much, between which periods, the top
// explanation with its number and share of the change), then the ranked
// explanations with the same numbers, then the evidence.
func TestInvestigateAnswersFirst(t *testing.T) {
	stdout := demoText(t, "revenue_drop", t.TempDir())
	answer, _, _ := strings.Cut(stdout, "\n")
	const top = "-57,276 (58.6% of the change)"
	for _, want := range []string{
		"Amount fell 10.3% (-97,732), from 947,083 (2024-03-04 to 2024-03-17) to 849,350 (2024-03-18 to 2024-03-31), more than its normal variation",
		"The top explanation is “Fewer rows in platform=android AND app_version=5.2: 1,595 to 492”: " + top + ".",
	} {
		if !strings.Contains(answer, want) {
			t.Errorf("the first line lacks %q:\n%s", want, answer)
		}
	}
	at := 0
	for _, want := range []string{
		"\n\nexplanations, ranked:\n1. [Most Likely] " + top + ": Fewer rows in platform=android AND app_version=5.2: 1,595 to 492 (volume)\n2. [Likely] ",
		"\n\nevidence:\ncompleted: 947,083 -> 849,350 (-97,732, -10.3%), significant: true",
		"\ncolumns: time: order_date;",
		"\nreport: ",
	} {
		i := strings.Index(stdout[at:], want)
		if i < 0 {
			t.Errorf("after byte %d the output lacks %q:\n%s", at, want, stdout)
			continue
		}
		at += i + len(want)
	}
}

// demoText runs quarry demo on scenario in data dir dir and returns what
// it prints for people (not --json). Short tests skip it.
func demoText(t *testing.T, scenario, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end investigations are not short")
	}
	stdout, stderr, code := runCLI(t, "demo", "--scenario", scenario, "--data-dir", dir)
	if code != 0 {
		t.Fatalf("quarry demo --scenario %s exited %d\n%s", scenario, code, stderr)
	}
	return stdout
}
