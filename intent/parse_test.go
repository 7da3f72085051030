package intent

import "testing"

func TestParseFilters(t *testing.T) {
	m := []Measure{sumAmount}
	checkCases(t, []parseCase{
		{text: "sales in arizona", want: want{Measures: m, Filters: []Filter{eq("state", "Arizona")},
			Understood: []string{"arizona -> state = 'Arizona'"}}},
		{text: "sales in ARIZONA", want: want{Measures: m, Filters: []Filter{eq("state", "Arizona")}}},
		{text: "sales in Arizna", want: want{Measures: m, Filters: []Filter{eq("state", "Arizona")},
			Understood: []string{"Arizna -> state = 'Arizona'"}}},
		{text: "sales in new york", want: want{Measures: m, Filters: []Filter{eq("state", "New York")}}},
		{text: "sales in New Yrok", want: want{Measures: m, Filters: []Filter{eq("state", "New York")}}},
		{text: "Arizona and Nevada sales", want: want{Measures: m, Filters: []Filter{{"state", "in", []string{"Arizona", "Nevada"}}},
			Understood: []string{"Arizona and Nevada -> state in ('Arizona', 'Nevada')"}}},
		{text: "sales for Arizona, Nevada & Texas", want: want{Measures: m, Filters: []Filter{{"state", "in", []string{"Arizona", "Nevada", "Texas"}}}}},
		{text: "sales excluding Texas", want: want{Measures: m, Filters: []Filter{{"state", "!=", []string{"Texas"}}},
			Understood: []string{"excluding Texas -> state != 'Texas'"}}},
		{text: "sales except Texas", want: want{Measures: m, Filters: []Filter{{"state", "!=", []string{"Texas"}}}}},
		{text: "sales not Texas", want: want{Measures: m, Filters: []Filter{{"state", "!=", []string{"Texas"}}}}},
		{text: "sales except Texas and Nevada", want: want{Measures: m, Filters: []Filter{{"state", "!=", []string{"Texas"}}, {"state", "!=", []string{"Nevada"}}}}},
		{text: "Arizona widget sales", want: want{Measures: m, Filters: []Filter{eq("state", "Arizona"), eq("product", "Widget")}}},
		{text: "revenue for Office Supplies", want: want{Measures: m, Filters: []Filter{eq("category", "Office Supplies")}}},
		{text: "sales where state = 'Texas'", want: want{Measures: m, Filters: []Filter{eq("state", "Texas")},
			Understood: []string{"state = 'Texas' -> state = 'Texas'"}}},
		// Values set side by side are filtered and grouped.
		{text: "Texas vs California revenue", want: want{Measures: m, Filters: []Filter{{"state", "in", []string{"Texas", "California"}}},
			GroupBy: []Group{{"state", ""}}}},
		{text: "number of orders with discount above 20 percent", want: want{Measures: []Measure{countRows},
			Filters: []Filter{{"discount_pct", ">", []string{"20"}}}}},
		// A value in two columns: the one named nearby, else the one with fewer values.
		{text: "cost for billing state Arizona", schema: bothSchema, want: want{Table: "shipments", Measures: []Measure{{Column: "cost", Agg: "sum"}},
			Filters:    []Filter{eq("billing_state", "Arizona")},
			Understood: []string{"billing state Arizona -> billing_state = 'Arizona' (also a value of ship_state; chose billing_state, named nearby)"}}},
		{text: "Arizona shipments cost", schema: bothSchema, want: want{Table: "shipments", Measures: []Measure{{Column: "cost", Agg: "sum"}},
			Filters:    []Filter{eq("ship_state", "Arizona")},
			Understood: []string{"Arizona -> ship_state = 'Arizona' (also a value of billing_state; chose ship_state, the column with fewer distinct values)"}}},
		// Numeric conditions.
		{text: "orders over 100", want: want{Measures: []Measure{countRows}, Filters: []Filter{{"amount", ">", []string{"100"}}},
			Understood: []string{"orders over 100 -> amount > 100"}}},
		{text: "amount > 100 by state", want: want{Measures: m, Filters: []Filter{{"amount", ">", []string{"100"}}}, GroupBy: []Group{{"state", ""}}}},
		{text: "total sales for orders with at least 5 units", want: want{Measures: m, Filters: []Filter{{"quantity", ">=", []string{"5"}}}}},
		{text: "sales of $1,000 or more in Texas", want: want{Measures: m, Filters: []Filter{{"amount", ">=", []string{"1000"}}, eq("state", "Texas")}}},
		{text: "sales under 2.5k", want: want{Measures: m, Filters: []Filter{{"amount", "<", []string{"2500"}}}}},
		{text: "orders between 10 and 50 units", want: want{Measures: []Measure{countRows},
			Filters: []Filter{{"quantity", ">=", []string{"10"}}, {"quantity", "<=", []string{"50"}}}}},
		{text: "average amount where discount_pct >= 20", want: want{Measures: []Measure{{Column: "amount", Agg: "avg"}},
			Filters: []Filter{{"discount_pct", ">=", []string{"20"}}}}},
	})
}

func TestParseMeasures(t *testing.T) {
	checkCases(t, []parseCase{
		{text: "total revenue", want: want{Measures: []Measure{sumAmount}}},
		{text: "turnover", want: want{Measures: []Measure{sumAmount}}},
		{text: "units sold", want: want{Measures: []Measure{{Column: "quantity", Agg: "sum"}}}},
		{text: "sales volume", want: want{Measures: []Measure{sumAmount, {Column: "quantity", Agg: "sum"}}}},
		{text: "number of orders", want: want{Measures: []Measure{countRows}}},
		{text: "how many transactions", want: want{Measures: []Measure{countRows}}},
		{text: "count by state", want: want{Measures: []Measure{countRows}, GroupBy: []Group{{"state", ""}}}},
		{text: "how many customers", want: want{Measures: []Measure{{Column: "customer_id", Agg: "count_distinct"}},
			Understood: []string{"how many customers -> count of distinct customer_id"}}},
		{text: "unique customers by month", want: want{Measures: []Measure{{Column: "customer_id", Agg: "count_distinct"}}, GroupBy: []Group{byMonth}}},
		{text: "how many units did we sell", want: want{Measures: []Measure{{Column: "quantity", Agg: "sum"}}}},
		{text: "average order value", want: want{Measures: []Measure{{Column: "amount", Agg: "avg"}}}},
		{text: "mean amount", want: want{Measures: []Measure{{Column: "amount", Agg: "avg"}}}},
		{text: "median sales", want: want{Measures: []Measure{{Column: "amount", Agg: "median"}}}},
		{text: "minimum and maximum amount", want: want{Measures: []Measure{{Column: "amount", Agg: "min"}, {Column: "amount", Agg: "max"}}}},
		{text: "highest quantity", want: want{Measures: []Measure{{Column: "quantity", Agg: "max"}}}},
		{text: "standard deviation of amount", want: want{Measures: []Measure{{Column: "amount", Agg: "std"}}}},
		{text: "std of quantity", want: want{Measures: []Measure{{Column: "quantity", Agg: "std"}}}},
		{text: "total sales and average quantity", want: want{Measures: []Measure{sumAmount, {Column: "quantity", Agg: "avg"}}}},
		// A rate or percentage is averaged; money and quantities are summed.
		{text: "discount by category", want: want{Measures: []Measure{{Column: "discount_pct", Agg: "avg"}}, GroupBy: []Group{{"category", ""}}}},
		{text: "quantity by product", want: want{Measures: []Measure{{Column: "quantity", Agg: "sum"}}, GroupBy: []Group{{"product", ""}}}},
		// "sales" may be a column of its own.
		{text: "total sales by region", schema: Schema{Tables: []Table{{Name: "t", Columns: []Column{
			{Name: "region", Type: "string"}, {Name: "amount", Type: "float"}, {Name: "Sales", Type: "float"}}}}},
			want: want{Table: "t", Measures: []Measure{{Column: "Sales", Agg: "sum"}}, GroupBy: []Group{{"region", ""}}}},
	})
}

func TestParseGroupsAndTop(t *testing.T) {
	m := []Measure{sumAmount}
	checkCases(t, []parseCase{
		{text: "sales by month", want: want{Measures: m, GroupBy: []Group{byMonth},
			Understood: []string{"by month -> group by month of order_date"}}},
		{text: "weekly sales", want: want{Measures: m, GroupBy: []Group{{"order_date", "week"}}}},
		{text: "quarterly revenue", want: want{Measures: m, GroupBy: []Group{{"order_date", "quarter"}}}},
		{text: "sales per state", want: want{Measures: m, GroupBy: []Group{{"state", ""}}}},
		{text: "sales by state and product", want: want{Measures: m, GroupBy: []Group{{"state", ""}, {"product", ""}}}},
		{text: "sales by month and category", want: want{Measures: m, GroupBy: []Group{byMonth, {"category", ""}}}},
		{text: "sales for each category", want: want{Measures: m, GroupBy: []Group{{"category", ""}}}},
		{text: "revenue breakdown by product", want: want{Measures: m, GroupBy: []Group{{"product", ""}}}},
		{text: "sales by day", want: want{Measures: m, GroupBy: []Group{{"order_date", "day"}}}},
		{text: "states' sales", want: want{Measures: m, GroupBy: []Group{{"state", ""}}}},
		// A trend without a grain: month over a long period, day over a short one.
		{text: "sales trend", want: want{Measures: m, GroupBy: []Group{byMonth}, Analyses: []string{AnalysisTrend},
			Understood: []string{"trend -> by month of order_date (the data spans 728 days)"}}},
		{text: "sales over time in March 2021", want: want{Measures: m, GroupBy: []Group{{"order_date", "day"}}, Analyses: []string{AnalysisTrend},
			Time: od("2021-03-01", "2021-04-01", "March 2021")}},
		{text: "weekly sales trend", want: want{Measures: m, GroupBy: []Group{{"order_date", "week"}}, Analyses: []string{AnalysisTrend}}},
		{text: "top 10 products by revenue", want: want{Measures: m, Top: &TopN{10, "product", true},
			Understood: []string{"top 10 products -> top 10 product by the first measure, highest first"}}},
		{text: "best 5 states by sales", want: want{Measures: m, Top: &TopN{5, "state", true}}},
		{text: "worst 3 categories by quantity", want: want{Measures: []Measure{{Column: "quantity", Agg: "sum"}}, Top: &TopN{3, "category", false}}},
		{text: "sales by state, bottom 5", want: want{Measures: m, GroupBy: []Group{{"state", ""}}, Top: &TopN{5, "state", false}}},
		{text: "top5 products", want: want{Top: &TopN{5, "product", true}}},
		{text: "the 3 best-selling products", want: want{Top: &TopN{3, "product", true}}},
		{text: "the 5 most popular products", want: want{Top: &TopN{5, "product", true}}},
		{text: "least profitable category", want: want{Top: &TopN{1, "category", false}}},
		{text: "top products by sales", want: want{Measures: m, Top: &TopN{10, "product", true}}},
		{text: "which state had the highest sales", want: want{Measures: m, Top: &TopN{1, "state", true}}},
		{text: "worst 3 stores by sales", schema: Schema{Tables: []Table{{Name: "s", Columns: []Column{
			{Name: "store_id", Type: "string"}, {Name: "store_name", Type: "string"}, {Name: "sales", Type: "float"}}}}},
			want: want{Table: "s", Measures: []Measure{{Column: "sales", Agg: "sum"}}, Top: &TopN{3, "store_name", false}}},
	})
}

func TestParseAnalyses(t *testing.T) {
	amount := []Measure{sumAmount}
	checkCases(t, []parseCase{
		{text: "trends + charts of sales", want: want{Measures: amount, GroupBy: []Group{byMonth}, Analyses: []string{AnalysisTrend, AnalysisChart}}},
		{text: "plot sales by state", want: want{Measures: amount, GroupBy: []Group{{"state", ""}}, Analyses: []string{AnalysisChart}}},
		{text: "visualize quantity by category", want: want{Measures: []Measure{{Column: "quantity", Agg: "sum"}}, GroupBy: []Group{{"category", ""}}, Analyses: []string{AnalysisChart}}},
		{text: "distribution of amount", want: want{Measures: amount, Analyses: []string{AnalysisDistribution}}},
		{text: "histogram of quantity", want: want{Measures: []Measure{{Column: "quantity", Agg: "sum"}}, Analyses: []string{AnalysisHistogram}}},
		{text: "correlation between amount and discount", want: want{Measures: []Measure{sumAmount, {Column: "discount_pct", Agg: "avg"}}, Analyses: []string{AnalysisCorrelation}}},
		{text: "corr between amount and discount", want: want{Measures: []Measure{sumAmount, {Column: "discount_pct", Agg: "avg"}}, Analyses: []string{AnalysisCorrelation}}},
		{text: "does discount correlate with quantity", want: want{Measures: []Measure{{Column: "discount_pct", Agg: "avg"}, {Column: "quantity", Agg: "sum"}}, Analyses: []string{AnalysisCorrelation}}},
		{text: "relationship between quantity and amount", want: want{Measures: []Measure{{Column: "quantity", Agg: "sum"}, sumAmount}, Analyses: []string{AnalysisCorrelation}}},
		{text: "outliers in amount", want: want{Measures: amount, Analyses: []string{AnalysisOutliers}}},
		{text: "anomalies in daily sales", want: want{Measures: amount, GroupBy: []Group{{"order_date", "day"}}, Analyses: []string{AnalysisOutliers}}},
		{text: "summary statistics", want: want{Analyses: []string{AnalysisSummary}}},
		{text: "describe the data", want: want{Analyses: []string{AnalysisSummary}}},
		{text: "profile the dataset", want: want{Analyses: []string{AnalysisSummary}}},
		{text: "overview of sales", want: want{Measures: amount, Analyses: []string{AnalysisSummary}}},
		{text: "is amount normally distributed?", want: want{Measures: amount, Analyses: []string{AnalysisNormality}}},
		{text: "Shapiro-Wilk test on quantity", want: want{Measures: []Measure{{Column: "quantity", Agg: "sum"}}, Analyses: []string{AnalysisNormality}}},
		{text: "regression of amount on discount", want: want{Measures: []Measure{sumAmount, {Column: "discount_pct", Agg: "avg"}}, Analyses: []string{AnalysisRegression}}},
		{text: "linear fit of amount vs quantity", want: want{Measures: []Measure{sumAmount, {Column: "quantity", Agg: "sum"}}, Analyses: []string{AnalysisRegression}}},
		{text: "missing values", want: want{Analyses: []string{AnalysisMissing}}},
		{text: "check nulls and completeness", want: want{Analyses: []string{AnalysisMissing}}},
		{text: "sales growth 2021 vs 2020", want: want{Measures: amount, Analyses: []string{AnalysisGrowth},
			Time: od("2021-01-01", "2022-01-01", "2021"), Compare: od("2020-01-01", "2021-01-01", "2020")}},
		{text: "decline in Texas sales", want: want{Measures: amount, Filters: []Filter{eq("state", "Texas")}, Analyses: []string{AnalysisGrowth}}},
		{text: "what percentage of sales comes from Arizona", want: want{Measures: amount, Filters: []Filter{eq("state", "Arizona")}, Analyses: []string{AnalysisShare}}},
		{text: "share of sales by state", want: want{Measures: amount, GroupBy: []Group{{"state", ""}}, Analyses: []string{AnalysisShare}}},
		{text: "percentage of total revenue by category", want: want{Measures: amount, GroupBy: []Group{{"category", ""}}, Analyses: []string{AnalysisShare}}},
		{text: "product mix", want: want{GroupBy: []Group{{"product", ""}}, Analyses: []string{AnalysisShare}}},
		{text: "contribution of each category to revenue", want: want{Measures: amount, GroupBy: []Group{{"category", ""}}, Analyses: []string{AnalysisShare}}},
		{text: "pie chart of sales by category", want: want{Measures: amount, GroupBy: []Group{{"category", ""}}, Analyses: []string{AnalysisChart, AnalysisShare}}},
	})
}

// Quoted names are exact column references, in any quotes.
func TestParseQuotedColumns(t *testing.T) {
	titanic := Schema{Tables: []Table{{Name: "titanic", Rows: 891, Columns: []Column{
		{Name: "PassengerId", Type: "integer"}, {Name: "Survived", Type: "integer"},
		{Name: "Pclass", Type: "integer"}, {Name: "Sex", Type: "string", Values: []string{"male", "female"}},
		{Name: "Age", Type: "float"}, {Name: "SibSp", Type: "integer"}, {Name: "Fare", Type: "float"},
		{Name: "Embarked", Type: "string", Values: []string{"C", "Q", "S"}},
	}}}}
	checkCases(t, []parseCase{
		{text: "average 'Fare' by \"Pclass\"", schema: titanic, want: want{Table: "titanic",
			Measures: []Measure{{Column: "Fare", Agg: "avg"}}, GroupBy: []Group{{"Pclass", ""}}}},
		{text: "distribution of `Age`", schema: titanic, want: want{Table: "titanic",
			Measures: []Measure{{Column: "Age", Agg: "avg"}}, Analyses: []string{AnalysisDistribution}}},
		{text: "correlation between “SibSp” and ‘Fare’", schema: titanic, want: want{Table: "titanic",
			Measures: []Measure{{Column: "SibSp", Agg: "avg"}, {Column: "Fare", Agg: "sum"}}, Analyses: []string{AnalysisCorrelation}}},
		{text: "fare by sex for female passengers", schema: titanic, want: want{Table: "titanic",
			Measures: []Measure{{Column: "Fare", Agg: "sum"}}, GroupBy: []Group{{"Sex", ""}}, Filters: []Filter{eq("Sex", "female")}}},
		{text: "age where Embarked = S", schema: titanic, want: want{Table: "titanic",
			Measures: []Measure{{Column: "Age", Agg: "avg"}}, Filters: []Filter{eq("Embarked", "S")}}},
		{text: "sum of `amount` by 'state'", want: want{Measures: []Measure{sumAmount}, GroupBy: []Group{{"state", ""}}}},
	})
}

// The table is the one whose columns and values the request names.
func TestParseTable(t *testing.T) {
	checkCases(t, []parseCase{
		{text: "total amount by state", schema: bothSchema, want: want{Measures: []Measure{sumAmount}, GroupBy: []Group{{"state", ""}},
			Understood: []string{"table sales (it holds the most of the columns and values named)"}}},
		{text: "cost by carrier", schema: bothSchema, want: want{Table: "shipments", Measures: []Measure{{Column: "cost", Agg: "sum"}}, GroupBy: []Group{{"carrier", ""}}}},
		{text: "summary of shipments", schema: bothSchema, want: want{Table: "shipments", Analyses: []string{AnalysisSummary},
			Understood: []string{"shipments -> table shipments"}}},
	})
}

// Words nothing understood are reported, stop words are not.
func TestParseUnparsed(t *testing.T) {
	checkCases(t, []parseCase{
		{text: "Please show me the total sales for our flagship stores in Texas", want: want{
			Measures: []Measure{sumAmount}, Filters: []Filter{eq("state", "Texas")}, Unparsed: []string{"flagship", "stores"}}},
	})
}
