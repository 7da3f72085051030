package analyze_test

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/analysis"
	"github.com/quarry-dev/quarry/llm"
	"github.com/quarry-dev/quarry/llm/llmtest"
)

// The tables of these tests are written by the tests: shapes a user brings
// that the sample data does not have (an integer year column, names that
// are abbreviations, values written as adjectives), with the answers
// computed here in plain Go.

// weatherRows is a daily weather table: date, temp_max, temp_min,
// precipitation, weather (sun, rain, fog), for 2014 and 2015.
func weatherRows() [][]string {
	rows := [][]string{{"date", "temp_max", "temp_min", "precipitation", "weather"}}
	d := time.Date(2014, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := 0; d.Year() < 2016; k, d = k+1, d.AddDate(0, 0, 1) {
		hi := 10 + float64(k%29)    // 10 .. 38
		lo := hi - 8 - float64(k%3) // below the high
		rain := float64(k%7) * 0.5  // 0 .. 3
		sky := []string{"sun", "rain", "fog", "sun"}[k%4]
		rows = append(rows, []string{d.Format("2006-01-02"), fmt.Sprint(hi), fmt.Sprint(lo), fmt.Sprint(rain), sky})
	}
	return rows
}

// lifeRows is a country table with an integer year column and a
// measure that does not add up (life expectancy).
func lifeRows() [][]string {
	rows := [][]string{{"country", "continent", "year", "life_expect", "pop"}}
	countries := []struct{ name, cont string }{{"Arland", "North"}, {"Borvia", "North"}, {"Cestia", "South"}, {"Dunmark", "South"}, {"Eswana", "South"}}
	for _, y := range []int{1995, 2000, 2005} {
		for i, c := range countries {
			life := 60 + float64(i*4) + float64(y-1995)/5*float64(5-i)
			rows = append(rows, []string{c.name, c.cont, fmt.Sprint(y), fmt.Sprint(life), fmt.Sprint(1000 * (i + 1) * (y - 1990))})
		}
	}
	return rows
}

func writeRows(t *testing.T, name string, rows [][]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.WriteAll(rows)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// readTable reads a table artifact of res by its task.
func readTable(t *testing.T, res *analysis.Result, task string) [][]string {
	t.Helper()
	for _, a := range res.Artifacts {
		if a.ArtifactType == analysis.ArtifactTable && a.TaskID == task {
			f, err := os.Open(a.ContentRef)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := csv.NewReader(f).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			return rows
		}
	}
	var tasks []string
	for _, a := range res.Artifacts {
		tasks = append(tasks, a.TaskID)
	}
	t.Fatalf("no table of step %s; tables of %v (plan: %s)", task, tasks, res.Plan.Reasoning)
	return nil
}

func runRequest(t *testing.T, text string, paths ...string) *analysis.Result {
	t.Helper()
	e := newEnv(t)
	var srcs []analysis.DataSource
	for _, p := range paths {
		srcs = append(srcs, csvSource(p))
	}
	res, err := e.a.Run(context.Background(), analysis.Request{Intent: text, DataSources: srcs,
		Deliverables: []string{analysis.DeliverTables, analysis.DeliverSummary}})
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return res
}

func TestIntegerYearColumnIsAPeriod(t *testing.T) {
	path := writeRows(t, "life.csv", lifeRows())
	res := runRequest(t, "Top 2 countries by life expectancy in 2005", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	rows := readTable(t, res, "by_country")
	// 2005: life = 60 + 4i + 2(5-i) = 70 + 2i: Eswana 78, Dunmark 76.
	want := [][]string{{"Eswana", "78"}, {"Dunmark", "76"}}
	if len(rows) != 3 || rows[1][0] != want[0][0] || rows[1][1] != want[0][1] || rows[2][0] != want[1][0] || rows[2][1] != want[1][1] {
		t.Errorf("rows %v; want the two 2005 values %v, averaged, not summed over the years", rows, want)
	}
	res = runRequest(t, "total population by continent in 2000", path)
	rows = readTable(t, res, "by_continent")
	// 2000: pop = 10000(i+1): North 10000+20000, South 30000+40000+50000.
	if len(rows) != 3 || rows[1][0] != "South" || rows[1][1] != "120000" || rows[2][1] != "30000" {
		t.Errorf("rows %v; want South 120000, North 30000", rows)
	}
}

func TestAbbreviatedColumnsAndAdjectiveValues(t *testing.T) {
	path := writeRows(t, "weather.csv", weatherRows())
	wr := weatherRows()[1:]
	hot, sunny := 0, 0
	for _, r := range wr {
		var hi float64
		fmt.Sscan(r[1], &hi)
		if strings.HasPrefix(r[0], "2015") && hi > 30 {
			hot++
		}
		if r[4] == "sun" {
			sunny++
		}
	}
	res := runRequest(t, "How many days in 2015 had a high temperature above 30 degrees?", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	if rows := readTable(t, res, "totals"); rows[1][0] != fmt.Sprint(hot) {
		t.Errorf("totals %v; want %d days", rows, hot)
	}
	res = runRequest(t, "number of sunny days", path)
	if rows := readTable(t, res, "totals"); res.Status != analysis.StatusCompleted || rows[1][0] != fmt.Sprint(sunny) {
		t.Errorf("%s, totals %v; want %d sunny days", res.Status, rows, sunny)
	}
}

func TestTwoGroupingsMakeOneTable(t *testing.T) {
	path := writeRows(t, "life.csv", lifeRows())
	res := runRequest(t, "average life expectancy by continent and year", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	rows := readTable(t, res, "by_continent_year")
	if len(rows) != 7 || !slices.Equal(rows[0][:2], []string{"continent", "year"}) {
		t.Fatalf("rows %v; want one row per continent and year (6)", rows)
	}
	// North 1995: (60 + 64) / 2 = 62.
	if !slices.Equal(rows[1], []string{"North", "1995", "62"}) {
		t.Errorf("first row %v; want North 1995 62", rows[1])
	}
}

func TestWordsNotUnderstoodAreNotAnswered(t *testing.T) {
	path := writeRows(t, "weather.csv", weatherRows())
	for _, c := range []struct{ text, word, reason string }{
		{"How many days had a high temperature above 30 and humidity below 40?", "humidity", "no column"},
		{"Forecast the daily precipitation for the next 30 days", "Forecast", "no tool forecasts"},
		{"average wind speed by weather", "wind", "no column"},
		{"Why did rainfall drop in 2015?", "Why", "not why"},
	} {
		res := runRequest(t, c.text, path)
		if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != quarry.ECodeNeedsClarification {
			t.Errorf("%q: %s %+v; want failed with %s", c.text, res.Status, res.Error, quarry.ECodeNeedsClarification)
			continue
		}
		if len(res.Artifacts) != 0 || res.Plan != nil {
			t.Errorf("%q: %d artifacts and a plan; want nothing answered", c.text, len(res.Artifacts))
		}
		cl := res.Clarification
		if cl == nil || !slices.ContainsFunc(cl.NotUnderstood, func(u analysis.UnknownWord) bool {
			return u.Word == c.word && strings.Contains(u.Reason, c.reason)
		}) {
			t.Errorf("%q: clarification %+v; want %q (%s) among what was not understood", c.text, cl, c.word, c.reason)
		}
	}
	res := runRequest(t, "average maximum temperature by sky", path)
	u := res.Clarification
	if u == nil || len(u.NotUnderstood) == 0 || u.NotUnderstood[0].Word != "sky" || len(u.Understood) == 0 {
		t.Fatalf("clarification %+v; want sky not understood, and what was", u)
	}
	// "a high" is temp_max only while no other column is a maximum.
	rows := weatherRows()
	rows[0] = append(rows[0], "wind_max")
	for i := 1; i < len(rows); i++ {
		rows[i] = append(rows[i], "12")
	}
	res = runRequest(t, "How many days had a high above 30?", writeRows(t, "windy.csv", rows))
	if u := res.Clarification; u == nil || len(u.NotUnderstood) == 0 || u.NotUnderstood[0].Word != "high" || !slices.Contains(u.NotUnderstood[0].Nearest, "temp_max") {
		t.Errorf("clarification %+v; want high not understood, temp_max nearest", u)
	}
}

// TestADaysHighAndLowAreItsExtremes reads "the high" and "a low" as the
// table's one maximum and minimum column, "hottest" as the maximum, and
// "days" over a table of one row a day as a count of rows.
func TestADaysHighAndLowAreItsExtremes(t *testing.T) {
	path := writeRows(t, "weather.csv", weatherRows())
	for _, c := range []struct{ text, want string }{
		// hi = 10 + k%29 over k = 0..729: above 30 for k%29 in 21..28,
		// 8 days of each of 25 whole cycles.
		{"How many days had a high above 30?", "200"},
		{"Days with a high above 30", "200"},
		// lo = hi-8-k%3 is below 3 only for hi 10 (k%3 = 1, 2) and hi 11
		// (k%3 = 2): 2015 has k = 365..729.
		{"On how many days did the low drop below 3 in 2015?", fmt.Sprint(countLows(3, 2015))},
		{"What was the hottest daily high recorded in 2015?", "38"},
	} {
		res := runRequest(t, c.text, path)
		if res.Status != analysis.StatusCompleted {
			t.Errorf("%q: %s %+v", c.text, res.Status, res.Error)
			continue
		}
		if got := readTable(t, res, "totals")[1][0]; got != c.want {
			t.Errorf("%q = %s, want %s (plan: %s)", c.text, got, c.want, res.Plan.Reasoning)
		}
	}
}

// countLows counts the days of year whose low in weatherRows is below v.
func countLows(v float64, year int) int {
	n := 0
	for _, r := range weatherRows()[1:] {
		lo, _ := strconv.ParseFloat(r[2], 64)
		if strings.HasPrefix(r[0], fmt.Sprint(year)) && lo < v {
			n++
		}
	}
	return n
}

func TestWhichNRanksByTheMeasure(t *testing.T) {
	rows := [][]string{{"station", "rain_mm"}}
	for i, s := range []string{"North", "South", "East", "West", "Hill", "Lake"} {
		for k := 0; k < 3; k++ {
			rows = append(rows, []string{s, fmt.Sprint((i*7)%11 + k)})
		}
	}
	// totals: North 3, South 24, East 12, West 33, Hill 21, Lake 9
	path := writeRows(t, "rain.csv", rows)
	res := runRequest(t, "Which 3 stations had the highest total rain?", path)
	got := readTable(t, res, "by_station")
	want := [][]string{{"station", "rain_mm"}, {"West", "33"}, {"South", "24"}, {"Hill", "21"}}
	if res.Status != analysis.StatusCompleted || len(got) != len(want) || !slices.Equal(got[1], want[1]) || !slices.Equal(got[3], want[3]) {
		t.Errorf("%s %v; want %v", res.Status, got, want)
	}
}

func TestTwoTablesJoinByAnInferredKey(t *testing.T) {
	// Sales name their store by a code; the stores table calls it id
	// and holds the region. No column name is shared.
	stores := [][]string{{"id", "store_name", "region"}}
	regions := []string{"North", "South", "West"}
	for i := 0; i < 9; i++ {
		stores = append(stores, []string{fmt.Sprintf("S%02d", i), fmt.Sprintf("Store %d", i), regions[i%3]})
	}
	sales := [][]string{{"sale_no", "shop", "amount"}}
	want := map[string]int{}
	for k := 0; k < 60; k++ {
		i := (k * 7) % 9
		amt := 10 + k
		sales = append(sales, []string{fmt.Sprint(1000 + k), fmt.Sprintf("S%02d", i), fmt.Sprint(amt)})
		want[regions[i%3]] += amt
	}
	res := runRequest(t, "total amount by region", writeRows(t, "sales.csv", sales), writeRows(t, "stores.csv", stores))
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	rows := readTable(t, res, "by_region")
	if len(rows) != 4 {
		t.Fatalf("rows %v; want the 3 regions", rows)
	}
	for _, r := range rows[1:] {
		if r[1] != fmt.Sprint(want[r[0]]) {
			t.Errorf("region %s: %s; want %d (sales joined to their store's region)", r[0], r[1], want[r[0]])
		}
	}
}

// TestAValueTwoKeysAway: order lines name a product, products a
// category, and only the categories table names it: "total amt for
// Beverages" follows both keys.
func TestAValueTwoKeysAway(t *testing.T) {
	cats := [][]string{{"cat_id", "cat_name"}, {"C1", "Beverages"}, {"C2", "Snacks"}, {"C3", "Dairy"}, {"C4", "Bakery"}, {"C5", "Frozen"}}
	prods := [][]string{{"prod_id", "prod_name", "cat_id"}}
	for i := 0; i < 10; i++ {
		prods = append(prods, []string{fmt.Sprintf("P%02d", i), fmt.Sprintf("Item %d", i), fmt.Sprintf("C%d", i%5+1)})
	}
	lines := [][]string{{"line_no", "prod_id", "amt"}}
	want := map[string]int{}
	for k := 0; k < 50; k++ {
		i := (k * 3) % 10
		lines = append(lines, []string{fmt.Sprint(k + 1), fmt.Sprintf("P%02d", i), fmt.Sprint(5 + k)})
		want[cats[i%5+1][1]] += 5 + k
	}
	res := runRequest(t, "total amt for Beverages", writeRows(t, "lines.csv", lines), writeRows(t, "prods.csv", prods), writeRows(t, "cats.csv", cats))
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	rows := readTable(t, res, "totals")
	if len(rows) != 2 || rows[1][0] != fmt.Sprint(want["Beverages"]) {
		t.Errorf("totals %v; want amt %d for Beverages (plan %s)", rows, want["Beverages"], res.Plan.Reasoning)
	}
}

// TestAShareOfTheRowsANounDescribes: "what % of male patients had grade
// 5" is a share of the male patients, not of all of them.
func TestAShareOfTheRowsANounDescribes(t *testing.T) {
	rows := [][]string{{"pt_id", "sex", "grade"}}
	for i := 0; i < 40; i++ {
		sex, grade := "F", 1+i%5
		if i%4 == 0 {
			sex = "M" // 10 men: i = 0, 4, ..., 36; grade 5 when i%5 == 4: i = 4, 24
		}
		rows = append(rows, []string{fmt.Sprint(i + 1), sex, fmt.Sprint(grade)})
	}
	res := runRequest(t, "what % of male patients had grade 5", writeRows(t, "pts.csv", rows))
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	got := readTable(t, res, "share")
	if len(got) != 2 || got[1][0] != "2" || got[1][1] != "10" || got[1][2] != "20" {
		t.Errorf("share %v; want 2 of the 10 men, 20%%", got)
	}
}

// A column name the data does not have is recorded as a request that
// needs clarifying, with the closest column, and nothing is computed.
func TestUnknownColumnNeedsClarification(t *testing.T) {
	res := runRequest(t, `average "quantiy" by state`, salesCSV)
	if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != quarry.ECodeNeedsClarification || !strings.Contains(res.Error.Message, "quantiy") {
		t.Fatalf("%s %+v; want failed, %s, naming quantiy", res.Status, res.Error, quarry.ECodeNeedsClarification)
	}
	if c := res.Clarification; c == nil || len(c.NotUnderstood) != 1 || c.NotUnderstood[0].Word != "quantiy" || !slices.Contains(c.NotUnderstood[0].Nearest, "quantity") {
		t.Errorf("clarification %+v; want quantiy, nearest quantity", res.Clarification)
	}
	if len(res.Artifacts) != 0 || res.Plan != nil {
		t.Errorf("%d artifacts, plan %v; want nothing computed", len(res.Artifacts), res.Plan)
	}
}

func TestShareOfAFilterAndChangeBetweenYears(t *testing.T) {
	path := writeRows(t, "weather.csv", weatherRows())
	sunny2015, days2015 := 0, 0
	for _, r := range weatherRows()[1:] {
		if strings.HasPrefix(r[0], "2015") {
			days2015++
			if r[4] == "sun" {
				sunny2015++
			}
		}
	}
	res := runRequest(t, "What share of days in 2015 were sunny?", path)
	rows := readTable(t, res, "share")
	want := fmt.Sprintf("%.4f", 100*float64(sunny2015)/float64(days2015))
	var got float64
	fmt.Sscan(rows[1][2], &got)
	if res.Status != analysis.StatusCompleted || rows[1][0] != fmt.Sprint(sunny2015) || rows[1][1] != fmt.Sprint(days2015) || fmt.Sprintf("%.4f", got) != want {
		t.Errorf("%s %v; want %d of %d days, %s%%", res.Status, rows, sunny2015, days2015, want)
	}

	life := writeRows(t, "life.csv", lifeRows())
	// pop of Arland: 1000 * (y - 1990): 5000 in 1995, 15000 in 2005: +200%.
	res = runRequest(t, "By how many percent did Arland's population grow from 1995 to 2005?", life)
	rows = readTable(t, res, "by_year_growth")
	if res.Status != analysis.StatusCompleted || len(rows) != 3 || rows[2][0] != "2005" || rows[2][slices.Index(rows[0], "change_pct")] != "200" || rows[2][slices.Index(rows[0], "factor")] != "3" {
		t.Errorf("%s %v; want 1995 and 2005 with a change of 200%%", res.Status, rows)
	}
	// "across countries for each year": averaged over the countries.
	res = runRequest(t, "average life expectancy across countries for each year", life)
	rows = readTable(t, res, "by_year")
	if res.Status != analysis.StatusCompleted || len(rows) != 4 || !slices.Equal(rows[0][:1], []string{"year"}) {
		t.Errorf("%s %v; want one row per year", res.Status, rows)
	}
}

func TestRankingLeavesOutRowsWithoutAName(t *testing.T) {
	rows := [][]string{{"director", "gross"}, {"", "900"}, {"Ann", "300"}, {"Bo", "200"}, {"Ann", "50"}, {"Cy", "100"}}
	res := runRequest(t, "top 2 directors by total gross", writeRows(t, "films.csv", rows))
	got := readTable(t, res, "by_director")
	if res.Status != analysis.StatusCompleted || len(got) != 3 || !slices.Equal(got[1], []string{"Ann", "350"}) || !slices.Equal(got[2], []string{"Bo", "200"}) {
		t.Errorf("%s %v; want Ann 350, Bo 200 (no blank director)", res.Status, got)
	}
}

// With a model, words the parser could not apply are restated by the
// model in the data's terms and read again by the same parser; what the
// model cannot restate is not answered, and no plan is asked of it.
func TestModelRestatesWordsTheParserCouldNotApply(t *testing.T) {
	path := writeRows(t, "weather.csv", weatherRows())
	for _, c := range []struct {
		name     string
		restated map[string]any
		status   string
	}{
		{"restated", map[string]any{"restated": "average temp_max by weather", "unclear": []any{}}, analysis.StatusCompleted},
		{"unclear", map[string]any{"restated": "", "unclear": []any{"sky"}}, analysis.StatusFailed},
		{"restated into words still unknown", map[string]any{"restated": "average temp_max by cloudiness", "unclear": []any{}}, analysis.StatusFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			var purposes []string
			m := &llmtest.Model{ModelName: "test/resolver", Reply: func(req *llm.Request) (*llm.Response, error) {
				purposes = append(purposes, req.Purpose)
				if req.Purpose == "analysis_resolve" {
					return llmtest.JSON(c.restated), nil
				}
				return nil, errors.New("no plan from this model")
			}}
			e := newEnv(t)
			e.a.Model = m
			res, err := e.a.Run(context.Background(), analysis.Request{Intent: "average high temperature by sky", DataSources: []analysis.DataSource{csvSource(path)},
				Deliverables: []string{analysis.DeliverTables}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != c.status {
				t.Fatalf("status %s (%+v); want %s", res.Status, res.Error, c.status)
			}
			if purposes[0] != "analysis_resolve" {
				t.Errorf("calls %v; want the restatement first", purposes)
			}
			if c.status == analysis.StatusCompleted {
				rows := readTable(t, res, "by_weather")
				if len(rows) != 4 || !strings.Contains(res.Plan.Reasoning, `restated by the model as "average temp_max by weather"`) {
					t.Errorf("rows %v, reasoning %q; want the restated request's breakdown, saying so", rows, res.Plan.Reasoning)
				}
				return
			}
			if slices.Contains(purposes, "analysis_plan") || res.Error.Code != quarry.ECodeNeedsClarification {
				t.Errorf("calls %v, error %+v; want no plan asked for, %s", purposes, res.Error, quarry.ECodeNeedsClarification)
			}
		})
	}
}

// A kind of analysis or a ranking the request asks for that no step can
// carry out ends the analysis as needing clarification, not completed
// without it.
func TestWhatNoStepAppliesIsNotAnswered(t *testing.T) {
	life := writeRows(t, "life.csv", lifeRows())
	for _, c := range []struct{ text, word string }{
		{"growth of total population", "growth"},
		{"top 3 records", "top 3"},
	} {
		res := runRequest(t, c.text, life)
		if res.Status != analysis.StatusFailed || res.Error == nil || res.Error.Code != quarry.ECodeNeedsClarification || res.Plan != nil {
			t.Errorf("%q: %s %+v; want failed, %s, nothing run", c.text, res.Status, res.Error, quarry.ECodeNeedsClarification)
			continue
		}
		if cl := res.Clarification; cl == nil || !slices.ContainsFunc(cl.NotUnderstood, func(u analysis.UnknownWord) bool { return u.Word == c.word }) {
			t.Errorf("%q: clarification %+v; want %q not applied", c.text, res.Clarification, c.word)
		}
	}
}

func TestWhichPeriodsRankByTheMeasure(t *testing.T) {
	path := writeRows(t, "weather.csv", weatherRows())
	sum, n := map[string]float64{}, map[string]float64{}
	for _, r := range weatherRows()[1:] {
		var rain float64
		fmt.Sscan(r[3], &rain)
		sum[r[0][:7]] += rain
		n[r[0][:7]]++
	}
	best := ""
	for m := range sum {
		if best == "" || sum[m] > sum[best] || sum[m] == sum[best] && m < best {
			best = m
		}
	}
	res := runRequest(t, "Which month had the most precipitation?", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("status %s (%+v)", res.Status, res.Error)
	}
	rows := readTable(t, res, "by_month")
	if len(rows) != 2 || rows[1][0] != best || rows[1][1] != fmt.Sprint(sum[best]) {
		t.Errorf("rows %v; want the one month %s with %v", rows, best, sum[best])
	}
}

// TestRevenueOfUnitPricesIsPriceTimesQuantity: over order lines with a
// unit price and a quantity and no amount, revenue is their product
// summed, not the prices added up.
func TestRevenueOfUnitPricesIsPriceTimesQuantity(t *testing.T) {
	path := writeRows(t, "lines.csv", [][]string{
		{"OrderID", "Category", "qty", "UnitPrice", "Status"},
		{"1", "Tea", "3", "2.5", "Shipped"},     // 7.5
		{"2", "Tea", "10", "1.25", "Shipped"},   // 12.5
		{"3", "Coffee", "2", "20", "Shipped"},   // 40
		{"4", "Coffee", "1", "99", "Cancelled"}, // left out
	})
	res := runRequest(t, "Total shipped revenue by category", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("%s %+v", res.Status, res.Error)
	}
	got := map[string]string{}
	for _, r := range readTable(t, res, "by_category")[1:] {
		got[r[0]] = r[1]
	}
	if got["Tea"] != "20" || got["Coffee"] != "40" || len(got) != 2 {
		t.Errorf("revenue by category = %v, want Tea 20, Coffee 40 (plan: %s)", got, res.Plan.Reasoning)
	}
}

// TestAScaleAskedForDividesTheMeasure: "avg salary in $k by dept" over
// dollars shows thousands, in the query, and names them.
func TestAScaleAskedForDividesTheMeasure(t *testing.T) {
	path := writeRows(t, "emp.csv", [][]string{
		{"emp_id", "dept", "salary_usd"},
		{"1", "Eng", "100000"}, {"2", "Eng", "150000"}, // 125
		{"3", "Ops", "60000"}, // 60
	})
	res := runRequest(t, "avg salary in $k by dept", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("%s %+v", res.Status, res.Error)
	}
	rows := readTable(t, res, "by_dept")
	if len(rows) != 3 || rows[0][1] != "avg_salary_usd_k" || rows[1][0] != "Eng" || rows[1][1] != "125" || rows[2][1] != "60" {
		t.Errorf("by dept = %v, want avg_salary_usd_k Eng 125, Ops 60 (plan: %s)", rows, res.Plan.Reasoning)
	}
}

// TestAScaleTheColumnMayAlreadyHave: "in millions" over a population
// column whose name gives no unit and whose values are all below a
// million (already in millions) leaves the numbers as they are, in every
// step alike; over raw people it divides.
func TestAScaleTheColumnMayAlreadyHave(t *testing.T) {
	path := writeRows(t, "pwt.csv", [][]string{
		{"country", "region", "pop", "people"},
		{"Arland", "North", "1380.5", "1380500000"}, {"Borvia", "North", "19.5", "19500000"}, {"Cestia", "South", "0.25", "250000"},
	})
	for req, want := range map[string][]string{
		"total pop by region in millions":    {"pop", "1400", "0.25"},
		"total people by region in millions": {"people_m", "1400", "0.25"},
	} {
		res := runRequest(t, req, path)
		if res.Status != analysis.StatusCompleted {
			t.Fatalf("%s: %s %+v", req, res.Status, res.Error)
		}
		rows := readTable(t, res, "by_region")
		if len(rows) != 3 || rows[0][1] != want[0] || rows[1][1] != want[1] || rows[2][1] != want[2] {
			t.Errorf("%s: by region = %v, want %v (plan: %s)", req, rows, want, res.Plan.Reasoning)
		}
	}
}

// TestRankingByAChangeRanksByTheChange: "which 2 countries had the
// biggest gain in life expectancy between 1995 and 2005" ranks by each
// country's change, not by its level.
func TestRankingByAChangeRanksByTheChange(t *testing.T) {
	path := writeRows(t, "life.csv", lifeRows())
	res := runRequest(t, "Which 2 countries had the biggest gain in life expectancy between 1995 and 2005?", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("%s %+v", res.Status, res.Error)
	}
	// lifeRows: life = 60 + 4i + (y-1995)/5*(5-i), so the change from
	// 1995 to 2005 is 2*(5-i): Arland 10, Borvia 8, Cestia 6, ...
	rows := readTable(t, res, "by_country_change")
	if len(rows) != 3 || rows[1][0] != "Arland" || rows[1][3] != "10" || rows[2][0] != "Borvia" || rows[2][3] != "8" {
		t.Errorf("ranking = %v, want Arland (10) then Borvia (8) (plan: %s)", rows, res.Plan.Reasoning)
	}
	// Without two years there is no change to rank by: not answered.
	res = runRequest(t, "Which 2 countries had the biggest gain in life expectancy?", path)
	if res.Status == analysis.StatusCompleted {
		t.Errorf("a ranking by a change with no years: %s; want it not answered (plan: %s)", res.Status, res.Plan.Reasoning)
	}
}

// TestPerCapitaIsARatioOfTotals: "GDP per capita by region" divides each
// region's total GDP by its total population, not an average of ratios.
func TestPerCapitaIsARatioOfTotals(t *testing.T) {
	path := writeRows(t, "c.csv", [][]string{
		{"country", "region", "year", "gdp", "pop"},
		{"A", "North", "2020", "100", "10"}, // North: 400 / 30
		{"B", "North", "2020", "300", "20"},
		{"C", "South", "2020", "50", "25"}, // South: 50 / 25
		{"A", "North", "2021", "120", "10"},
	})
	res := runRequest(t, "GDP per capita by region in 2020", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("%s %+v", res.Status, res.Error)
	}
	got := map[string]string{}
	for _, r := range readTable(t, res, "by_region")[1:] {
		got[r[0]] = r[1]
	}
	if !strings.HasPrefix(got["North"], "13.33333") || got["South"] != "2" || len(got) != 2 {
		t.Errorf("GDP per capita by region = %v, want North 13.33, South 2 (plan: %s)", got, res.Plan.Reasoning)
	}
}

// TestACorrelationIsTheCoefficient: "the correlation between A and B"
// answers with Pearson's r; a correlation of one column, or of none
// named, is not answered with a profile instead.
func TestACorrelationIsTheCoefficient(t *testing.T) {
	path := writeRows(t, "xy.csv", [][]string{{"x", "y", "z", "grp"}, {"1", "2", "5", "a"}, {"2", "4", "3", "b"}, {"3", "6", "4", "a"}, {"4", "8", "1", "b"}})
	res := runRequest(t, "What is the correlation between x and y?", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("%s %+v", res.Status, res.Error)
	}
	if rows := readTable(t, res, "correlate"); len(rows) != 2 || rows[1][0] != "1" {
		t.Errorf("correlate = %v, want r = 1", rows)
	}
	for _, text := range []string{"correlation of x with grp", "show the correlations"} {
		if res := runRequest(t, text, path); res.Status == analysis.StatusCompleted {
			t.Errorf("%q: completed (plan: %s); want it not answered", text, res.Plan.Reasoning)
		}
	}
}

// TestACorrelationByGroupIsReported: a correlation is over all the rows
// in scope; "by origin" is not applied to it, so it is not answered.
func TestACorrelationByGroupIsReported(t *testing.T) {
	path := writeRows(t, "xy.csv", [][]string{{"x", "y", "grp"}, {"1", "2", "a"}, {"2", "4", "b"}, {"3", "6", "a"}, {"4", "7", "b"}})
	if res := runRequest(t, "correlation between x and y by grp", path); res.Status == analysis.StatusCompleted {
		t.Errorf("completed (plan: %s); want the grouping of the correlation reported", res.Plan.Reasoning)
	}
}

// TestRankingByAFallRanksTheLowestChangeFirst: "the biggest drop" is the
// lowest change, not the largest rise.
func TestRankingByAFallRanksTheLowestChangeFirst(t *testing.T) {
	path := writeRows(t, "life.csv", lifeRows())
	res := runRequest(t, "Which 2 countries had the biggest drop in life expectancy between 1995 and 2005?", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("%s %+v", res.Status, res.Error)
	}
	// The changes are Arland 10, Borvia 8, Cestia 6, Dunmark 4, Eswana 2.
	rows := readTable(t, res, "by_country_change")
	if len(rows) != 3 || rows[1][0] != "Eswana" || rows[1][3] != "2" || rows[2][0] != "Dunmark" {
		t.Errorf("ranking = %v, want Eswana (2) then Dunmark (4) (plan: %s)", rows, res.Plan.Reasoning)
	}
	res = runRequest(t, "Which 2 countries rose or fell the most in life expectancy between 1995 and 2005?", path)
	if res.Status == analysis.StatusCompleted {
		t.Errorf("a ranking by a change either way: %s; want it not answered (plan: %s)", res.Status, res.Plan.Reasoning)
	}
}

// TestDaysBetweenTwoDates: "median lead time (booked to arrival)" is the
// median of each row's days from one date to the other, by group and
// ranked rows alike; a timestamp's hours count.
func TestDaysBetweenTwoDates(t *testing.T) {
	path := writeRows(t, "resv.csv", [][]string{
		{"res_id", "booked_on", "arrival_dt", "channel"},
		{"R1", "2024-01-01", "2024-01-11", "web"},   // 10
		{"R2", "2024-02-01", "2024-03-02", "web"},   // 30 (a leap February)
		{"R3", "2024-03-01", "2024-03-05", "phone"}, // 4
		{"R4", "2024-12-30", "2025-01-02", "phone"}, // 3
	})
	res := runRequest(t, "median lead time in days (booked_on to arrival_dt)", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("%s %+v", res.Status, res.Error)
	}
	if rows := readTable(t, res, "totals"); len(rows) != 2 || rows[0][0] != "median_days_booked_on_to_arrival_dt" || rows[1][0] != "7" {
		t.Errorf("totals = %v, want the median 7 of 10, 30, 4 and 3 (plan: %s)", rows, res.Plan.Reasoning)
	}
	res = runRequest(t, "avg days from booked_on to arrival_dt by channel", path)
	got := map[string]string{}
	for _, r := range readTable(t, res, "by_channel")[1:] {
		got[r[0]] = r[1]
	}
	if got["web"] != "20" || got["phone"] != "3.5" {
		t.Errorf("by channel = %v, want web 20, phone 3.5", got)
	}
	res = runRequest(t, "which reservation had the longest time between booked_on and arrival_dt", path)
	if rows := readTable(t, res, "by_res_id"); len(rows) < 2 || rows[1][0] != "R2" || rows[1][1] != "30" {
		t.Errorf("the longest = %v, want R2 with 30 days (plan: %s)", rows, res.Plan.Reasoning)
	}
	// timestamps count their hours: 20 minutes across midnight and 36 hours
	tickets := writeRows(t, "tickets.csv", [][]string{
		{"ticket_id", "opened_at", "closed_at", "team"},
		{"T1", "2024-01-01 23:50:00", "2024-01-02 00:10:00", "ops"},
		{"T2", "2024-01-03 08:00:00", "2024-01-04 20:00:00", "ops"},
	})
	res = runRequest(t, "max time from opened_at to closed_at", tickets)
	if rows := readTable(t, res, "totals"); len(rows) != 2 || rows[1][0] != "1.5" {
		t.Errorf("totals = %v, want the longest 1.5 days (plan: %s)", rows, res.Plan.Reasoning)
	}
}

// TestAverageDailyTotal: "average daily orders" over several rows a day
// (events, no thing per row and day) is each day's total averaged over
// the days with rows; "orders" over a column n_ord is its sum; a period
// compared takes the same average within each period.
func TestAverageDailyTotal(t *testing.T) {
	path := writeRows(t, "tills.csv", [][]string{
		{"sale_dt", "n_ord", "amt"},
		{"2024-01-01", "2", "10"}, {"2024-01-01", "3", "20"}, {"2024-01-01", "1", "5"}, // day: 6 orders, 35
		{"2024-01-02", "4", "40"}, {"2024-01-02", "2", "8"}, // day: 6, 48
		{"2024-01-03", "6", "30"}, {"2024-01-03", "1", "1"}, {"2024-01-03", "2", "2"}, {"2024-01-03", "3", "3"}, // day: 12, 36
		{"2024-01-04", "1", "2"}, {"2024-01-04", "1", "2"}, {"2024-01-04", "1", "2"}, // day: 3, 6
	})
	res := runRequest(t, "average daily orders", path)
	if res.Status != analysis.StatusCompleted {
		t.Fatalf("%s %+v", res.Status, res.Error)
	}
	if rows := readTable(t, res, "totals"); res.Status != analysis.StatusCompleted || len(rows) != 2 || rows[0][0] != "avg_daily_n_ord" || rows[1][0] != "6.75" {
		t.Errorf("%s: totals = %v, want (6+6+12+3)/4 days = 6.75 (plan: %s)", res.Status, rows, res.Plan.Reasoning)
	}
	res = runRequest(t, "avg daily amt from January 2 to January 4 2024", path)
	if rows := readTable(t, res, "totals"); len(rows) != 2 || rows[1][0] != "30" {
		t.Errorf("totals = %v, want (48+36+6)/3 = 30 (plan: %s)", rows, res.Plan.Reasoning)
	}
	res = runRequest(t, "total orders", path)
	if rows := readTable(t, res, "totals"); len(rows) != 2 || rows[0][0] != "n_ord" || rows[1][0] != "27" {
		t.Errorf("totals = %v, want the sum of n_ord 27 (plan: %s)", rows, res.Plan.Reasoning)
	}
}

// TestTwoTablesOfOneRowAThing: two tables of one row a country that share
// some countries join one to one: a column of each is read side by side
// over the countries in both, "joined on country" says that join, and a
// column of one table alone is that table's over all its rows.
func TestTwoTablesOfOneRowAThing(t *testing.T) {
	risk := [][]string{{"country", "score"}}
	census := [][]string{{"country", "mort"}}
	for i := range 30 {
		if i < 20 {
			risk = append(risk, []string{fmt.Sprintf("Land%02d", i), strconv.Itoa(i)})
		}
		if i >= 10 {
			census = append(census, []string{fmt.Sprintf("Land%02d", i), strconv.Itoa(i * 10)})
		}
	}
	rp, cp := writeRows(t, "risk.csv", risk), writeRows(t, "census.csv", census)
	one := func(text, want string) {
		t.Helper()
		res := runRequest(t, text, rp, cp)
		if res.Status != analysis.StatusCompleted && res.Status != analysis.StatusPartialSuccess {
			t.Fatalf("%q: %s %+v", text, res.Status, res.Error)
		}
		if rows := readTable(t, res, "totals"); len(rows) != 2 || rows[1][0] != want {
			t.Errorf("%q: totals = %v, want %s (plan: %s)", text, rows, want, res.Plan.Reasoning)
		}
	}
	one("average score", "9.5")                                   // risk's 20 rows: 0..19
	one("average score of countries with mort above 150", "17.5") // 16..19 meet census's mort 160..190
	one("count of countries with score above 15 and mort above 150, joined on country", "4")
}
