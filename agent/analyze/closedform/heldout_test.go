package closedform

import (
	"context"
	"os"
	"reflect"
	"testing"
)

// TestAnswerStores asks questions in the benchmark's style, worded
// differently from its questions, over a table none of them uses
// (testdata/stores.csv). The expected values were computed independently
// with Python's statistics module.
func TestAnswerStores(t *testing.T) {
	csv, err := os.ReadFile("testdata/stores.csv")
	if err != nil {
		t.Fatal(err)
	}
	e, table := loadTable(t, string(csv))
	tests := []struct {
		name     string
		question Question
		specs    []Spec
		want     map[string]string
	}{
		{
			"median with a filter by a named value",
			Question{Text: "What is the median revenue of the stores located in the North region?",
				Constraints: "Only consider stores whose region is North. Round to two decimals.",
				Format:      `@median_revenue[value] where "value" is a number rounded to two decimal places.`},
			[]Spec{{"median_revenue", 2, KindNumber}},
			map[string]string{"median_revenue": "1465.11"},
		},
		{
			"sample variance",
			Question{Text: "Compute the variance of the number of units sold.", Constraints: "Use the sample variance (ddof=1).",
				Format: `@units_variance[var] rounded to two decimal places.`},
			[]Spec{{"units_variance", 2, KindNumber}},
			map[string]string{"units_variance": "2388.59"},
		},
		{
			"Spearman correlation with its p-value",
			Question{Text: "Is advertising spend associated with revenue?",
				Constraints: "Use Spearman's rank correlation between the advertising and revenue columns. Report the coefficient and the p-value.",
				Format:      `@spearman_rho[rho] @p_value[p] where "rho" is rounded to four decimal places and "p" to four decimal places.`},
			[]Spec{{"spearman_rho", 4, KindNumber}, {"p_value", 4, KindNumber}},
			map[string]string{"spearman_rho": "0.3977", "p_value": "0.0017"},
		},
		{
			"a new column from a formula",
			Question{Text: `Add a column "profit_margin" defined as (revenue - returns) / revenue and report its average.`,
				Format: `@avg_profit_margin[m] where "m" is rounded to four decimal places.`},
			[]Spec{{"avg_profit_margin", 4, KindNumber}},
			map[string]string{"avg_profit_margin": "0.9439"},
		},
		{
			"missing values, count and share",
			Question{Text: "How many ratings are missing, and what percentage of all rows is that?",
				Format: `@missing_ratings[n] @missing_percentage[pct] where "n" is an integer and "pct" is a percentage rounded to two decimal places.`},
			[]Spec{{"missing_ratings", 0, KindInteger}, {"missing_percentage", 2, KindNumber}},
			map[string]string{"missing_ratings": "5", "missing_percentage": "8.33"},
		},
		{
			"the group with the highest average",
			Question{Text: "Which region has the highest average revenue?", Format: `@top_region[region_name]`},
			[]Spec{{"top_region", -1, KindText}},
			map[string]string{"top_region": "North"},
		},
		{
			"IQR outliers",
			Question{Text: "Detect outliers in the units column with the interquartile range rule.",
				Constraints: "A value is an outlier if it lies more than 1.5 times the IQR below Q1 or above Q3.",
				Format:      `@num_outliers[count]`},
			[]Spec{{"num_outliers", 0, KindInteger}},
			map[string]string{"num_outliers": "2"},
		},
		{
			"median imputation",
			Question{Text: "Impute the missing values in the rating column with the median rating, then compute the mean rating.",
				Format: `@mean_rating[mean] rounded to three decimal places.`},
			[]Spec{{"mean_rating", 3, KindNumber}},
			map[string]string{"mean_rating": "3.725"},
		},
		{
			"one-way ANOVA across a column's groups",
			Question{Text: "Does revenue differ between regions?",
				Constraints: "Run a one-way ANOVA of revenue across the regions. The difference is significant if the p-value is below 0.05.",
				Format:      `@f_statistic[F] @p_value[p] @significant[answer] where "F" is rounded to two decimals, "p" to four decimals, and "answer" is "yes" or "no".`},
			[]Spec{{"f_statistic", 2, KindNumber}, {"p_value", 4, KindNumber}, {"significant", -1, KindBool}},
			map[string]string{"f_statistic": "1.27", "p_value": "0.2947", "significant": "no"},
		},
		{
			"rows above a threshold",
			Question{Text: "How many stores have revenue greater than 1000?", Format: `@store_count[n]`},
			[]Spec{{"store_count", 0, KindInteger}},
			map[string]string{"store_count": "53"},
		},
		{
			"scipy skewness",
			Question{Text: "Measure the skewness of revenue.", Constraints: "Use scipy.stats.skew with its default settings.",
				Format: `@revenue_skew[s] rounded to two decimal places.`},
			[]Spec{{"revenue_skew", 2, KindNumber}},
			map[string]string{"revenue_skew": "3.00"},
		},
		{
			"means of groups named by number",
			Question{Text: "Calculate the mean revenue for each month.", Format: `@mean_revenue_month1[m1] @mean_revenue_month2[m2], each rounded to two decimal places.`},
			[]Spec{{"mean_revenue_month1", 2, KindNumber}, {"mean_revenue_month2", 2, KindNumber}},
			map[string]string{"mean_revenue_month1": "1352.27", "mean_revenue_month2": "1365.87"},
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

// TestAnswerHarder covers kinds that combine steps: tests between named
// groups, removal of outliers before a statistic, a filtered
// correlation, shares of a group and a test of independence.
func TestAnswerHarder(t *testing.T) {
	csv, err := os.ReadFile("testdata/stores.csv")
	if err != nil {
		t.Fatal(err)
	}
	stores, storesTable := loadTable(t, string(csv))
	people, peopleTable := loadTable(t, passengers)
	tests := []struct {
		name     string
		engine   Querier
		table    string
		question Question
		specs    []Spec
		want     map[string]string
	}{
		{
			"two-sample t-test between named groups",
			stores, storesTable,
			Question{Text: "Is there a significant difference in revenue between North and South stores?",
				Constraints: "Use an independent two-sample t-test with alpha 0.05. If the p-value is less than 0.05 the difference is significant.",
				Format:      `@north_mean_revenue[m1] @south_mean_revenue[m2] @p_value[p] @result[r] where the means are rounded to two decimals, "p" to four, and "r" is "significant" or "not significant".`},
			[]Spec{{"north_mean_revenue", 2, KindNumber}, {"south_mean_revenue", 2, KindNumber}, {"p_value", 4, KindNumber}, {"result", -1, KindText}},
			map[string]string{"north_mean_revenue": "1680.42", "south_mean_revenue": "1430.79", "p_value": "0.3694", "result": "not significant"},
		},
		{
			"z-score removal, then the standard deviation",
			stores, storesTable,
			Question{Text: "Remove the outliers in units using the Z-score method (|z| > 3) and report how many were removed and the new standard deviation of units.",
				Format: `@removed[n] @std_units_after[sd] where "n" is an integer and "sd" is rounded to two decimals.`},
			[]Spec{{"removed", 0, KindInteger}, {"std_units_after", 2, KindNumber}},
			map[string]string{"removed": "2", "std_units_after": "26.29"},
		},
		{
			"pandas kurtosis",
			stores, storesTable,
			Question{Text: "What is the kurtosis of the units column?", Constraints: "Use the pandas kurt() method.",
				Format: `@units_kurtosis[k] rounded to two decimals.`},
			[]Spec{{"units_kurtosis", 2, KindNumber}},
			map[string]string{"units_kurtosis": "13.62"},
		},
		{
			"correlation inside one group",
			stores, storesTable,
			Question{Text: "What is the Pearson correlation between units and revenue for stores in the West region?",
				Format: `@west_correlation[r] rounded to three decimal places.`},
			[]Spec{{"west_correlation", 3, KindNumber}},
			map[string]string{"west_correlation": "0.929"},
		},
		{
			"share of a group",
			stores, storesTable,
			Question{Text: "What percentage of the stores are in the North region?", Format: `@north_percentage[pct] rounded to two decimals.`},
			[]Spec{{"north_percentage", 2, KindNumber}},
			map[string]string{"north_percentage": "25.00"},
		},
		{
			"chi-square test of independence",
			people, peopleTable,
			Question{Text: "Is survival associated with sex?",
				Constraints: "Perform a chi-square test of independence between the sex and survived columns.",
				Format:      `@chi2_statistic[chi2] @p_value[p] where "chi2" is rounded to four decimals and "p" to four decimals.`},
			[]Spec{{"chi2_statistic", 4, KindNumber}, {"p_value", 4, KindNumber}},
			map[string]string{"chi2_statistic": "9.1429", "p_value": "0.0025"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.question
			q.Table = tt.table
			got, err := Answer(context.Background(), tt.engine, q, tt.specs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Answer(%q) = %v; want %v", q.Text, got, tt.want)
			}
		})
	}
}

// TestAnswerPhrasings asks common questions in several wordings.
func TestAnswerPhrasings(t *testing.T) {
	e, table := loadTable(t, passengers)
	tests := []struct {
		text, format string
		specs        []Spec
		want         map[string]string
	}{
		{"What proportion of passengers survived?", `@survival_rate[rate] where "rate" is between 0 and 1, rounded to two decimals.`,
			[]Spec{{"survival_rate", 2, KindNumber}}, map[string]string{"survival_rate": "0.50"}},
		{"What is the average fare of passengers older than 30?", `@mean_fare[m] rounded to two decimals.`,
			[]Spec{{"mean_fare", 2, KindNumber}}, map[string]string{"mean_fare": "96.31"}},
		{"Count the passengers in each class and report the count for class 3.", `@class3_count[n]`,
			[]Spec{{"class3_count", 0, KindInteger}}, map[string]string{"class3_count": "8"}},
		{"What is the maximum age among female passengers?", `@max_age[age]`,
			[]Spec{{"max_age", -1, KindNumber}}, map[string]string{"max_age": "58"}},
		{"How many unique values are there in the pclass column?", `@unique_classes[n]`,
			[]Spec{{"unique_classes", 0, KindInteger}}, map[string]string{"unique_classes": "3"}},
		{"What is the range of the fares?", `@fare_range[r] rounded to two decimals.`,
			[]Spec{{"fare_range", 2, KindNumber}}, map[string]string{"fare_range": "505.08"}},
		{"Drop the rows with a missing age, then calculate the mean fare.", `@mean_fare[m] rounded to two decimals.`,
			[]Spec{{"mean_fare", 2, KindNumber}}, map[string]string{"mean_fare": "58.18"}},
		{"What is the 90th percentile of the fare?", `@fare_p90[value] rounded to two decimals.`,
			[]Spec{{"fare_p90", 2, KindNumber}}, map[string]string{"fare_p90": "62.19"}},
		{"What is the standard deviation of age for survivors?", `@std_age_survivors[sd] rounded to two decimals.`,
			[]Spec{{"std_age_survivors", 2, KindNumber}}, map[string]string{"std_age_survivors": "18.59"}},
		{"Calculate the correlation between the age and fare columns using Kendall's tau.", `@tau[t] rounded to four decimals.`,
			[]Spec{{"tau", 4, KindNumber}}, map[string]string{"tau": "0.3558"}},
		{"Find the median age of passengers in first class.", `@median_age[m]`,
			[]Spec{{"median_age", 1, KindNumber}}, map[string]string{"median_age": "46.0"}},
		{"Normalize the fare column with min-max scaling and report the mean of the normalized fare.", `@mean_normalized_fare[m] rounded to four decimals.`,
			[]Spec{{"mean_normalized_fare", 4, KindNumber}}, map[string]string{"mean_normalized_fare": "0.0947"}},
		{"What is the mode of the pclass column?", `@pclass_mode[mode]`,
			[]Spec{{"pclass_mode", 0, KindInteger}}, map[string]string{"pclass_mode": "3"}},
		{`Create a new column "fare_per_person" = fare / (sibsp + parch + 1). What is its maximum?`, `@max_fare_per_person[m] rounded to two decimals.`,
			[]Spec{{"max_fare_per_person", 2, KindNumber}}, map[string]string{"max_fare_per_person": "512.33"}},
		{"How many passengers paid a fare above 30?", `@count[n]`,
			[]Spec{{"count", 0, KindInteger}}, map[string]string{"count": "6"}},
		{"What is the mean age of the passengers who did not survive?", `@mean_age[m] rounded to one decimal.`,
			[]Spec{{"mean_age", 1, KindNumber}}, map[string]string{"mean_age": "29.0"}},
		{"Which passenger class has the lowest average fare?", `@pclass[class]`,
			[]Spec{{"pclass", 0, KindInteger}}, map[string]string{"pclass": "3"}},
		{"Calculate the interquartile range of age.", `@age_iqr[iqr] rounded to two decimals.`,
			[]Spec{{"age_iqr", 2, KindNumber}}, map[string]string{"age_iqr": "17.50"}},
	}
	for _, tt := range tests {
		got, err := Answer(context.Background(), e, Question{Text: tt.text, Format: tt.format, Table: table}, tt.specs)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Answer(%q) = %v; want %v", tt.text, got, tt.want)
		}
	}
}
