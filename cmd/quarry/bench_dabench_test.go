package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/internal/dabench"
)

// The answers are read from the result's one-row tables by name, through
// synonyms, rounded as the format asks; a name two columns match equally
// or none matches is left out, never guessed.
func TestFillAnswers(t *testing.T) {
	one, three := 1, 3
	res := &analysis.Result{
		Plan: &analysis.Plan{Subtasks: []analysis.Subtask{
			{TaskID: "correlate", Arguments: map[string]any{"operation": "correlate"}},
			{TaskID: "outliers", Arguments: map[string]any{"operation": "outliers"}},
		}},
		Observations: []analysis.Observation{
			{TaskID: "totals", Status: analysis.ObsSuccess, RowCount: &one,
				Data: map[string]any{"columns": []string{"avg_Fare", "median_Age"}, "rows": [][]any{{34.645990, 28.0}}}},
			{TaskID: "correlate", Status: analysis.ObsSuccess, RowCount: &one,
				Data: map[string]any{"columns": []string{"coefficient", "p_value", "n", "method"}, "rows": [][]any{{0.0976291758, 0.0089954, 715, "pearson"}}}},
			{TaskID: "outliers", Status: analysis.ObsSuccess, RowCount: &three,
				Data: map[string]any{"columns": []string{"Fare"}, "rows": [][]any{{512.3}, {263.0}, {263.0}}}},
			// A failed step's data and a many-row table are not read.
			{TaskID: "broken", Status: analysis.ObsError, RowCount: &one,
				Data: map[string]any{"columns": []string{"mean_fare"}, "rows": [][]any{{1.0}}}},
		},
	}
	specs := []dabench.Spec{
		{Name: "mean_fare", Decimals: 2, Kind: dabench.KindNumber},
		{Name: "correlation_coefficient", Decimals: 2, Kind: dabench.KindNumber},
		{Name: "p_value", Decimals: 4, Kind: dabench.KindNumber},
		{Name: "number_of_outliers", Decimals: 0, Kind: dabench.KindInteger},
		{Name: "median", Decimals: 1, Kind: dabench.KindNumber},
		{Name: "max_sibsp", Decimals: 0, Kind: dabench.KindInteger},
	}
	got := fillAnswers(res, specs)
	want := map[string]string{"mean_fare": "34.65", "correlation_coefficient": "0.10", "p_value": "0.0090", "number_of_outliers": "3", "median": "28.0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fillAnswers = %v; want %v", got, want)
	}
	// A text answer is read from text: the country, not its score.
	res.Observations[0].Data = map[string]any{"columns": []string{"Country", "avg_Happiness Score"}, "rows": [][]any{{"Switzerland", 7.587}}}
	got = fillAnswers(res, []dabench.Spec{{Name: "country_with_highest_score", Decimals: -1, Kind: dabench.KindText}})
	if got["country_with_highest_score"] != "Switzerland" {
		t.Errorf("a text answer: %v; want Switzerland", got)
	}
	// Two answers that read one cell are both left out.
	res.Observations[0].Data = map[string]any{"columns": []string{"avg_Age"}, "rows": [][]any{{29.7}}}
	got = fillAnswers(res, []dabench.Spec{{Name: "first_class_average_age", Decimals: 2, Kind: dabench.KindNumber},
		{Name: "third_class_average_age", Decimals: 2, Kind: dabench.KindNumber}})
	if len(got) != 0 {
		t.Errorf("two answers from one cell: %v; want both left out", got)
	}
	// "mean" matches both columns equally: it is left out.
	res.Observations[0].Data = map[string]any{"columns": []string{"avg_Fare", "avg_Age"}, "rows": [][]any{{34.6, 29.7}}}
	got = fillAnswers(res, []dabench.Spec{{Name: "mean", Decimals: 2, Kind: dabench.KindNumber}})
	if len(got) != 0 {
		t.Errorf("a name two columns match equally: %v; want it left out", got)
	}
}

// Numbers are written as the format asks, and with no decimals given, as
// the set writes them: whole numbers whole, others with two decimals.
func TestFormatAnswer(t *testing.T) {
	for _, c := range []struct {
		v    any
		spec dabench.Spec
		want string
	}{
		{34.6454, dabench.Spec{Decimals: 2, Kind: dabench.KindNumber}, "34.65"},
		{2.675, dabench.Spec{Decimals: 2, Kind: dabench.KindNumber}, "2.67"}, // the binary value is below 2.675
		{3.9776785714, dabench.Spec{Decimals: -1, Kind: dabench.KindNumber}, "3.98"},
		{12.0, dabench.Spec{Decimals: -1, Kind: dabench.KindNumber}, "12"},
		{138.6, dabench.Spec{Decimals: -1, Kind: dabench.KindInteger}, "139"},
		{-0.001, dabench.Spec{Decimals: 2, Kind: dabench.KindNumber}, "0.00"},
		{"linear", dabench.Spec{Decimals: -1, Kind: dabench.KindText}, "linear"},
	} {
		if got, ok := formatAnswer(c.v, c.spec); !ok || got != c.want {
			t.Errorf("formatAnswer(%v, %+v) = %q, %v; want %q", c.v, c.spec, got, ok, c.want)
		}
	}
	if _, ok := formatAnswer("linear", dabench.Spec{Decimals: 2, Kind: dabench.KindNumber}); ok {
		t.Errorf("text for a number answer was accepted")
	}
}

// Outcomes are counted apart: a refusal is not a wrong answer, and an
// answer left out is not a wrong one.
func TestTallyDABench(t *testing.T) {
	q := dabench.Question{ID: 2, Answers: [][2]string{{"a", "1"}, {"b", "2"}}}
	if !wrongValue(q, "@a[1], @b[3]") || wrongValue(q, "@a[1]") || wrongValue(q, "@a[1.0], @c[9]") {
		t.Errorf("wrongValue: a wrong b is wrong; a missing b, or an unlabelled c, is not")
	}
	got := tallyDABench([]dabench.Result{
		{ID: 1, Correct: 2, Total: 2, Response: "@a[1], @b[2]"},
		{ID: 2, Correct: 1, Total: 2, Response: "@a[1], @b[3]"},
		{ID: 3, Total: 1, Err: refusedPrefix + "NEEDS_CLARIFICATION: ..."},
		{ID: 4, Correct: 1, Total: 2, Response: "@a[1]"},
		{ID: 5, Total: 1, Response: ""},
		{ID: 6, Total: 1, Err: "context deadline exceeded"},
	}, map[int]bool{2: true})
	want := dabenchCounts{Questions: 6, Right: 1, Refused: 2, Incomplete: 2, Wrong: 1}
	if got != want {
		t.Errorf("tally = %+v; want %+v", got, want)
	}
}

// The bench asks its questions through the analyses service: a question
// the planner reads is answered from its result's table and scored, one it
// cannot read is refused, and an answer the labels contradict is wrong;
// the held-out half (ids 2 and 3 here) is counted apart.
func TestBenchDABenchProductPath(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, dabench.TablesDir), 0o755)
	// Groups 1,2,3 / 4,5,6 / 7,8,9: one-way ANOVA F = 27, p = 0.001.
	csv := "k,v\na,1\na,2\na,3\nb,4\nb,5\nb,6\nc,7\nc,8\nc,9\n"
	os.WriteFile(filepath.Join(dir, dabench.TablesDir, "groups.csv"), []byte(csv), 0o644)
	format := "@p_value[p_value] where p_value is rounded to four decimal places."
	var qs, ls strings.Builder
	for _, q := range []struct {
		id             int
		question, want string
	}{
		{2, "anova of v by k", "0.0010"},
		{3, "what does the flux capacitor read", "1"},
		{1, "anova of v by k", "0.5000"},
	} {
		line, _ := json.Marshal(map[string]any{"id": q.id, "question": q.question, "concepts": []string{"Comprehensive Data Preprocessing"},
			"constraints": "", "format": format, "file_name": "groups.csv", "level": "easy"})
		qs.Write(append(line, '\n'))
		line, _ = json.Marshal(map[string]any{"id": q.id, "common_answers": [][]string{{"p_value", q.want}}})
		ls.Write(append(line, '\n'))
	}
	os.WriteFile(filepath.Join(dir, dabench.QuestionsFile), []byte(qs.String()), 0o644)
	os.WriteFile(filepath.Join(dir, dabench.LabelsFile), []byte(ls.String()), 0o644)
	var stdout, stderr bytes.Buffer
	err := runBenchDABench(context.Background(), []string{"--data", dir, "--json"}, func(string) string { return "" }, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var got struct {
		Public  dabenchCounts `json:"public"`
		HeldOut dabenchCounts `json:"held_out"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if want := (dabenchCounts{Questions: 3, Right: 1, Refused: 1, Wrong: 1}); got.Public != want {
		t.Errorf("public = %+v; want %+v", got.Public, want)
	}
	if want := (dabenchCounts{Questions: 2, Right: 1, Refused: 1}); got.HeldOut != want {
		t.Errorf("held out = %+v; want %+v", got.HeldOut, want)
	}
}
