package dabench

import (
	"reflect"
	"testing"
)

func TestSpecs(t *testing.T) {
	n := func(name string, dec int) Spec { return Spec{name, dec, KindNumber} }
	i := func(name string) Spec { return Spec{name, 0, KindInteger} }
	s := func(name string) Spec { return Spec{name, -1, KindText} }
	b := func(name string) Spec { return Spec{name, -1, KindBool} }
	tests := []struct {
		name        string
		format      string
		constraints string
		want        []Spec
	}{
		{"one answer in words",
			`@avg_cost[cost_value] where "cost_value" is a floating-point number rounded to three decimal places.`, "",
			[]Spec{n("avg_cost", 3)}},
		{"digits and round to",
			`@ratio[x], where x is a value; round to 4 decimals.`, "",
			[]Spec{n("ratio", 4)}},
		{"digit decimal places",
			`@total_spend[v] where "v" is rounded to 2 decimal places.`, "",
			[]Spec{n("total_spend", 2)}},
		{"each answer described apart",
			`@spread[sp] @n_rows[k] where "sp" is the spread of the column rounded to two decimals, and "k" is an integer.`, "",
			[]Spec{n("spread", 2), i("n_rows")}},
		{"bare identifiers as subjects",
			`@slope[b_value], @fit_quality[q_label]. Where b_value is a number rounded to 3 decimal places. Where q_label is a string, "good" or "bad".`, "",
			[]Spec{n("slope", 3), s("fit_quality")}},
		{"shared placeholder",
			`@lo_mean[avg], @hi_mean[avg], @gap[diff] where "avg" is a float rounded to 1 decimal place and "diff" is a whole number.`, "",
			[]Spec{n("lo_mean", 1), n("hi_mean", 1), i("gap")}},
		{"yes or no and true or false",
			`@is_skewed[ans] @differs[flag] where "ans" is either "yes" or "no"; "flag" is True or False.`, "",
			[]Spec{b("is_skewed"), b("differs")}},
		{"boolean word",
			`@heavy_tail[h] where "h" is a boolean telling whether kurtosis exceeds 3.`, "",
			[]Spec{b("heavy_tail")}},
		{"text alternatives",
			`@trend[direction] where "direction" can be "up", "down" or "flat" based on the slope.`, "",
			[]Spec{s("trend")}},
		{"names in a list",
			`@top_regions[region1, region2, ...] where "region1, region2, ..." is a list of names sorted alphabetically.`, "",
			[]Spec{s("top_regions")}},
		{"composite placeholder with shared rounding",
			`@bounds[low_v, high_v] where "low_v" and "high_v" are rounded to two decimal places.`, "",
			[]Spec{{"bounds", 2, KindText}}},
		{"composite placeholder with mixed rounding",
			`@summary[count_v, avg_v] where "count_v" is an integer and "avg_v" is rounded to two decimal places.`, "",
			[]Spec{{"summary", -1, KindText}}},
		{"a sentence about all answers",
			`@first_q[a1] @third_q[a2] where "a1" is the first quartile and "a2" the third. All values must be rounded to 3 decimal places.`, "",
			[]Spec{n("first_q", 3), n("third_q", 3)}},
		{"a count stays whole under a shared rounding",
			`@n_outliers[k] @max_outlier[m] where "k" is the number of outliers and "m" the largest one. Both are to be rounded to 2 decimal places.`, "",
			[]Spec{i("n_outliers"), n("max_outlier", 2)}},
		{"description inside the brackets",
			`@share[the share of returns, rounded to four decimal places] @label[A string, "high" or "low"] @visits[integer]`, "",
			[]Spec{n("share", 4), s("label"), i("visits")}},
		{"description after each token",
			`@q_mean[mean]: The mean should be a real number with two decimals. @q_max[maximum]: The maximum should be an integer.`, "",
			[]Spec{n("q_mean", 2), i("q_max")}},
		{"subject written bare",
			`@visits_mean[mean], @visit_days[days]. The mean should be rounded to one decimal place. The days should be an integer.`, "",
			[]Spec{n("visits_mean", 1), i("visit_days")}},
		{"pronoun goes on",
			`@med_temp["med_t"]\n@span_temp["span_t"]\nwhere "med_t" is the median temperature.\nIt is rounded to three decimal places.\nwhere "span_t" is the range of temperatures, rounded to one decimal place.`, "",
			[]Spec{n("med_temp", 3), n("span_temp", 1)}},
		{"ordinal and nearest",
			`@rate_a[ra] @rate_b[rb] @days[d] where "ra" is rounded to the third decimal place, "rb" to the nearest hundredth and "d" to the nearest whole number.`, "",
			[]Spec{n("rate_a", 3), n("rate_b", 2), i("days")}},
		{"constraints supply the decimals",
			`@corr_xy[r] where "r" is the Pearson coefficient between x and y.`, "Use Pearson's r. Round the result to three decimal places.",
			[]Spec{n("corr_xy", 3)}},
		{"constraints disagree: the closest sentence wins",
			`@p_value[p] @corr[r]`, "Report the p-value to four decimals. Round the correlation to two decimal places.",
			[]Spec{n("p_value", 4), n("corr", 2)}},
		{"the format wins over the constraints",
			`@avg_age[a] where "a" is rounded to one decimal place.`, "Round all values to two decimal places.",
			[]Spec{n("avg_age", 1)}},
		{"constraints do not round text",
			`@is_normal[ans] where "ans" is "yes" or "no".`, "Round results to two decimal places.",
			[]Spec{b("is_normal")}},
		{"hints from names",
			`@outlier_count[c] @top_city[c2] @has_nulls[h] @mean_cost[m]`, "",
			[]Spec{i("outlier_count"), s("top_city"), b("has_nulls"), {"mean_cost", -1, KindNumber}}},
		{"count phrase",
			`@kept[k] where "k" is the number of rows left after cleaning.`, "",
			[]Spec{i("kept")}},
		{"average number of is no count",
			`@avg_orders[v] where "v" is a float giving the average number of orders per customer, rounded to two decimals.`, "",
			[]Spec{n("avg_orders", 2)}},
		{"name repeated in an example",
			`@n_missing[k] where "k" is an integer, e.g. @n_missing[12].`, "",
			[]Spec{i("n_missing")}},
		{"condition does not split a description",
			`@p_norm[p] @normal[ans] where "p" is rounded to four decimal places and "ans" is "yes" if p > 0.05 or "no" otherwise.`, "",
			[]Spec{n("p_norm", 4), b("normal")}},
		{"literal backslash n",
			`@m[mv]\n@s[sv]\nwhere "mv" and "sv" are numbers rounded to 2 decimal places.`, "",
			[]Spec{n("m", 2), n("s", 2)}},
		{"unclosed placeholder",
			`@per_month[{'jan': v1, 'feb': v2, ...`, "Keep only two decimal places.",
			[]Spec{{"per_month", -1, KindText}}},
		{"one-letter placeholders written bare",
			`@corr[r] where r is rounded to two decimal places; @p[p] where p is rounded to four decimal places.`, "",
			[]Spec{n("corr", 2), n("p", 4)}},
		{"slash alternatives", `@answer[x] where x is True/False`, "", []Spec{b("answer")}},
		{"list of integers", `@cluster_sizes[sizes] where "sizes" is a list of integers in descending order.`, "",
			[]Spec{s("cluster_sizes")}},
		{"percentage and count of", `@r2[score] @n_features[n] where "score" is a percentage (one decimal place) and "n" is the count of features used.`, "",
			[]Spec{n("r2", 1), i("n_features")}},
		{"no answers", `Describe the data.`, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Specs(tt.format, tt.constraints); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Specs(%q)\n got %+v\nwant %+v", tt.format, got, tt.want)
			}
		})
	}
}

func TestFindDecimals(t *testing.T) {
	tests := map[string]int{
		"rounded to two decimal places":          2,
		"rounded to 2 decimal places":            2,
		"round to four decimals":                 4,
		"with a precision of one decimal place":  1,
		"up to 3 decimal places":                 3,
		"a two-decimal figure":                   2,
		"no decimal places":                      0,
		"rounded to the second decimal":          2,
		"to the nearest tenth":                   1,
		"to the nearest ten-thousandth":          4,
		"rounded to the nearest integer":         0,
		"2 digits after the decimal point":       2,
		"print it with %.3f":                     3,
		"formatted as {:.2f}":                    2,
		"round to 2dp":                           2,
		"a decimal number between 0 and 1":       -1,
		"a p-value below 0.05":                   -1,
		"rounded to 3 significant figures":       -1,
		"three decimals, or else two decimals":   3,
		"two decimal places for the mean, three": 2,
	}
	for in, want := range tests {
		if got := findDecimals(in); got != want {
			t.Errorf("findDecimals(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestFormat(t *testing.T) {
	specs := []Spec{{"b", 2, KindNumber}, {"a", -1, KindText}, {"c", 0, KindInteger}, {"d", -1, KindText}}
	got := Format(specs, map[string]string{"a": "yes", "b": "1.50", "c": "3", "z": "9"})
	if want := "@b[1.50], @a[yes], @c[3]"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
	if got := Format(specs[:1], map[string]string{"b": ""}); got != "@b[]" {
		t.Errorf("Format with an empty value = %q", got)
	}
	if got := Extract(Format(specs, map[string]string{"a": "x y", "b": "2"})); !reflect.DeepEqual(got, map[string]string{"a": "x y", "b": "2"}) {
		t.Errorf("Extract(Format(...)) = %q", got)
	}
}
