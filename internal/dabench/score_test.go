package dabench

import (
	"math"
	"reflect"
	"testing"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]string
	}{
		{"@a[1], @b[two]", map[string]string{"a": "1", "b": "two"}},
		{"@a[1] then @a[2]", map[string]string{"a": "2"}},
		{"@a[1] and [x]", map[string]string{"a": "1"}},
		{"@a[[1, 2]]", map[string]string{"a": "[1, 2"}},
		{"@a[]", map[string]string{"a": ""}},
		{"@a[1\n2] @b[3]", map[string]string{"b": "3"}},
		{"@mean-x[1] @ a[2] a[3]", map[string]string{}},
		{"@größe[1.5]", map[string]string{"größe": "1.5"}},
		{"email@x[1]", map[string]string{"x": "1"}},
	}
	for _, tt := range tests {
		if got := Extract(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Extract(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCorrect(t *testing.T) {
	tests := []struct {
		response, label string
		want            bool
	}{
		{"34.65", "34.65", true},
		{"34.65", "34.650", true},
		{"34.65", "34.6500001", true},
		{"34.65", "34.651", false},
		{"34.65", "34.7", false},
		{"No", "no", false},
		{"no", "no", true},
		{"1e-7", "0", true},
		{"-0", "0", true},
		{" 34.65\n", "34.65", true},
		{"\u00a05 ", "5", true},
		{"\u20075", "5", true},
		{"\x1c5", "5", false},
		{"5\x7f", "5", false},
		{"1_000", "1000", true},
		{"1e1_0", "1e10", true},
		{"1__000", "1000", false},
		{"_1", "1", false},
		{"1_.5", "1.5", false},
		{"0x10", "16", false},
		{"٣٤", "34", true},
		{"+5", "5", true},
		{"5.", "5", true},
		{".5", "0.5", true},
		{"++5", "5", false},
		{"1e", "1", false},
		{"1 2", "12", false},
		{"5%", "5", false},
		{"", "", true},
		{"", "0", false},
		{"inf", "inf", true},
		{"inf", "Infinity", false},
		{"1e400", "inf", false},
		{"nan", "nan", true},
		{"nan", "NaN", false},
		{"True", "true", false},
		{"0.1,0.2", "0.1, 0.2", false},
	}
	for _, tt := range tests {
		if got := Correct(tt.response, tt.label); got != tt.want {
			t.Errorf("Correct(%q, %q) = %v, want %v", tt.response, tt.label, got, tt.want)
		}
	}
}

func TestPyFloat(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"infinity", math.Inf(1), true},
		{"-iNF", math.Inf(-1), true},
		{"1e400", math.Inf(1), true},
		{"1e-400", 0, true},
		{"  -2.5e3 ", -2500, true},
		{"Inf5", 0, false},
		{"nan5", 0, false},
		{"+-1", 0, false},
	}
	for _, tt := range tests {
		got, ok := pyFloat(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("pyFloat(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if f, ok := pyFloat("+nan"); !ok || !math.IsNaN(f) {
		t.Errorf("pyFloat(+nan) = %v, %v", f, ok)
	}
}

func TestScoreOne(t *testing.T) {
	q := Question{ID: 4, Concepts: []string{"Outlier Detection"}, Level: "hard",
		Answers: [][2]string{{"count", "3"}, {"ids", ""}, {"mean", "2.50"}, {"count", "4"}}}
	tests := []struct {
		response     string
		correct, tot int
	}{
		{"@count[4] @ids[] @mean[2.5]", 3, 3},
		{"@count[3] @ids[] @mean[2.5]", 2, 3}, // the later label of a name wins
		{"@count[4], @mean[2.5]", 2, 3},       // a missing answer is wrong, even against an empty label
		{"@count[4] @count[5] @ids[] @mean[2.500000001]", 2, 3},
		{"", 0, 3},
	}
	for _, tt := range tests {
		r := ScoreOne(q, tt.response)
		if r.Correct != tt.correct || r.Total != tt.tot || r.ID != 4 || r.Level != "hard" || r.Response != tt.response || !reflect.DeepEqual(r.Concepts, q.Concepts) {
			t.Errorf("ScoreOne(%q) = %+v, want %d of %d", tt.response, r, tt.correct, tt.tot)
		}
	}
}

func TestSummarize(t *testing.T) {
	results := []Result{
		{ID: 1, Correct: 2, Total: 2, Concepts: []string{"A", "B"}, Level: "easy"},
		{ID: 2, Correct: 1, Total: 3, Concepts: []string{"A"}, Level: "hard"},
		{ID: 3, Correct: 1, Total: 1, Concepts: []string{"B"}, Level: "easy", Err: "timeout"}, // an error scores 0
		{ID: 4, Correct: 0, Total: 4, Concepts: []string{"C", "C"}, Level: "hard"},
	}
	got := Summarize(results)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	// ABQ: only id 1 is all right: 1/4. UASQ: (2+1+0+0)/(2+3+1+4) = 3/10.
	// PASQ: (1 + 1/3 + 0 + 0)/4 = 1/3.
	if got.Questions != 4 || got.CorrectQuestions != 1 || !near(got.Accuracy, 0.25) ||
		!near(got.SubanswerAccuracy, 0.3) || !near(got.ProportionalAccuracy, 1.0/3) {
		t.Errorf("Summarize = %+v", got)
	}
	wantConcept := map[string]ConceptScore{
		"A": {Questions: 2, Correct: 1, Accuracy: 0.5},
		"B": {Questions: 2, Correct: 1, Accuracy: 0.5},
		"C": {Questions: 1, Correct: 0, Accuracy: 0},
	}
	wantLevel := map[string]ConceptScore{
		"easy": {Questions: 2, Correct: 1, Accuracy: 0.5},
		"hard": {Questions: 2, Correct: 0, Accuracy: 0},
	}
	if !reflect.DeepEqual(got.ByConcept, wantConcept) || !reflect.DeepEqual(got.ByLevel, wantLevel) {
		t.Errorf("ByConcept = %+v, ByLevel = %+v", got.ByConcept, got.ByLevel)
	}
	if empty := Summarize(nil); empty.Questions != 0 || empty.Accuracy != 0 || empty.SubanswerAccuracy != 0 {
		t.Errorf("Summarize(nil) = %+v", empty)
	}
}
