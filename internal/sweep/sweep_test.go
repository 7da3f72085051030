package sweep_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/investigation"
)

// The sweep's budgets. Each child, a quarry command over one table, has
// childTimeout and childRSSMB; the largest table of the corpus
// (flights-200k, 200,000 rows) needs a few seconds and a few hundred MB.
const (
	childTimeout = 60 * time.Second
	childRSSMB   = 1536
	// maxSums bounds the investigations of a table's SUMs: one per
	// numeric column, the first maxSums in the file's order. Four tables
	// have more (us-employment, political-contributions, macrodata,
	// elnino); all of every table would add a minute to the sweep's two.
	maxSums = 12
	// minTables is how many tables the sweep must run: vega-datasets alone
	// has 60.
	minTables = 60
)

// Status of one step.
const (
	statusOK      = "ok"
	statusRefused = "refused" // a Quarry error that is a fair answer to this data
	statusSkipped = "skipped" // the step does not apply to this table
	statusFail    = "FAIL"
)

// refusals are the error codes that are a legitimate answer to a table of
// real data for the default investigation and analysis: a period without
// rows, a table without a usable time column, a metric the engine cannot
// decompose, a file that is not a readable CSV. Any other code (INTERNAL,
// INVALID, RESOURCE_LIMIT on these small tables, ...) fails the sweep.
var refusals = []string{
	quarry.ECodeNoDataInPeriod, quarry.ECodeInvalidTimeColumn, quarry.ECodeUnsupportedMetric,
	quarry.ECodeMalformedCSV, quarry.ECodeEmptyFile, quarry.ECodeNoHeaders,
}

// line is one row of the sweep's table.
type line struct {
	file       string
	rows, cols string
	step       string
	status     string
	seconds    float64
	peakMB     float64
	note       string
}

// TestSweep runs quarry over every table of the public corpus and fails on
// any panic, INTERNAL error, unparsable --json output, timeout or memory
// budget exceeded. Its table goes to the test log (go test -v prints it as
// it grows), and whole to $QUARRY_SWEEP_TABLE when that is set.
func TestSweep(t *testing.T) {
	vega := corpusDir(t, "QUARRY_VEGA_DATASETS", filepath.Join("..", "..", "tools", "vega", "node_modules", "vega-datasets", "data"),
		"npm ci --prefix tools/vega")
	tables, skips, err := vegaTables(vega)
	if err != nil {
		t.Fatal(err)
	}
	if sm := os.Getenv("QUARRY_STATSMODELS_DATASETS"); sm != "" {
		more, err := statsmodelsTables(sm)
		if err != nil || len(more) == 0 {
			t.Fatalf("QUARRY_STATSMODELS_DATASETS=%s holds no dataset CSV (%v)", sm, err)
		}
		tables = append(tables, more...)
	} else {
		t.Log("QUARRY_STATSMODELS_DATASETS is not set: the statsmodels datasets are left out")
	}
	if len(tables) < minTables {
		t.Fatalf("the corpus has %d tables; the sweep needs at least %d", len(tables), minTables)
	}

	work := t.TempDir()
	bin := buildQuarry(t, work)
	s := &sweeper{bin: bin, work: work, memoryFlag: map[string]bool{}}
	for _, cmd := range []string{"investigate", "analyze"} {
		s.memoryFlag[cmd] = hasFlag(t, bin, cmd, "memory-mb")
	}
	// The table goes to the log as each table's steps end.
	t.Log(tableHeader)
	start := time.Now()
	var lines []line
	for i, tb := range tables {
		for _, l := range s.table(t, i, tb) {
			t.Log(l)
			lines = append(lines, l)
		}
	}
	total := time.Since(start)

	var footer bytes.Buffer
	failed := tableFooter(&footer, lines, skips, len(tables), total)
	t.Log("\n" + footer.String())
	if path := os.Getenv("QUARRY_SWEEP_TABLE"); path != "" {
		var out bytes.Buffer
		fmt.Fprintln(&out, tableHeader)
		for _, l := range lines {
			fmt.Fprintln(&out, l)
		}
		out.Write(footer.Bytes())
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Error(err)
		} else if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Error(err)
		}
	}
	for _, l := range lines {
		if l.status == statusFail {
			t.Errorf("%s %s: %s", l.file, l.step, l.note)
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d steps failed", failed, len(lines))
	}
}

// corpusDir returns the folder $env names, or def; without it the test
// skips, or fails under CI=true.
func corpusDir(t *testing.T, env, def, install string) string {
	t.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		dir = def
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		// Absolute: quarry runs in another working directory.
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		return dir
	}
	msg := fmt.Sprintf("no corpus at %s: install it with %s or set $%s", dir, install, env)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// buildQuarry builds the quarry binary into dir, once for the sweep.
func buildQuarry(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "quarry")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/quarry")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/quarry: %v\n%s", err, out)
	}
	return bin
}

// hasFlag reports whether quarry's command takes --flag, so that the
// sweep bounds a child's memory with quarry's own flag once it has one.
func hasFlag(t *testing.T, bin, command, flag string) bool {
	t.Helper()
	out, _ := exec.Command(bin, command, "-h").CombinedOutput()
	return bytes.Contains(out, []byte("-"+flag+" "))
}

// sweeper runs the steps of one table.
type sweeper struct {
	bin, work  string
	memoryFlag map[string]bool // the quarry commands that take --memory-mb
}

// probePeriods are two days before any real table's data: an
// investigation over them stops at NO_DATA_IN_PERIOD after the load and the
// profile, and its hint says which time column Quarry found and the range
// of its data.
const probeBase, probeCmp = "1000-01-01..1000-01-01", "1000-01-02..1000-01-02"

// rangeHint is the hint of NO_DATA_IN_PERIOD (agent/investigate).
var rangeHint = regexp.MustCompile(`^(.+) has data from (\S+) to (\S+)$`)

// table runs the steps over one table: the profile (an investigation
// over probePeriods, which loads and profiles the file and finds its time
// column and range), the COUNT(*) investigation and the SUM investigations
// over the two halves of that range, and the analysis.
func (s *sweeper) table(t *testing.T, i int, tb table) []line {
	dir := filepath.Join(s.work, fmt.Sprintf("t%03d", i))
	defer os.RemoveAll(dir) // the sessions copy the file; keep the disk small
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if tb.convert == nil {
		// The investigation takes CSV; quarry analyze reads the file.
		why := "the investigation takes CSV; the analysis reads " + filepath.Ext(tb.path)
		c := s.run(dir, "analyze", "--source", tb.path, "--data-dir", filepath.Join(dir, "analyze"), "--json", "summary statistics")
		l := line{file: tb.name, rows: "-", cols: "-", step: "analyze", seconds: c.seconds, peakMB: c.peakMB}
		var res *analysis.Result
		l.status, l.note, res = judgeAnalysis(c)
		if res != nil {
			l.rows, l.cols = resultShape(res)
		}
		return []line{
			{file: tb.name, rows: l.rows, cols: l.cols, step: "profile", status: statusSkipped, note: why},
			{file: tb.name, rows: l.rows, cols: l.cols, step: "count", status: statusSkipped, note: why},
			l,
		}
	}
	csvPath := filepath.Join(dir, "t.csv")
	if err := writeCSV(tb, csvPath); err != nil {
		return []line{{file: tb.name, rows: "-", cols: "-", step: "convert", status: statusFail, note: err.Error()}}
	}

	// The profile.
	c := s.run(dir, "investigate", "--file", "t.csv", "--metric", "SELECT COUNT(*) FROM t",
		"--baseline", probeBase, "--comparison", probeCmp, "--data-dir", filepath.Join(dir, "profile"), "--json")
	meta := readMeta(filepath.Join(dir, "profile"))
	rows, cols := "-", "-"
	if meta != nil {
		rows, cols = fmt.Sprint(meta.RowCount), fmt.Sprint(len(meta.Schema.Columns))
	}
	mk := func(step string, c child) line {
		return line{file: tb.name, rows: rows, cols: cols, step: step, seconds: c.seconds, peakMB: c.peakMB}
	}
	prof := mk("profile", c)
	var timeCol string
	var base, cmp string
	switch e, ok := parseQuarryError(c.stderr); {
	case c.killed != "" || panicked(c.stderr):
		prof.status, prof.note = statusFail, failure(c)
	case c.exit == 0:
		prof.status, prof.note = statusFail, "an investigation of two days in the year 1000 found data"
	case ok && e.code == quarry.ECodeNoDataInPeriod:
		m := rangeHint.FindStringSubmatch(e.hint)
		if m == nil || meta == nil {
			prof.status, prof.note = statusFail, fmt.Sprintf("NO_DATA_IN_PERIOD without a profile or a date range: %q", e.hint)
			break
		}
		timeCol = m[1]
		base, cmp, prof.note = halves(m[2], m[3])
		prof.status = statusOK
		prof.note = fmt.Sprintf("time column %s, %s..%s; %s", timeCol, m[2], m[3], prof.note)
	case ok && e.code == quarry.ECodeInvalidTimeColumn && meta != nil:
		prof.status, prof.note = statusOK, "no time column: "+e.message
	case ok && slices.Contains(refusals, e.code):
		prof.status, prof.note = statusRefused, e.code+": "+e.message
	default:
		prof.status, prof.note = statusFail, failure(c)
	}
	lines := []line{prof}

	// The investigations.
	if base == "" {
		why := "no time range to split"
		if prof.status == statusOK {
			why = prof.note
		}
		lines = append(lines, line{file: tb.name, rows: rows, cols: cols, step: "count", status: statusSkipped, note: why})
	} else {
		metrics := [][2]string{{"count", "SELECT COUNT(*) FROM t"}}
		for _, col := range numericColumns(meta, timeColumnName(timeCol)) {
			if len(metrics) > maxSums {
				break
			}
			metrics = append(metrics, [2]string{"sum(" + col + ")", "SELECT SUM(" + quoteIdent(col) + ") FROM t"})
		}
		for _, m := range metrics {
			c := s.run(dir, "investigate", "--file", "t.csv", "--metric", m[1], "--baseline", base, "--comparison", cmp,
				"--data-dir", filepath.Join(dir, "investigate"), "--json")
			l := mk(m[0], c)
			l.status, l.note = judgeInvestigation(c)
			lines = append(lines, l)
		}
	}

	// The analysis.
	c = s.run(dir, "analyze", "--source", "t.csv", "--data-dir", filepath.Join(dir, "analyze"), "--json", "summary statistics")
	l := mk("analyze", c)
	l.status, l.note, _ = judgeAnalysis(c)
	return append(lines, l)
}

// run runs one quarry command over the table in dir, offline, with the
// sweep's budget and a bare environment: no model key or setting of the
// machine's reaches it.
func (s *sweeper) run(dir, command string, args ...string) child {
	args = append([]string{command, "--llm-provider", "offline"}, args...)
	if s.memoryFlag[command] {
		args = append(args, "--memory-mb", "1024")
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir}
	return runChild(dir, env, budget{timeout: childTimeout, rssMB: childRSSMB}, s.bin, args...)
}

// writeCSV writes the table as CSV at path.
func writeCSV(tb table, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := tb.convert(tb.path, f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readMeta reads the profile of the one file of the one session under
// dataDir, or nil when the run stopped before it was written.
func readMeta(dataDir string) *investigation.UploadedFile {
	paths, _ := filepath.Glob(filepath.Join(dataDir, "sessions", "*", "files", "*_meta.json"))
	if len(paths) != 1 {
		return nil
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		return nil
	}
	var f investigation.UploadedFile
	if json.Unmarshal(b, &f) != nil || f.Schema == nil {
		return nil
	}
	return &f
}

// halves splits the days from..to into two periods, the first half and
// the second; note says why not when it cannot.
func halves(from, to string) (base, cmp, note string) {
	a, err1 := time.Parse(time.DateOnly, from)
	b, err2 := time.Parse(time.DateOnly, to)
	if err1 != nil || err2 != nil {
		return "", "", "the range is not two dates"
	}
	days := int(b.Sub(a).Hours() / 24)
	if days < 1 {
		return "", "", "one day of data: no halves to compare"
	}
	mid := a.AddDate(0, 0, days/2) // the middle day ends the first half
	base = from + ".." + mid.Format(time.DateOnly)
	cmp = mid.AddDate(0, 0, 1).Format(time.DateOnly) + ".." + to
	return base, cmp, "halves " + base + " and " + cmp
}

// numericColumns returns the columns the profile read as integer or float
// numbers, in the file's order, without the time column.
func numericColumns(meta *investigation.UploadedFile, timeCol string) []string {
	var out []string
	for _, c := range meta.Schema.Columns {
		if (c.DataType == quarry.TypeInteger || c.DataType == quarry.TypeFloat) && c.Name != timeCol && c.InferredType != quarry.RoleTimestamp {
			out = append(out, c.Name)
		}
	}
	return out
}

// columnRef is a column of table t in an SQL expression: t.name or
// t."name".
var columnRef = regexp.MustCompile(`\bt\.("(?:[^"]|"")*"|\w+)`)

// timeColumnName returns the column the time expression of the hint reads:
// the hint names t.date, t."Flight Date", or an expression over the column
// such as make_date(CAST(t.year AS INTEGER), 1, 1) for a column of years.
func timeColumnName(expr string) string {
	m := columnRef.FindStringSubmatch(expr)
	if m == nil {
		return ""
	}
	if strings.HasPrefix(m[1], `"`) {
		return strings.ReplaceAll(m[1][1:len(m[1])-1], `""`, `"`)
	}
	return m[1]
}

// quoteIdent quotes a column name for SQL.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// judgeInvestigation judges one quarry investigate --json.
func judgeInvestigation(c child) (status, note string) {
	if c.killed != "" || panicked(c.stderr) {
		return statusFail, failure(c)
	}
	if c.exit != 0 {
		return judgeError(c)
	}
	var res investigation.Result
	if err := json.Unmarshal(c.stdout, &res); err != nil {
		return statusFail, "--json output is not JSON: " + err.Error()
	}
	switch res.Status {
	case investigation.OutcomeCompleted, investigation.OutcomeNoFindings:
		return statusOK, fmt.Sprintf("%s, %d explanations", res.Status, len(res.Explanations))
	}
	return statusFail, fmt.Sprintf("status %q", res.Status)
}

// judgeAnalysis judges one quarry analyze --json, and returns its result
// when it printed one.
func judgeAnalysis(c child) (status, note string, res *analysis.Result) {
	if c.killed != "" || panicked(c.stderr) {
		return statusFail, failure(c), nil
	}
	if c.exit != 0 {
		status, note = judgeError(c)
		return status, note, nil
	}
	res = new(analysis.Result)
	if err := json.Unmarshal(c.stdout, res); err != nil {
		return statusFail, "--json output is not JSON: " + err.Error(), nil
	}
	switch res.Status {
	case analysis.StatusCompleted, analysis.StatusPartialSuccess:
		return statusOK, fmt.Sprintf("%s, %d artifacts", res.Status, len(res.Artifacts)), res
	case analysis.StatusFailed:
		if res.Error != nil && slices.Contains(refusals, res.Error.Code) {
			return statusRefused, res.Error.Code + ": " + res.Error.Message, res
		}
		if res.Error != nil {
			return statusFail, "failed: " + res.Error.Code + ": " + res.Error.Message, res
		}
		return statusFail, "failed without an error", res
	}
	return statusFail, fmt.Sprintf("status %q", res.Status), res
}

// resultShape reads a table's rows and columns from an analysis's totals
// and profile steps, "-" where it has none.
func resultShape(res *analysis.Result) (rows, cols string) {
	rows, cols = "-", "-"
	for _, o := range res.Observations {
		data, _ := o.Data.(map[string]any)
		switch o.TaskID {
		case "totals":
			if r, _ := data["rows"].([]any); len(r) == 1 {
				// The count of rows is the totals' last column.
				if first, _ := r[0].([]any); len(first) > 0 {
					if n, ok := first[len(first)-1].(float64); ok {
						rows = strconv.FormatFloat(n, 'f', -1, 64)
					}
				}
			}
		case "profile":
			if n, ok := data["row_count"].(float64); ok {
				cols = fmt.Sprint(n)
			}
		}
	}
	return rows, cols
}

// judgeError judges a command that exited non-zero: refused when it
// printed a Quarry error whose code is a fair refusal, FAIL otherwise.
func judgeError(c child) (status, note string) {
	e, ok := parseQuarryError(c.stderr)
	if ok && slices.Contains(refusals, e.code) {
		return statusRefused, e.code + ": " + e.message
	}
	return statusFail, failure(c)
}

// failure describes a child that failed.
func failure(c child) string {
	switch {
	case c.killed == "timeout":
		return fmt.Sprintf("timeout: killed after %s", c.budget.timeout)
	case c.killed != "":
		return fmt.Sprintf("%s: killed past %d MB", c.killed, c.budget.rssMB)
	case panicked(c.stderr):
		return "panic: " + firstPanicLine(c.stderr)
	}
	if e, ok := parseQuarryError(c.stderr); ok {
		return fmt.Sprintf("exit %d, %s: %s", c.exit, e.code, e.message)
	}
	return fmt.Sprintf("exit %d: %s", c.exit, tail(c.stderr, 300))
}

func firstPanicLine(stderr []byte) string {
	for l := range strings.SplitSeq(string(stderr), "\n") {
		if strings.Contains(l, "panic: ") || strings.Contains(l, "fatal error: ") {
			return strings.TrimSpace(l)
		}
	}
	return tail(stderr, 200)
}

// tableHeader is the first line of the sweep's table.
var tableHeader = fmt.Sprintf("%-48s %7s %5s  %-24s %-7s %8s %8s  %s", "file", "rows", "cols", "step", "status", "seconds", "peak MB", "note")

// String is l as a line of the sweep's table.
func (l line) String() string {
	step := l.step
	if r := []rune(step); len(r) > 24 {
		step = string(r[:23]) + "…"
	}
	return fmt.Sprintf("%-48s %7s %5s  %-24s %-7s %8.2f %8.0f  %s", l.file, l.rows, l.cols, step, l.status, l.seconds, l.peakMB, l.note)
}

// tableFooter lists the skipped files and the totals, and returns how
// many steps failed.
func tableFooter(w io.Writer, lines []line, skips []skipped, tables int, total time.Duration) (failed int) {
	count := map[string]int{}
	var slowest, heaviest line
	for _, l := range lines {
		count[l.status]++
		if l.seconds > slowest.seconds {
			slowest = l
		}
		if l.peakMB > heaviest.peakMB {
			heaviest = l
		}
	}
	for _, s := range skips {
		fmt.Fprintf(w, "%-48s %7s %5s  %-24s %-7s %8s %8s  %s\n", s.name, "-", "-", "-", "skipped", "-", "-", s.reason)
	}
	fmt.Fprintf(w, "\n%d tables swept (%d files skipped as not tables) in %.0fs: %d steps ok, %d refused, %d skipped, %d FAIL\n",
		tables, len(skips), total.Seconds(), count[statusOK], count[statusRefused], count[statusSkipped], count[statusFail])
	fmt.Fprintf(w, "slowest step: %s %s, %.2fs; most memory: %s %s, %.0f MB\n",
		slowest.file, slowest.step, slowest.seconds, heaviest.file, heaviest.step, heaviest.peakMB)
	_, self := vmRSSKB(os.Getpid())
	fmt.Fprintf(w, "budget per step: %s and %d MB; the sweep's own peak: %.0f MB\n", childTimeout, childRSSMB, float64(self)/1024)
	return count[statusFail]
}
