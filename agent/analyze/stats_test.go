package analyze_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
)

// The expected numbers below are what scipy.stats and pandas return for
// the same data. There is no scipy on the build machine, so each was
// computed by hand from the function's formula (sums of squares written
// out in the comments) and its p-value by integrating the distribution's
// density numerically (Simpson's rule, 200,000 panels) in Python, an
// independent route from the incomplete beta and gamma functions the
// package uses.

// statsCSV holds every sample the tests read:
// g: a for rows 1-5, b for rows 6-10; v: 1..5 then 2,4,6,8,10;
// x: 1..5 twice; y: 2,4,6,8,10 twice; z: 2,4,5,4,5 twice; s: 5,6,7,8,7 twice;
// w: 1,3,2,5,4 twice; h: 1..9 then 100; m: 1, -, 3, -, 8, then 1..5;
// t: a, -, b, b, a, then c, c, c, c, c.
const statsCSV = `g,v,x,y,z,s,w,h,m,t
a,1,1,2,2,5,1,1,1,a
a,2,2,4,4,6,3,2,,
a,3,3,6,5,7,2,3,3,b
a,4,4,8,4,8,5,4,,b
a,5,5,10,5,7,4,5,8,a
b,2,1,2,2,5,1,6,1,c
b,4,2,4,4,6,3,7,2,c
b,6,3,6,5,7,2,8,3,c
b,8,4,8,4,8,5,9,4,c
b,10,5,10,5,7,4,100,5,c
`

// statStep runs one df.transform over the rows of the CSV (the first
// five when first5) and returns its observation.
func statStep(t *testing.T, csvBody string, first5 bool, args map[string]any) analysis.Observation {
	t.Helper()
	obs, err := tryStatStep(t, csvBody, first5, args)
	if err != nil {
		t.Fatal(err)
	}
	return obs
}

func tryStatStep(t *testing.T, csvBody string, first5 bool, args map[string]any) (analysis.Observation, error) {
	t.Helper()
	e := newEnv(t)
	path := writeCSV(t, "stats.csv", csvBody)
	q := "SELECT * FROM stats"
	if first5 {
		q = "SELECT * FROM stats WHERE g = 'a'"
	}
	args["input"] = "rows"
	e.a.Planner = planOf(
		analysis.Subtask{TaskID: "rows", ToolName: analysis.ToolSQL, Arguments: map[string]any{"query": q}},
		analysis.Subtask{TaskID: "stat", ToolName: analysis.ToolDF, Dependencies: []string{"rows"}, Arguments: args},
	)
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: "a statistical test", DataSources: []analysis.DataSource{csvSource(path)}})
	if err != nil {
		t.Fatal(err)
	}
	var last *analysis.Observation
	for i := range res.Observations {
		if res.Observations[i].TaskID == "stat" {
			last = &res.Observations[i]
		}
	}
	if last == nil {
		t.Fatalf("the step did not run: %+v", res.Error)
	}
	if last.Status != analysis.ObsSuccess {
		return *last, quarry.Errorf(quarry.ECodeInvalid, "%s", *last.ErrorMessage)
	}
	return *last, nil
}

// cell is the observation's value of column col in row i.
func cell(t *testing.T, obs analysis.Observation, i int, col string) any {
	t.Helper()
	data := obs.Data.(map[string]any)
	cols, rows := data["columns"].([]string), data["rows"].([][]any)
	for j, c := range cols {
		if c == col {
			if i >= len(rows) {
				t.Fatalf("row %d of %d", i, len(rows))
			}
			return rows[i][j]
		}
	}
	t.Fatalf("no column %s in %v", col, cols)
	return nil
}

// wantNum checks the numbers of row i, each to 1e-8 (p-values, whose
// reference is a numerical integral, to 1e-7).
func wantNum(t *testing.T, obs analysis.Observation, i int, want map[string]float64) {
	t.Helper()
	for col, w := range want {
		got := quarry.AsFloat(cell(t, obs, i, col))
		tol := 1e-8
		if col == "p_value" {
			tol = 1e-7
		}
		if math.Abs(got-w) > tol {
			t.Errorf("%s = %.10g; want %.10g", col, got, w)
		}
	}
}

func TestStatTTest(t *testing.T) {
	// a: 1..5 (mean 3, var 2.5), b: 2,4,6,8,10 (mean 6, var 10).
	// Student: pooled var 6.25, t = -3/sqrt(6.25*0.4) = -1.8973665961, df 8.
	obs := statStep(t, statsCSV, false, map[string]any{"operation": "ttest", "column": "v", "group_by": []any{"g"}})
	wantNum(t, obs, 0, map[string]float64{"statistic": -1.8973665961, "p_value": 0.0943497728, "df": 8, "n1": 5, "n2": 5, "mean1": 3, "mean2": 6})
	if g1, g2 := cell(t, obs, 0, "group1"), cell(t, obs, 0, "group2"); g1 != "a" || g2 != "b" {
		t.Errorf("groups %v, %v; want a, b", g1, g2)
	}
	// Welch: df = (0.5+2)^2 / (0.5^2/4 + 2^2/4) = 5.8823529412.
	obs = statStep(t, statsCSV, false, map[string]any{"operation": "ttest", "column": "v", "group_by": []any{"g"}, "method": "welch"})
	wantNum(t, obs, 0, map[string]float64{"statistic": -1.8973665961, "p_value": 0.1075311949, "df": 5.8823529412})
	// The same samples as two columns of the first five rows.
	obs = statStep(t, statsCSV, true, map[string]any{"operation": "ttest", "columns": []any{"x", "y"}})
	wantNum(t, obs, 0, map[string]float64{"statistic": -1.8973665961, "p_value": 0.0943497728})
	// Paired (ttest_rel): differences -1..-5, t = -3/(sqrt(2.5)/sqrt(5)).
	obs = statStep(t, statsCSV, true, map[string]any{"operation": "ttest", "columns": []any{"x", "y"}, "method": "paired"})
	wantNum(t, obs, 0, map[string]float64{"statistic": -4.2426406871, "p_value": 0.0132355996, "df": 4})
	// One sample (ttest_1samp) of 1..5 against 2: t = 1/(sqrt(2.5)/sqrt(5)).
	obs = statStep(t, statsCSV, true, map[string]any{"operation": "ttest", "column": "x", "method": "one_sample", "value": 2})
	wantNum(t, obs, 0, map[string]float64{"statistic": 1.4142135624, "p_value": 0.2301996411, "df": 4})
	// Three groups are not a t-test's.
	_, err := tryStatStep(t, statsCSV, false, map[string]any{"operation": "ttest", "column": "v", "group_by": []any{"t"}})
	if err == nil || !strings.Contains(err.Error(), "has 3 groups; a t-test compares two") {
		t.Errorf("t-test over three groups: %v", err)
	}
}

func TestStatANOVA(t *testing.T) {
	// Groups 1,2,3 / 4,5,6 / 7,8,9: SSB 54 (df 2), SSW 6 (df 6), F = 27;
	// with d1 = 2 the F survival function is (1 + 2F/6)^-3 = 0.001 exactly.
	body := "k,v\na,1\na,2\na,3\nb,4\nb,5\nb,6\nc,7\nc,8\nc,9\n"
	obs := statStep(t, body, false, map[string]any{"operation": "anova", "column": "v", "group_by": []any{"k"}})
	wantNum(t, obs, 0, map[string]float64{"statistic": 27, "p_value": 0.001, "groups": 3, "n": 9})
	// A text column is refused, not read as numbers.
	_, err := tryStatStep(t, statsCSV, false, map[string]any{"operation": "anova", "column": "t", "group_by": []any{"g"}})
	if err == nil || !strings.Contains(err.Error(), "column t is string; the operation needs numbers") {
		t.Errorf("anova of text: %v", err)
	}
}

func TestStatChiSquare(t *testing.T) {
	// [[10, 20], [20, 10]]: every expected count 15, |O-E| 5, Yates' 4.5:
	// chi2 = 4 * 4.5^2/15 = 5.4, p = erfc(sqrt(2.7)) = 0.0201367516.
	var b strings.Builder
	b.WriteString("p,q\n")
	for _, c := range []struct {
		p, q string
		n    int
	}{{"x", "u", 10}, {"x", "v", 20}, {"y", "u", 20}, {"y", "v", 10}} {
		for range c.n {
			b.WriteString(c.p + "," + c.q + "\n")
		}
	}
	obs := statStep(t, b.String(), false, map[string]any{"operation": "chisquare", "columns": []any{"p", "q"}})
	wantNum(t, obs, 0, map[string]float64{"statistic": 5.4, "p_value": 0.0201367516, "dof": 1, "n": 60})
}

func TestStatCorrelate(t *testing.T) {
	// pearsonr(1..5, [2,4,5,4,5]): r = 6/sqrt(10*6) = 0.7745966692.
	obs := statStep(t, statsCSV, true, map[string]any{"operation": "correlate", "columns": []any{"x", "z"}})
	wantNum(t, obs, 0, map[string]float64{"coefficient": 0.7745966692, "p_value": 0.1240270627, "n": 5})
	// spearmanr(1..5, [5,6,7,8,7]): ranks 1,2,3.5,5,3.5, r = 0.8207826817.
	obs = statStep(t, statsCSV, true, map[string]any{"operation": "correlate", "columns": []any{"x", "s"}, "method": "spearman"})
	wantNum(t, obs, 0, map[string]float64{"coefficient": 0.8207826817, "p_value": 0.0885870053})
}

func TestStatNormality(t *testing.T) {
	// shapiro([1, 2, 4]): n = 3 is exact, a = sqrt(1/2), W = 4.5/(42/9) =
	// 0.9642857143, p = 6/pi (asin(sqrt(W)) - asin(sqrt(3/4))).
	obs := statStep(t, "v\n1\n2\n4\n", false, map[string]any{"operation": "normality", "column": "v"})
	wantNum(t, obs, 0, map[string]float64{"statistic": 0.9642857143, "p_value": 0.6368868450, "n": 3})
	// A sample far from normal: 1..9 and 100.
	obs = statStep(t, statsCSV, false, map[string]any{"operation": "normality", "column": "h"})
	if p := quarry.AsFloat(cell(t, obs, 0, "p_value")); p > 1e-3 {
		t.Errorf("shapiro of 1..9 and 100: p = %g; want < 0.001", p)
	}
	// normaltest of the same: scipy's skewtest and kurtosistest formulas
	// written out again in Python give Z1, Z2 and K2 = Z1² + Z2² =
	// 28.0069016660, p = exp(-K2/2) (chi-square, 2 df) = 8.286641977e-07;
	// skew and kurtosis are scipy's biased ones.
	obs = statStep(t, statsCSV, false, map[string]any{"operation": "normality", "column": "h", "method": "normaltest"})
	wantNum(t, obs, 0, map[string]float64{"statistic": 28.0069016660, "skewness": 2.6300838239, "kurtosis": 4.9975525667, "n": 10})
	if p := quarry.AsFloat(cell(t, obs, 0, "p_value")); math.Abs(p/8.286641977e-07-1) > 1e-8 {
		t.Errorf("normaltest p = %.10g; want 8.286641977e-07", p)
	}
}

func TestStatRegress(t *testing.T) {
	// w = [1,3,2,5,4] on x = 1..5: Sxy 8, Sxx 10, slope 0.8, intercept 0.6,
	// RSS 3.6, TSS 10, R2 0.64, s2 = 3.6/3; se(slope) = sqrt(1.2/10),
	// se(intercept) = sqrt(1.2 (1/5 + 9/10)).
	obs := statStep(t, statsCSV, true, map[string]any{"operation": "regress", "column": "w", "columns": []any{"x"}})
	if got := cell(t, obs, 0, "term"); got != "intercept" {
		t.Errorf("first term %v; want intercept", got)
	}
	wantNum(t, obs, 0, map[string]float64{"coefficient": 0.6, "std_error": 1.1489125293, "t_value": 0.5222329679, "p_value": 0.6376180914, "r_squared": 0.64, "n": 5})
	wantNum(t, obs, 1, map[string]float64{"coefficient": 0.8, "std_error": 0.3464101615, "t_value": 2.3094010768, "p_value": 0.1040880387, "r_squared": 0.64})
}

func TestStatOutliers(t *testing.T) {
	// h = 1..9, 100: Q1 3.25, Q3 7.75 (numpy's linear quantiles), IQR 4.5,
	// bounds -3.5 and 14.5: one outlier.
	obs := statStep(t, statsCSV, false, map[string]any{"operation": "outliers", "column": "h"})
	if *obs.RowCount != 1 || quarry.AsFloat(cell(t, obs, 0, "h")) != 100 {
		t.Errorf("IQR outliers: %d rows %v; want the one row of 100", *obs.RowCount, obs.Data)
	}
	data := obs.Data.(map[string]any)
	if data["lower_bound"] != -3.5 || data["upper_bound"] != 14.5 {
		t.Errorf("bounds %v, %v; want -3.5, 14.5", data["lower_bound"], data["upper_bound"])
	}
	// scipy.stats.zscore of 100 there is 85.5/28.6050694808 = 2.989: an
	// outlier beyond 2, not beyond the default 3.
	obs = statStep(t, statsCSV, false, map[string]any{"operation": "outliers", "column": "h", "method": "zscore"})
	if *obs.RowCount != 0 {
		t.Errorf("z-score outliers beyond 3: %d rows; want none", *obs.RowCount)
	}
	obs = statStep(t, statsCSV, false, map[string]any{"operation": "outliers", "column": "h", "method": "zscore", "threshold": 2})
	if *obs.RowCount != 1 {
		t.Errorf("z-score outliers beyond 2: %d rows; want 1", *obs.RowCount)
	}
}

func TestStatImpute(t *testing.T) {
	// m in the first five rows: 1, -, 3, -, 8: mean 4, median 3.
	for method, want := range map[string]float64{"mean": 4, "median": 3} {
		obs := statStep(t, statsCSV, true, map[string]any{"operation": "impute", "columns": []any{"m"}, "method": method})
		if *obs.RowCount != 5 {
			t.Fatalf("%s: %d rows; want 5", method, *obs.RowCount)
		}
		for i, w := range []float64{1, want, 3, want, 8} {
			if got := quarry.AsFloat(cell(t, obs, i, "m")); got != w {
				t.Errorf("%s: row %d = %v; want %v", method, i, got, w)
			}
		}
	}
	// t in the first five rows: a, -, b, b, a: a and b twice each, and
	// pandas' mode()[0] is the smaller, a.
	obs := statStep(t, statsCSV, true, map[string]any{"operation": "impute", "columns": []any{"t"}, "method": "mode"})
	if got := cell(t, obs, 1, "t"); got != "a" {
		t.Errorf("mode fill = %v; want a", got)
	}
	filled := obs.Data.(map[string]any)["filled"].(map[string]any)["t"].(map[string]any)
	if quarry.AsFloat(filled["missing"]) != 1 || filled["value"] != "a" {
		t.Errorf("filled = %v; want 1 missing value filled with a", filled)
	}
}

func TestStatFeature(t *testing.T) {
	obs := statStep(t, statsCSV, true, map[string]any{"operation": "feature", "name": "ratio", "expression": `(x + "y") / 2 - -1`})
	for i, w := range []float64{2.5, 4, 5.5, 7, 8.5} {
		if got := quarry.AsFloat(cell(t, obs, i, "ratio")); got != w {
			t.Errorf("row %d: ratio = %v; want %v", i, got, w)
		}
	}
	for expr, want := range map[string]string{
		"x; DROP TABLE stats": `not ";"`,
		"x + nope":            `column "nope" does not exist in rows`,
		"x + t":               "column t is string",
		"(x + y":              "parenthesis left open",
		"x y":                 `has "y" where it should end`,
		"x +":                 "ends where a value should be",
		"1e999":               "is not a number",
		strings.Repeat("(", 101) + "x" + strings.Repeat(")", 101): "nests deeper than 100",
	} {
		_, err := tryStatStep(t, statsCSV, true, map[string]any{"operation": "feature", "name": "f", "expression": expr})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("expression %q: %v; want %q", expr, err, want)
		}
	}
	_, err := tryStatStep(t, statsCSV, true, map[string]any{"operation": "feature", "name": "x", "expression": "y"})
	if err == nil || !strings.Contains(err.Error(), `column "x" already exists`) {
		t.Errorf("a feature over an existing column: %v", err)
	}
}
