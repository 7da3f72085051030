package intent

import "strings"

// Column names are often written as one run of letters: "TOTEMP" (total
// employment), "realgdp", "GNPDEFL", "tbilrate". compoundWords splits such
// a run into the pieces people write names with, so that "total
// employment" names TOTEMP as it names TOT_EMP.

// namePieces are the pieces a run of letters may be split into: the words
// of synonymSets, and the words and abbreviations column names are made
// of. A run is split only when every piece is one of them.
var namePieces = func() map[string]bool {
	m := setOf("real", "nominal", "total", "net", "gross", "rate", "rates", "price", "prices", "cost", "costs",
		"income", "employ", "employment", "unemployment", "gdp", "gnp", "cpi", "ppi", "defl", "deflator", "inv",
		"invest", "investment", "govt", "gov", "government", "cons", "consumption", "dpi", "infl", "inflation",
		"int", "interest", "armed", "forces", "tbill", "tbil", "bill", "avg", "temp", "precip", "wind", "speed",
		"sales", "sale", "revenue", "amount", "customer", "product", "code", "name", "type", "date", "time",
		"start", "end", "open", "close", "high", "low", "volume", "adj", "market", "share", "stock", "bond",
		"yield", "return", "age", "sex", "weight", "height", "grad", "school", "per", "capita", "cash", "debt",
		"asset", "assets", "liab", "equity", "profit", "loss", "tax", "fee", "unit", "units", "order", "item",
		"items", "count", "value", "score", "rank", "level", "index", "ratio", "crime", "murder", "violent",
		"poverty", "urban", "married", "children", "educ", "duration", "output", "capital", "firm", "pupil",
		"teacher", "teachers", "students", "enroll", "exp", "expend", "spend", "wage", "wages", "hours", "month",
		"year", "day", "week", "max", "min", "mean", "std", "num", "pct", "qty", "amt", "cust", "prod", "dept",
		"disc", "first", "last", "home", "away", "team", "goals", "points", "death", "deaths", "birth", "births",
		"rain", "snow", "depth", "mag", "lat", "lon", "elev", "pop", "tot", "emp", "unemp", "dom", "intl",
		"fert", "life", "expect", "tmp", "hi", "lo", "cnt", "nbr", "rev", "len", "dist")
	for _, set := range synonymSets {
		for _, w := range set {
			if !strings.Contains(w, " ") && len(w) >= 3 {
				m[w] = true
			}
		}
	}
	return m
}()

// shortCompounds are runs too short to split by pieces: NOAA's TMAX, TMIN
// and TAVG, an area's sqft.
var shortCompounds = map[string][]string{"tmax": {"temp", "max"}, "tmin": {"temp", "min"}, "tavg": {"temp", "avg"},
	"sqft": {"sq", "ft"}}

// compoundWords splits the run of letters w into namePieces, fewest
// pieces first ("totemp" -> [tot emp], "realgdp" -> [real gdp]); nil when
// w is a piece itself, shorter than five letters, or cannot be split
// whole.
func compoundWords(w string) []string {
	if parts, ok := shortCompounds[w]; ok {
		return parts
	}
	if len(w) < 5 || namePieces[w] || !isLetters(w) {
		return nil
	}
	// best[i] is the fewest pieces that spell w[:i], from[i] where its
	// last piece starts.
	best := make([]int, len(w)+1)
	from := make([]int, len(w)+1)
	for i := 1; i <= len(w); i++ {
		best[i] = -1
		for j := max(0, i-14); j <= i-3; j++ {
			if best[j] < 0 || !namePieces[w[j:i]] {
				continue
			}
			if n := best[j] + 1; best[i] < 0 || n < best[i] {
				best[i], from[i] = n, j
			}
		}
	}
	if best[len(w)] < 2 {
		return nil
	}
	var out []string
	for i := len(w); i > 0; i = from[i] {
		out = append([]string{w[from[i]:i]}, out...)
	}
	return out
}
