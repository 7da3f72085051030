package dabench

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeSet writes a small benchmark directory with the given lines.
func writeSet(t *testing.T, questions, labels []string) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, lines []string) {
		if lines == nil {
			return
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(QuestionsFile, questions)
	write(LabelsFile, labels)
	return dir
}

var (
	q1 = `{"id": 3, "question": "How many rows are there?", "concepts": ["Summary Statistics"], "constraints": "Count every row.", "format": "@rows[n] where \"n\" is an integer.", "file_name": "shop.csv", "level": "easy"}`
	q2 = `{"id": 9, "question": "Mean and spread of price?", "concepts": ["Summary Statistics", "Distribution Analysis"], "constraints": "", "format": "@avg_price[m], @sd_price[s] where \"m\" and \"s\" are rounded to 3 decimals.", "file_name": "shop.csv", "level": "medium"}`
	l1 = `{"id": 3, "common_answers": [["rows", "12"]]}`
	l2 = `{"id": 9, "common_answers": [["sd_price", "1.250"], ["avg_price", "7.5"]]}`
)

func TestLoadJoins(t *testing.T) {
	dir := writeSet(t, []string{q1, "", q2}, []string{l2, l1})
	qs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Question{
		{ID: 3, Question: "How many rows are there?", Concepts: []string{"Summary Statistics"}, Constraints: "Count every row.",
			Format: `@rows[n] where "n" is an integer.`, FileName: "shop.csv", Level: "easy",
			Path: filepath.Join(dir, TablesDir, "shop.csv"), Answers: [][2]string{{"rows", "12"}}, Names: []string{"rows"}},
		{ID: 9, Question: "Mean and spread of price?", Concepts: []string{"Summary Statistics", "Distribution Analysis"},
			Format: `@avg_price[m], @sd_price[s] where "m" and "s" are rounded to 3 decimals.`, FileName: "shop.csv", Level: "medium",
			Path: filepath.Join(dir, TablesDir, "shop.csv"), Answers: [][2]string{{"sd_price", "1.250"}, {"avg_price", "7.5"}},
			Names: []string{"avg_price", "sd_price"}},
	}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("Load:\n got %+v\nwant %+v", qs, want)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name       string
		questions  []string
		labels     []string
		wantInErrs []string
	}{
		{"missing label", []string{q1, q2}, []string{l1}, []string{QuestionsFile + ":2:", "id 9 has no label"}},
		{"bad JSON in labels", []string{q1, q2}, []string{l1, "", `{"id": 9, "common_answers": [["a", "1"]`}, []string{LabelsFile + ":3:"}},
		{"bad JSON in questions", []string{q1, `{"id": 9,}`}, []string{l1}, []string{QuestionsFile + ":2:"}},
		{"label without question", []string{q1}, []string{l1, l2}, []string{LabelsFile + ":2:", "id 9 has no question"}},
		{"duplicate question", []string{q1, q1}, []string{l1}, []string{QuestionsFile + ":2:", "already on line 1"}},
		{"duplicate label", []string{q1}, []string{l1, l1}, []string{LabelsFile + ":2:", "already on line 1"}},
		{"pair of three", []string{q1}, []string{`{"id": 3, "common_answers": [["rows", "12", "x"]]}`}, []string{LabelsFile + ":1:", "want [name, value]"}},
		{"value not a string", []string{q1}, []string{`{"id": 3, "common_answers": [["rows", 12]]}`}, []string{LabelsFile + ":1:"}},
		{"no id", []string{`{"question": "?", "file_name": "a.csv"}`}, []string{l1}, []string{QuestionsFile + ":1:", `no "id"`}},
		{"two values on a line", []string{q1 + " " + q1}, []string{l1}, []string{QuestionsFile + ":1:"}},
		{"no labels file", []string{q1}, nil, []string{LabelsFile}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeSet(t, tt.questions, tt.labels))
			if err == nil {
				t.Fatal("Load succeeded")
			}
			for _, s := range tt.wantInErrs {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestFormatNames(t *testing.T) {
	tests := []struct {
		format string
		want   []string
	}{
		{`@a[x], @b[y] where "x" is 1.`, []string{"a", "b"}},
		{`@a[x] e.g. @a[3], @@b["y"]`, []string{"a", "b"}},
		{`@dict[{'k':v, ...`, []string{"dict"}},
		{`no answers here`, nil},
		{`@a[x]\n@b[y]`, []string{"a", "b"}},
		{`@outer[see @inner[x]]`, []string{"outer"}},
	}
	for _, tt := range tests {
		if got := formatNames(tt.format); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("formatNames(%q) = %q, want %q", tt.format, got, tt.want)
		}
	}
}
