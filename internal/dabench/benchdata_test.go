package dabench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// benchDir returns the shared benchmark directory, skipping the test in
// -short mode or when the data is absent (it is not in the repository).
func benchDir(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("benchmark data test skipped in -short mode")
	}
	dirs := []string{os.Getenv("QUARRY_DABENCH_DATA"), filepath.Join("..", "..", "..", "shared", "bench", "dabench"), "/work/shared/bench/dabench"}
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, QuestionsFile)); err == nil {
			return dir
		}
	}
	t.Skip("benchmark data not found")
	return ""
}

// labelDecimals is the number of digits after the point in a label.
func labelDecimals(v string) int {
	if i := strings.IndexByte(v, '.'); i >= 0 {
		return len(v) - i - 1
	}
	return 0
}

// TestBenchData checks the shared set loads whole, every labelled name is
// one the format asks for, and Specs reads the rounding of most numeric
// labels from the format alone.
func TestBenchData(t *testing.T) {
	qs, err := Load(benchDir(t))
	if err != nil {
		t.Fatal(err)
	}
	subs := 0
	var numeric, withDecimals, agree, covers, integers, intKind int
	for _, q := range qs {
		subs += len(q.Answers)
		if _, err := os.Stat(q.Path); err != nil {
			t.Errorf("id %d: %v", q.ID, err)
		}
		specs := Specs(q.Format, q.Constraints)
		byName := map[string]Spec{}
		for i, s := range specs {
			byName[s.Name] = s
			if i >= len(q.Names) || q.Names[i] != s.Name {
				t.Errorf("id %d: Specs names differ from Names %v", q.ID, q.Names)
			}
		}
		for _, a := range q.Answers {
			s, ok := byName[a[0]]
			if !ok {
				t.Errorf("id %d: label %q is not among the format's names %v", q.ID, a[0], q.Names)
				continue
			}
			if _, ok := pyFloat(a[1]); !ok {
				continue
			}
			numeric++
			if s.Decimals >= 0 {
				withDecimals++
				if s.Decimals >= labelDecimals(a[1]) {
					covers++ // rounding to Decimals can give a float equal to the label
				}
			}
			if s.Decimals == labelDecimals(a[1]) {
				agree++
			} else if testing.Verbose() {
				t.Logf("id %d %s=%q: %+v", q.ID, a[0], a[1], s)
			}
			if _, err := strconv.Atoi(a[1]); err == nil {
				integers++
				if s.Kind == KindInteger {
					intKind++
				}
			}
		}
	}
	if len(qs) != 257 || subs != 461 {
		t.Errorf("loaded %d questions with %d sub-answers, want 257 and 461", len(qs), subs)
	}
	t.Logf("numeric labels %d: Specs gives decimals for %d, equal to the label's for %d, at least the label's for %d; integer labels %d, kind integer for %d",
		numeric, withDecimals, agree, covers, integers, intKind)
	if numeric != 362 || agree*10 < numeric*8 {
		t.Errorf("Specs matched the decimals of %d of %d numeric labels, want at least 80%%", agree, numeric)
	}
}
