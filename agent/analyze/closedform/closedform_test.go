package closedform

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/duckdb"
)

// loadTable loads csv into a fresh engine and returns it with the
// table's name.
func loadTable(t testing.TB, csv string) (*duckdb.Engine, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := duckdb.Open(duckdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	name := duckdb.TableName(path, nil)
	if _, _, err := e.LoadCSV(context.Background(), name, path); err != nil {
		t.Fatal(err)
	}
	return e, name
}

// passengers is a small table in the shape of many questions: a class,
// a yes/no outcome, a category, numbers with a missing value and an
// outlier.
const passengers = `id,pclass,survived,sex,age,fare,sibsp,parch
1,1,1,female,38,71.28,1,0
2,3,0,male,22,7.25,1,0
3,3,1,female,26,7.92,0,0
4,1,1,female,35,53.10,1,0
5,3,0,male,35,8.05,0,0
6,2,0,male,,8.46,0,0
7,1,0,male,54,51.86,0,0
8,3,0,male,2,21.08,3,1
9,3,1,female,27,11.13,0,2
10,2,1,female,14,30.07,1,0
11,3,1,female,4,16.70,1,1
12,1,1,female,58,26.55,0,0
13,3,0,male,20,8.05,0,0
14,3,0,male,39,31.28,1,5
15,2,1,male,55,512.33,0,0
16,2,0,male,31,16.00,0,0
`

func TestAnswer(t *testing.T) {
	e, table := loadTable(t, passengers)
	tests := []struct {
		name     string
		question Question
		specs    []Spec
		want     map[string]string
	}{
		{
			"mean and sample standard deviation",
			Question{Text: "Calculate the mean and standard deviation of the fare.", Constraints: "Round to two decimal places.",
				Format: `@mean_fare[mean] @std_fare[std] where "mean" and "std" are numbers rounded to two decimal places.`},
			[]Spec{{"mean_fare", 2, KindNumber}, {"std_fare", 2, KindNumber}},
			map[string]string{"mean_fare": "55.07", "std_fare": "123.44"},
		},
		{
			"population standard deviation",
			Question{Text: "What is the standard deviation of the age?", Constraints: "Use the population standard deviation. Ignore missing values.",
				Format: `@age_std[std] where "std" is rounded to two decimal places.`},
			[]Spec{{"age_std", 2, KindNumber}},
			map[string]string{"age_std": "16.49"},
		},
		{
			"median of one group",
			Question{Text: "What is the median fare of the passengers in each class?", Constraints: "",
				Format: `@median_fare_class1[m1], @median_fare_class3[m3] where each is rounded to two decimal places.`},
			[]Spec{{"median_fare_class1", 2, KindNumber}, {"median_fare_class3", 2, KindNumber}},
			map[string]string{"median_fare_class1": "52.48", "median_fare_class3": "9.59"},
		},
		{
			"yes/no column named by its verb",
			Question{Text: "What is the average age of the passengers who survived versus those who did not survive?", Constraints: "Ignore missing ages.",
				Format: `@mean_age_survived[a1] @mean_age_not_survived[a2] rounded to two decimal places.`},
			[]Spec{{"mean_age_survived", 2, KindNumber}, {"mean_age_not_survived", 2, KindNumber}},
			map[string]string{"mean_age_survived": "32.12", "mean_age_not_survived": "29.00"},
		},
		{
			"filter by a value the question names",
			Question{Text: "What is the mean fare paid by male passengers?", Constraints: "Round to two decimals.",
				Format: `@mean_fare[mean]`},
			[]Spec{{"mean_fare", 2, KindNumber}},
			map[string]string{"mean_fare": "73.82"},
		},
		{
			"correlation with p-value and verdict",
			Question{Text: "Is there a correlation between age and fare?",
				Constraints: "Calculate the Pearson correlation coefficient (r) between age and fare. Assess the significance with a two-tailed test at alpha 0.05. Consider the relationship to be linear if the p-value is less than 0.05 and the absolute value of r is greater than or equal to 0.5. Consider it nonlinear if the p-value is less than 0.05 and the absolute value of r is less than 0.5. If the p-value is greater than or equal to 0.05, report that there is no significant correlation.",
				Format:      `@correlation_coefficient[r_value] @p_value[p_value] @relationship_type[relationship_type] where "r_value" is rounded to two decimal places, "p_value" to four decimal places, and "relationship_type" is "linear", "nonlinear", or "none".`},
			[]Spec{{"correlation_coefficient", 2, KindNumber}, {"p_value", 4, KindNumber}, {"relationship_type", -1, KindText}},
			map[string]string{"correlation_coefficient": "0.45", "p_value": "0.0921", "relationship_type": "none"},
		},
		{
			"new column as a sum, then its mean",
			Question{Text: `Create a new feature called "FamilySize" by summing the "sibsp" and "parch" columns. What is the mean FamilySize?`,
				Format: `@mean_familysize[mean] rounded to two decimal places.`},
			[]Spec{{"mean_familysize", 2, KindNumber}},
			map[string]string{"mean_familysize": "1.12"},
		},
		{
			"z-score outliers",
			Question{Text: "How many outliers are there in the fare column?", Constraints: "Use the Z-score method with a threshold of 3.",
				Format: `@outlier_count[count] where "count" is an integer.`},
			[]Spec{{"outlier_count", 0, KindInteger}},
			map[string]string{"outlier_count": "1"},
		},
		{
			"IQR outliers removed, then the mean",
			Question{Text: "Remove the outliers in the fare column using the IQR method, then compute the mean fare.",
				Constraints: "An outlier is below Q1 - 1.5*IQR or above Q3 + 1.5*IQR.",
				Format:      `@outliers[n] @mean_fare_after[mean] where "mean" is rounded to two decimal places.`},
			[]Spec{{"outliers", 0, KindInteger}, {"mean_fare_after", 2, KindNumber}},
			map[string]string{"outliers": "1", "mean_fare_after": "24.59"},
		},
		{
			"missing values",
			Question{Text: `How many missing values are there in the "age" column?`, Format: `@missing_count[n] where "n" is an integer.`},
			[]Spec{{"missing_count", 0, KindInteger}},
			map[string]string{"missing_count": "1"},
		},
		{
			"which row has the highest value",
			Question{Text: "Which passenger id has the highest fare?", Format: `@passenger[id]`},
			[]Spec{{"passenger", -1, KindText}},
			map[string]string{"passenger": "15"},
		},
		{
			"normality verdict from Shapiro-Wilk",
			Question{Text: "Does the fare follow a normal distribution?",
				Constraints: "Use the Shapiro-Wilk test. If the p-value is less than 0.05, the data is not normally distributed.",
				Format:      `@is_normal[answer] where "answer" is "yes" or "no".`},
			[]Spec{{"is_normal", -1, KindBool}},
			map[string]string{"is_normal": "no"},
		},
		{
			"t-test between the groups the answers name",
			Question{Text: "Compare the fare of female and male passengers with an independent t-test.",
				Constraints: "Use a significance level of 0.05.",
				Format:      `@mean_fare_female[m1] @mean_fare_male[m2] @p_value[p] @significance[result] where the means are rounded to two decimal places, "p" to four, and "result" is "significant" or "not significant".`},
			[]Spec{{"mean_fare_female", 2, KindNumber}, {"mean_fare_male", 2, KindNumber}, {"p_value", 4, KindNumber}, {"significance", -1, KindText}},
			map[string]string{"mean_fare_female": "30.96", "mean_fare_male": "73.82", "p_value": "0.5099", "significance": "not significant"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.question
			q.Table = table
			got, err := Answer(context.Background(), e, q, tt.specs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Answer(%q) = %v; want %v", q.Text, got, tt.want)
			}
		})
	}
}

func TestAnswerLeavesOutWhatItCannotCompute(t *testing.T) {
	e, table := loadTable(t, passengers)
	q := Question{Text: "Train a random forest to predict survival and report the three most important features.",
		Format: `@feature1[name] @feature2[name] @feature3[name]`, Table: table}
	got, err := Answer(context.Background(), e, q, []Spec{{"feature1", -1, KindText}, {"feature2", -1, KindText}, {"feature3", -1, KindText}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("Answer(%q) = %v; want nothing", q.Text, got)
	}
}

// TestImputeLiteral checks that a value the question quotes fills the
// missing cells as the question wrote it, not in the lower case the
// question is matched in, unless the column already holds that value in
// another case.
func TestImputeLiteral(t *testing.T) {
	e, table := loadTable(t, `id,deck,port
1,C,Southampton
2,,Cherbourg
3,E,
4,,southampton
`)
	tests := []struct {
		text, col string
		want      []string
	}{
		{"Fill the missing values in the deck column with 'Unknown'.", "deck", []string{"C", "Unknown", "E", "Unknown"}},
		{`Replace missing values in deck with "No Deck".`, "deck", []string{"C", "No Deck", "E", "No Deck"}},
		{"Fill missing values in the port column with 'CHERBOURG'.", "port", []string{"Southampton", "Cherbourg", "Cherbourg", "southampton"}},
		{"Fill the missing deck values with 'Unknown' and the missing port values with 'Queenstown'.", "port", []string{"Southampton", "Cherbourg", "Queenstown", "southampton"}},
	}
	for _, tt := range tests {
		f, err := loadFrame(context.Background(), e, table)
		if err != nil {
			t.Fatal(err)
		}
		newAnalysis(Question{Text: tt.text, Table: table}, f, nil).impute(f)
		if got := f.col(tt.col).str; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("impute(%q): %s = %q; want %q", tt.text, tt.col, got, tt.want)
		}
	}
}

func TestAnswerNoTable(t *testing.T) {
	if _, err := Answer(context.Background(), nil, Question{Text: "?"}, nil); err == nil {
		t.Error("Answer without a table succeeded")
	}
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		x    float64
		spec Spec
		want string
	}{
		{34.6454, Spec{Decimals: 2}, "34.65"},
		{2.675, Spec{Decimals: 2}, "2.67"}, // the binary value is below 2.675, as Python's format has it
		{139, Spec{Kind: KindInteger, Decimals: -1}, "139"},
		{3.98, Spec{Decimals: -1}, "3.98"},
		{12, Spec{Decimals: -1}, "12"},
		{-0.001, Spec{Decimals: 2}, "0.00"},
		{math.NaN(), Spec{Decimals: 2}, "nan"},
	}
	for _, tt := range tests {
		if got := formatValue(tt.x, tt.spec); got != tt.want {
			t.Errorf("formatValue(%v, %+v) = %q; want %q", tt.x, tt.spec, got, tt.want)
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestStatistics(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	y := []float64{2, 4, 5, 4, 5}
	r := pearson(x, y)
	if !near(r.Stat, 0.774597, 1e-6) || !near(r.P, 0.124027, 1e-6) {
		t.Errorf("pearson = %+v; want r 0.7746, p 0.1240", r)
	}
	if got := normPPF(0.975); !near(got, 1.959964, 1e-6) {
		t.Errorf("normPPF(0.975) = %v; want 1.959964", got)
	}
	if got := chi2SF(3.841459, 1); !near(got, 0.05, 1e-6) {
		t.Errorf("chi2SF(3.84, 1) = %v; want 0.05", got)
	}
	if got := fSF(4.0, 2, 10); !near(got, math.Pow(1.8, -5), 1e-12) {
		t.Errorf("fSF(4, 2, 10) = %v; want 1.8^-5", got)
	}
	skewed := []float64{1, 2, 3, 4, 10}
	if got := skewness(skewed, false); !near(got, 1.697056, 1e-5) {
		t.Errorf("pandas skew = %v; want 1.6971", got)
	}
	if got := skewness(skewed, true); !near(got, 1.138420, 1e-5) {
		t.Errorf("scipy skew = %v; want 1.1384", got)
	}
	if got := kurtosis(skewed, false); !near(got, 3.152, 1e-9) {
		t.Errorf("pandas kurt = %v; want 3.152", got)
	}
	if got := quantile([]float64{1, 2, 3, 4}, 0.25); got != 1.75 {
		t.Errorf("quantile = %v; want 1.75 (linear)", got)
	}
	w := shapiro([]float64{2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 2.8, 4.0, 3.9, 4.7, 3.6, 3.1})
	if w.Stat <= 0.9 || w.Stat > 1 || w.P < 0.3 {
		t.Errorf("shapiro of a symmetric sample = %+v; want W > 0.9 and a large p", w)
	}
	exp := make([]float64, 60)
	for i := range exp {
		exp[i] = math.Exp(float64(i) / 6)
	}
	if s := shapiro(exp); s.P > 1e-4 {
		t.Errorf("shapiro of an exponential curve = %+v; want a tiny p", s)
	}
}

func TestMatcher(t *testing.T) {
	m := newMatcher([]string{"Pclass", "SibSp", "Parch", "PassengerId", "Fare", "Close Price", "number_of_doubles", "lifeExp"})
	tests := []struct {
		text string
		want []string
	}{
		{"the fare paid by the passengers", []string{"Fare"}},
		{"the passenger class and the number of siblings/spouses", []string{"Pclass", "SibSp"}},
		{`the mean of the "Close Price" column`, []string{"Close Price"}},
		{"the number of doubles hit by a player", []string{"number_of_doubles"}},
		{"life expectancy for each continent", []string{"lifeExp"}},
		{"fares", []string{"Fare"}},
	}
	for _, tt := range tests {
		var got []string
		for _, mt := range m.find(tt.text) {
			got = append(got, mt.col)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("find(%q) = %v; want %v", tt.text, got, tt.want)
		}
	}
}

func TestParseConds(t *testing.T) {
	last := ""
	got := parseConds("if the p-value is less than 0.05 and the absolute value of r is greater than or equal to 0.5", &last)
	want := []cond{{v: "p", op: "<", x: 0.05}, {v: "absr", op: ">=", x: 0.5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseConds = %+v; want %+v", got, want)
	}
	got = parseConds("moderate if it is between 0.3 and 0.7", &last)
	if len(got) != 1 || got[0].v != "absr" || got[0].op != "between" || got[0].y != 0.7 {
		t.Errorf(`parseConds("it is between") = %+v; want absr between 0.3 and 0.7`, got)
	}
}

func TestLooseNumber(t *testing.T) {
	for in, want := range map[string]float64{"1,234": 1234, "128567[21000-287000]": 128567, "$12.5": 12.5, "-3": -3} {
		if got, ok := looseNumber(in); !ok || got != want {
			t.Errorf("looseNumber(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	if _, ok := looseNumber("abc"); ok {
		t.Error(`looseNumber("abc") succeeded`)
	}
	if !strings.Contains(fmt.Sprint(naText["NaN"]), "true") {
		t.Error("NaN is not missing")
	}
}

// FuzzAnswer checks that no question text makes Answer fail or panic:
// what it cannot read it leaves out.
func FuzzAnswer(f *testing.F) {
	f.Add("What is the mean fare?", "Round to 2 decimals.", "@mean_fare[m]")
	f.Add("Create a new feature 'x' = (fare - age) / (sibsp * 0)", "", "@x_mean[v], @x_list[a, b, c]")
	f.Add("Which class has the highest", "between and", "@a[{'k_1': v, ..., 'k_3': v}]")
	f.Add("Remove outliers with z-score above", "if p-value is less than and absolute r is between", "@t[yes/no]")
	e, table := loadTable(f, passengers)
	f.Fuzz(func(t *testing.T, text, constraints, format string) {
		specs := []Spec{{"mean_fare", 2, KindNumber}, {"x_mean", -1, ""}, {"t", -1, KindBool}, {"a", -1, KindText}}
		if _, err := Answer(context.Background(), e, Question{Text: text, Constraints: constraints, Format: format, Table: table}, specs); err != nil {
			t.Errorf("Answer(%q): %v", text, err)
		}
	})
}
