package sweep_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// grown holds what the "grow" child allocates.
var grown [][]byte

// The harness's own tests run this test binary again as the child, with
// SWEEP_HELPER saying what the child does.
func TestMain(m *testing.M) {
	switch os.Getenv("SWEEP_HELPER") {
	case "":
		os.Exit(m.Run())
	case "grow":
		// A runaway: touch 16 MB more every 10 ms, without end, held in
		// a package variable so that none of it can be collected.
		for {
			b := make([]byte, 16<<20)
			for i := range b {
				if i%4096 == 0 {
					b[i] = 1
				}
			}
			grown = append(grown, b)
			time.Sleep(10 * time.Millisecond)
		}
	case "hang":
		time.Sleep(time.Hour)
	case "panic":
		panic("boom")
	case "refuse":
		os.Stderr.WriteString("session 1 in /tmp/x\nquarry: error NO_DATA_IN_PERIOD: the metric has no rows in the baseline and comparison periods\nhint: t.date has data from 2012-01-01 to 2015-12-31\n")
		os.Exit(1)
	}
	os.Exit(3)
}

func helper(t *testing.T, what string, b budget) child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return runChild(t.TempDir(), []string{"SWEEP_HELPER=" + what}, b, exe)
}

func TestRunChildKillsPastMemoryBudget(t *testing.T) {
	c := helper(t, "grow", budget{timeout: time.Minute, rssMB: 200})
	if c.killed != "memory budget" || c.exit != -1 {
		t.Fatalf("runaway child = %v; want killed for the memory budget", c)
	}
	// Polled every 100 ms while growing 1.6 GB/s at most: killed well
	// before 1 GB.
	if c.peakMB < 200 || c.peakMB > 1024 {
		t.Errorf("peak %.0f MB; want between the 200 MB budget and 1 GB", c.peakMB)
	}
	if got, want := failure(c), "memory budget: killed past 200 MB"; got != want {
		t.Errorf("failure = %q; want %q", got, want)
	}
}

func TestRunChildKillsOnTimeout(t *testing.T) {
	c := helper(t, "hang", budget{timeout: 300 * time.Millisecond, rssMB: 1024})
	if c.killed != "timeout" || c.exit != -1 {
		t.Fatalf("hanging child = %v; want killed on timeout", c)
	}
	if status, note := judgeInvestigation(c); status != statusFail || !strings.HasPrefix(note, "timeout") {
		t.Errorf("judge = %s %q; want FAIL timeout", status, note)
	}
}

func TestJudge(t *testing.T) {
	b := budget{timeout: time.Minute, rssMB: 1024}
	c := helper(t, "panic", b)
	if c.exit != 2 || !panicked(c.stderr) {
		t.Fatalf("panicking child = %v, stderr %q; want exit 2 and a panic", c, c.stderr)
	}
	if status, note, _ := judgeAnalysis(c); status != statusFail || note != "panic: panic: boom" {
		t.Errorf("judge panic = %s %q; want FAIL panic: boom", status, note)
	}

	c = helper(t, "refuse", b)
	e, ok := parseQuarryError(c.stderr)
	if !ok || e.code != "NO_DATA_IN_PERIOD" || e.hint != "t.date has data from 2012-01-01 to 2015-12-31" {
		t.Fatalf("parseQuarryError = %+v, %v", e, ok)
	}
	if status, _ := judgeInvestigation(c); status != statusRefused {
		t.Errorf("judge NO_DATA_IN_PERIOD = %s; want refused", status)
	}
	m := rangeHint.FindStringSubmatch(e.hint)
	if m == nil || m[1] != "t.date" {
		t.Fatalf("rangeHint(%q) = %q", e.hint, m)
	}
	base, cmp, _ := halves(m[2], m[3])
	if base != "2012-01-01..2013-12-31" || cmp != "2014-01-01..2015-12-31" {
		t.Errorf("halves = %s, %s", base, cmp)
	}

	internal := child{exit: 1, stderr: []byte("quarry: error INTERNAL: internal error\n")}
	if status, note := judgeInvestigation(internal); status != statusFail || note != "exit 1, INTERNAL: internal error" {
		t.Errorf("judge INTERNAL = %s %q; want FAIL", status, note)
	}
	notJSON := child{exit: 0, stdout: []byte(`{"status": "completed", "overall": `)}
	if status, _ := judgeInvestigation(notJSON); status != statusFail {
		t.Errorf("judge truncated JSON = %s; want FAIL", status)
	}
}

func TestTimeColumnName(t *testing.T) {
	for expr, want := range map[string]string{
		"t.date":           "date",
		`t."Flight Date"`:  "Flight Date",
		`t."say ""when"""`: `say "when"`,
		"make_date(CAST(t.year AS INTEGER), 1, 1)": "year",
		`CAST(t."time" AS DATE)`:                   "time",
		"date":                                     "",
	} {
		if got := timeColumnName(expr); got != want {
			t.Errorf("timeColumnName(%s) = %q; want %q", expr, got, want)
		}
	}
}

func TestHalves(t *testing.T) {
	for _, tc := range []struct{ from, to, base, cmp string }{
		{"2020-01-01", "2020-01-02", "2020-01-01..2020-01-01", "2020-01-02..2020-01-02"},
		{"2020-01-01", "2020-01-03", "2020-01-01..2020-01-02", "2020-01-03..2020-01-03"},
		{"1955-01-01", "2005-01-01", "1955-01-01..1980-01-01", "1980-01-02..2005-01-01"},
		{"2020-01-01", "2020-01-01", "", ""},
		{"2020-01-01", "soon", "", ""},
	} {
		base, cmp, _ := halves(tc.from, tc.to)
		if base != tc.base || cmp != tc.cmp {
			t.Errorf("halves(%s, %s) = %q, %q; want %q, %q", tc.from, tc.to, base, cmp, tc.base, tc.cmp)
		}
	}
}

func TestJSONToCSV(t *testing.T) {
	src := filepath.Join(t.TempDir(), "r.json")
	doc := `[{"b": 1.50, "a": "x, \"y\"", "n": null, "geo": {"lat": 1e3, "lon": -2}},
		{"a": "z", "extra": true, "tags": [1, {"k": "v", "a": 2}], "b": 12345678901234567890}]`
	if err := os.WriteFile(src, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if why := notRecords(strings.NewReader(doc)); why != "" {
		t.Fatalf("notRecords = %q; want records", why)
	}
	var out bytes.Buffer
	if err := jsonToCSV(src, &out); err != nil {
		t.Fatal(err)
	}
	want := "b,a,n,geo.lat,geo.lon,extra,tags\n" +
		`1.50,"x, ""y""",,1e3,-2,,` + "\n" +
		`12345678901234567890,z,,,,true,"[1,{""k"":""v"",""a"":2}]"` + "\n"
	if out.String() != want {
		t.Errorf("jsonToCSV =\n%s\nwant\n%s", out.String(), want)
	}
}

func TestTSVToCSV(t *testing.T) {
	src := filepath.Join(t.TempDir(), "r.tsv")
	if err := os.WriteFile(src, []byte("id\trate\n1001\t.097\n1003,2\t0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tsvToCSV(src, &out); err != nil {
		t.Fatal(err)
	}
	if want := "id,rate\n1001,.097\n\"1003,2\",0.1\n"; out.String() != want {
		t.Errorf("tsvToCSV = %q; want %q", out.String(), want)
	}
}

func TestNotRecords(t *testing.T) {
	for doc, want := range map[string]string{
		`{"type": "Topology", "arcs": []}`:              "TopoJSON, map shapes rather than records",
		`{"type": "FeatureCollection", "features": []}`: "GeoJSON, map features rather than records",
		`{"nodes": [], "links": []}`:                    "a graph of nodes and links, not one table",
		`{"width": 2, "height": 1, "values": [1, 2]}`:   "a grid of values, not records",
		`[1, 2, 3]`:     "an array of values, not of records",
		`[]`:            "an empty array",
		`[{"a": 1}, 2]`: "an array of values, not of records",
		`[{"a": 1}]`:    "",
	} {
		if got := notRecords(strings.NewReader(doc)); got != want {
			t.Errorf("notRecords(%s) = %q; want %q", doc, got, want)
		}
	}
}
