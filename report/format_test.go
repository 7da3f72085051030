package report

import (
	"math"
	"strings"
	"testing"

	"github.com/quarry-dev/quarry/investigation"
)

func TestNumberFormat(t *testing.T) {
	ratio := investigation.Metric{Kind: investigation.MetricRatio, Scale: 1}
	tests := []struct {
		name        string
		m           investigation.Metric
		base, cmp   float64
		v, ch       float64
		value, chg  string
		compactSign string
	}{
		{"conversion", ratio, 0.041, 0.036, 0.041, -0.005, "4.10%", "-0.50 pp", "-0.50 pp"},
		{"tiny conversion change", ratio, 0.04123, 0.04118, 0.04123, -0.00005, "4.1230%", "-0.0050 pp", "-0.0050 pp"},
		{"ratio scaled to percent", investigation.Metric{Kind: investigation.MetricRatio, Scale: 100}, 4.1, 3.6, 4.1, -0.5, "4.10", "-0.50", "-0.50"},
		{"ratio above one", investigation.Metric{Kind: investigation.MetricRatio, Scale: 1}, 52.31, 50.12, 52.31, -2.19, "52.31", "-2.19", "-2.19"},
		{"revenue", investigation.Metric{Kind: investigation.MetricSum}, 1234567.89, 1100000, 1234567.89, -134567.89, "1,234,568", "-134,568", "-134.6K"},
		{"count", investigation.Metric{Kind: investigation.MetricCount, Scale: 1}, 812, 790, 812, -22, "812", "-22", "-22"},
		{"small average", investigation.Metric{Kind: investigation.MetricAverage, Scale: 1}, 0.523, 0.511, 0.523, -0.012, "0.523", "-0.012", "-0.012"},
		{"growth", investigation.Metric{Kind: investigation.MetricSum}, 2.5e9, 3e9, 3e9, 5e8, "3,000,000,000", "+500,000,000", "+500M"},
		{"rounds to zero", investigation.Metric{Kind: investigation.MetricSum}, 5000, 5000, -0.2, -0.2, "0", "0", "0"},
	}
	for _, tt := range tests {
		f := newNumberFormat(&tt.m, tt.base, tt.cmp)
		if got := f.Value(tt.v); got != tt.value {
			t.Errorf("%s: value(%v) = %q; want %q", tt.name, tt.v, got, tt.value)
		}
		if got := f.Change(tt.ch); got != tt.chg {
			t.Errorf("%s: change(%v) = %q; want %q", tt.name, tt.ch, got, tt.chg)
		}
		if got := f.compact(tt.ch, true); got != tt.compactSign {
			t.Errorf("%s: compact(%v, true) = %q; want %q", tt.name, tt.ch, got, tt.compactSign)
		}
	}
}

func TestTick(t *testing.T) {
	pctF := newNumberFormat(&investigation.Metric{Kind: investigation.MetricRatio, Scale: 1}, 0.041, 0.036)
	sumF := newNumberFormat(&investigation.Metric{Kind: investigation.MetricSum}, 52.31, 50.12)
	tests := []struct {
		name, got, want string
	}{
		{"percent 12%", pctF.tick(0.12), "12%"},
		{"percent 3.5%", pctF.tick(0.035), "3.5%"},
		{"plain 52.5", sumF.tick(52.5), "52.5"},
		{"plain 1,000", sumF.tick(1000), "1,000"},
		{"plain 20K", sumF.tick(20000), "20K"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("tick(%s) = %q; want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestGrouped(t *testing.T) {
	tests := []struct {
		v    float64
		d    int
		want string
	}{
		{0, 0, "0"},
		{999, 0, "999"},
		{1000, 0, "1,000"},
		{-1234567.891, 2, "-1,234,567.89"},
		{-0.001, 2, "0.00"},
		{math.NaN(), 2, "n/a"},
		{math.Inf(-1), 0, "n/a"},
	}
	for _, tt := range tests {
		if got := grouped(tt.v, tt.d); got != tt.want {
			t.Errorf("grouped(%v, %d) = %q; want %q", tt.v, tt.d, got, tt.want)
		}
	}
}

func TestSmallFormats(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"pct(12.345)", pct(12.345), "+12.3%"},
		{"pct(-0.456)", pct(-0.456), "-0.46%"},
		{"pct(0)", pct(0), "0.00%"},
		{"pValue(0.0004)", pValue(0.0004), "p < 0.001"},
		{"pValue(0.0412)", pValue(0.0412), "p = 0.041"},
		{"pValue(NaN)", pValue(math.NaN()), "p unknown"},
		{"plainNumber(121877)", plainNumber(121877), "121,877"},
		{"plainNumber(1234.5)", plainNumber(1234.5), "1,234.50"},
		{"plainNumber(0.038)", plainNumber(0.038), "0.0380"},
		{"plainNumber(0.00001234)", plainNumber(0.00001234), "1.23e-05"},
		{"slug(device=mobile AND region=EU)", slug("device=mobile AND region=EU"), "device-mobile-and-region-eu"},
		{"slug(日本)", slug("日本"), "segment"},
		{"code(a`b)", code("a`b"), "`` a`b ``"},
		{"cell(a|b\\nc)", cell("a|b\nc"), `a\|b c`},
		{"prose(tag)", prose("device=<img src=x onerror=alert(1)>\n"), "device=&lt;img src=x onerror=alert(1)>"},
		{"prose(p-value)", prose("p < 0.001, a<=b"), "p < 0.001, a<=b"},
		{"truncate", truncate("abcdefghij", 5), "abcd…"},
		{"overallSignificance(significant)", overallSignificance(investigation.OverallChange{Significant: true, PValue: 0.0001}), "statistically significant (p < 0.001)"},
		{"overallSignificance(noise)", overallSignificance(investigation.OverallChange{PValue: 0.41}), "not statistically significant (p = 0.410)"},
		{"overallSignificance(untested)", overallSignificance(investigation.OverallChange{}), "not tested for significance"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q; want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestChangePct(t *testing.T) {
	if got, ok := changePct(200, 150); !ok || got != -25 {
		t.Errorf("changePct(200, 150) = %v, %v; want -25, true", got, ok)
	}
	if got, ok := changePct(-200, -150); !ok || got != 25 {
		t.Errorf("changePct(-200, -150) = %v, %v; want 25, true", got, ok)
	}
	if _, ok := changePct(0, 5); ok {
		t.Error("changePct(0, 5) ok = true; want false")
	}
}

func TestWrapLabel(t *testing.T) {
	// A line fits when it has at most width characters.
	within := func(width int) func(string) bool {
		return func(s string) bool { return len([]rune(s)) <= width }
	}
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"Baseline", 16, "Baseline"},
		{"channel=paid_social", 12, "channel=\npaid_social"},
		{"Bot sessions in channel=direct AND device=desktop", 18, "Bot sessions in\nchannel=direct AND\ndevice=desktop"},
		{"averyveryverylongwordwithoutbreaks", 10, "averyveryv\nerylongwor\ndwithoutbr\neaks"},
		{"channel=organic_search_campaign", 10, "channel=\norganic_\nsearch_\ncampaign"},
		{"one two three four five six", 8, "one two\nthree\nfour\nfive six"},
	}
	for _, tt := range tests {
		got := strings.Join(wrapLabel(tt.in, within(tt.width)), "\n")
		if got != tt.want {
			t.Errorf("wrapLabel(%q, %d) = %q; want %q", tt.in, tt.width, got, tt.want)
		}
		if strings.ReplaceAll(strings.ReplaceAll(got, "\n", ""), " ", "") != strings.ReplaceAll(tt.in, " ", "") {
			t.Errorf("wrapLabel(%q) lost characters: %q", tt.in, got)
		}
	}
}

func TestWaterfallSteps(t *testing.T) {
	bars := []Bar{{Label: "a", Value: -30}, {Label: "b", Value: -10}}
	if got := waterfallSteps(100, 60, bars); len(got) != 2 {
		t.Errorf("waterfallSteps(exact) = %v; want the two bars only", got)
	}
	if got := waterfallSteps(100, 59.9, bars); len(got) != 2 {
		t.Errorf("waterfallSteps(off by rounding) = %v; want the two bars only", got)
	}
	got := waterfallSteps(100, 50, bars)
	if len(got) != 3 || got[2].Value != -10 || got[2].Kind != KindOther {
		t.Errorf("waterfallSteps(100, 50) = %v; want an Unattributed bar of -10", got)
	}
}

func TestWaterfallFloor(t *testing.T) {
	tests := []struct {
		lo, hi     float64
		floor      float64
		wantZoomed bool
	}{
		{1000, 1300, 820, true},
		{100, 1300, 0, false},
		{-50, 100, -50, false},
		{0.036, 0.041, 0.033, true},
	}
	for _, tt := range tests {
		floor, zoomed := waterfallFloor(tt.lo, tt.hi)
		if zoomed != tt.wantZoomed || math.Abs(floor-tt.floor) > 1e-9 {
			t.Errorf("waterfallFloor(%v, %v) = %v, %v; want %v, %v", tt.lo, tt.hi, floor, zoomed, tt.floor, tt.wantZoomed)
		}
	}
}

func TestValueTicks(t *testing.T) {
	f := newNumberFormat(&investigation.Metric{Kind: investigation.MetricSum}, 1000, 1300)
	ticks := valueTicks{f}.Ticks(820, 1340)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	want := []string{"900", "1,000", "1,100", "1,200", "1,300"}
	if len(labels) != len(want) {
		t.Fatalf("Ticks(820, 1340) = %v; want %v", labels, want)
	}
	for i := range want {
		if labels[i] != want[i] {
			t.Errorf("Ticks(820, 1340) = %v; want %v", labels, want)
			break
		}
	}
}

func TestPerPeriod(t *testing.T) {
	for _, tt := range []struct{ grain, title, want string }{
		{"", "Revenue", "Daily Revenue"},
		{investigation.GrainDay, "Daily vaccinations", "Daily vaccinations"},
		{investigation.GrainMonth, "Revenue", "Monthly Revenue"},
		{investigation.GrainYear, "Sales", "Yearly Sales"},
		{investigation.GrainWeek, "weekly signups", "weekly signups"},
	} {
		if got := perPeriod(tt.grain, tt.title); got != tt.want {
			t.Errorf("perPeriod(%q, %q) = %q; want %q", tt.grain, tt.title, got, tt.want)
		}
	}
}
