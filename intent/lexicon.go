package intent

import (
	"regexp"
	"slices"
	"strings"
)

// synonymSets are words that stand for one another in column names and in
// requests: the abbreviations people and exports write ("temp_max",
// "life_expect", "pop", "hp") and the plain words analysts say ("high
// temperature", "life expectancy", "population", "horsepower"). A word of
// a request names a word of a column's name when both are in one set.
// The sets are about how data is named in general, not about one table.
var synonymSets = [][]string{
	{"temp", "temperature", "temperatures", "tmp"},
	{"max", "maximum", "high", "highest", "peak", "hi"},
	{"min", "minimum", "low", "lowest", "lo"},
	{"avg", "average", "mean"},
	// superlatives said in two words, read as the one that ranks by cost
	{"costliest", "most expensive", "priciest"}, {"cheapest", "least expensive", "least costly"},
	{"highest-paid", "highest paid", "best paid", "best-paid", "top paid", "top-paid"},
	{"lowest-paid", "lowest paid", "worst paid", "worst-paid"},
	{"most-populous", "most populous", "most populated"}, {"least-populous", "least populous", "least populated"},
	{"most-powerful", "most powerful"}, {"least-powerful", "least powerful"},
	{"most-efficient", "most fuel-efficient", "most fuel efficient", "most efficient"},
	{"least-efficient", "least fuel-efficient", "least fuel efficient", "least efficient"},
	{"precip", "precipitation", "prcp", "rainfall"},
	{"expect", "expectancy", "exp"},
	{"pop", "population", "populations", "populous", "populated", "capita", "inhabitants", "residents", "person"},
	{"hp", "horsepower"},
	{"mpg", "mileage", "fuel economy", "fuel efficiency", "miles per gallon", "gas mileage", "fuel mileage"},
	{"accel", "acceleration"},
	{"wt", "weight", "weigh", "weighs", "weighed", "weighing", "mass"},
	{"beak", "beaks", "bill", "bills"},
	{"disp", "displacement"},
	{"cyl", "cylinder", "cylinders"},
	{"fert", "fertility"},
	{"dist", "distance"},
	{"orig", "origin", "origins", "dep", "departure", "departures", "depart", "departs", "departing", "departed",
		"outbound", "leaving"},
	{"dest", "destination", "destinations", "arr", "arrival", "arrivals", "arrive", "arrives", "arriving", "arrived",
		"inbound", "landed", "landing", "lands"},
	{"lat", "latitude"},
	{"lon", "lng", "long", "longitude"},
	{"cnt", "count", "counts"},
	{"tot", "total"},
	{"yr", "year", "years"},
	{"mo", "mon", "month", "months"},
	{"wk", "week", "weeks"},
	{"weekday", "weekdays", "day of week", "day of the week", "days of the week", "dow"},
	{"dt", "date"},
	{"num", "no", "nbr", "number", "nr"},
	{"pct", "percent", "percentage", "perc", "%"},
	{"std", "stdev", "stddev"},
	{"len", "length"},
	{"ht", "height"},
	{"elev", "elevation", "altitude", "alt"},
	{"amt", "amount"},
	{"nm", "name"}, {"cd", "code"},
	{"qty", "quantity", "quantities"},
	{"rev", "revenue", "revenues"},
	{"cust", "customer", "customers"},
	{"prod", "product", "products"},
	{"dept", "department", "departments"},
	{"cat", "category", "categories"},
	{"desc", "description"},
	{"intl", "international"},
	{"dom", "domestic"},
	{"gdp", "gross domestic product"},
	{"emp", "employment", "employed"},
	{"unemp", "unemployment", "unemployed", "jobless"},
	{"sq", "square"},
	{"ft", "feet", "foot"},
	{"sec", "secs", "second", "seconds"},
	{"hr", "hrs", "hour", "hours"},
	{"usd", "dollar", "dollars"},
	{"cap", "capitalization", "capitalisation"},
	{"vol", "volume"},
	{"gross", "box office"},
	{"budget", "budgets"},
	{"rating", "ratings", "score", "scores", "goals"},
	{"home", "host", "hosts", "hosting"},
	{"away", "visitor", "visitors", "visiting", "guest", "guests"},
	{"votes", "vote"},
	{"mag", "magnitude"},
	{"depth", "deep"},
	{"speed", "velocity"},
	{"wind", "winds"},
	{"movie", "movies", "film", "films"},
	{"symbol", "symbols", "ticker", "tickers"},
	{"lbs", "lb", "pound", "pounds"},
	{"occupation", "occupations", "job", "jobs"},
	{"company", "companies", "firm", "firms"},
	{"division", "divisions", "league", "leagues"},
	{"defl", "deflator", "deflators"},
	{"inv", "investment", "investments", "invest"},
	{"govt", "gov", "government", "public"},
	{"cons", "consumption"},
	{"infl", "inflation"},
	{"int", "interest"},
	{"tbil", "tbill", "treasury bill", "t-bill", "treasury bills"},
	{"dpi", "disposable income", "disposable personal income"},
	{"educ", "education", "schooling"},
	{"employee", "employees", "staff", "personnel", "worker", "workers", "staffer", "staffers"},
	// measures named by their letters in exports and said in full
	{"hgb", "hb", "hemoglobin", "haemoglobin"}, {"csat", "satisfaction", "customer satisfaction"},
	{"nps", "net promoter", "net promoter score", "promoter score"}, {"xr", "fx", "exchange rate", "fx rate"},
	{"wh", "whse", "warehouse", "warehouses"}, {"hh", "hhs", "household", "households"},
	{"est", "estimate", "estimated", "estimates"}, {"bmi", "body mass index"},
	{"wbc", "white blood cell", "white blood cells", "white cell count"}, {"los", "length of stay"},
	{"tkt", "tkts", "tix", "ticket", "tickets"}, {"acct", "accts", "account", "accounts"},
	{"txn", "txns", "trx", "transaction", "transactions"}, {"org", "orgs", "organization", "organizations", "organisation", "organisations"},
}

// synonymPhrases maps the phrases of synonymSets ("box office", "fuel
// economy"), as lower-case words, to their set's first word.
var synonymPhrases = func() map[string]string {
	m := map[string]string{}
	for _, set := range synonymSets {
		for _, w := range set {
			if strings.Contains(w, " ") {
				m[w] = set[0]
			}
		}
	}
	return m
}()

// mergePhrases makes each phrase of synonymPhrases in toks one word token,
// spelled as the word it stands for ("box office" is read as "gross"), so
// that every pass reads it as that word.
func mergePhrases(text string, toks []token) []token {
	out := toks[:0:0]
	for i := 0; i < len(toks); i++ {
		if w, n := shorthandWith(toks[i:]); n > 0 {
			// "w/", "w/o": with, without
			t := toks[i]
			t.low, t.end = w, toks[i+n-1].end
			t.raw = text[t.start:t.end]
			out = append(out, t)
			i += n - 1
			continue
		}
		merged := false
		for n := 4; n >= 2 && !merged; n-- {
			if i+n > len(toks) {
				continue
			}
			words := make([]string, 0, n)
			for _, t := range toks[i : i+n] {
				if t.kind != kWord {
					break
				}
				words = append(words, t.low)
			}
			w, ok := synonymPhrases[strings.Join(words, " ")]
			if len(words) != n || !ok {
				continue
			}
			t := toks[i]
			t.low, t.end = w, toks[i+n-1].end
			t.raw = text[t.start:t.end]
			out = append(out, t)
			i += n - 1
			merged = true
		}
		if !merged {
			out = append(out, toks[i])
		}
	}
	return out
}

// shorthandWith reads the notes' shorthand at the start of toks: "w/" is
// "with" and "w/o" "without", written together; "w/w" (week on week) is
// left to the comparisons.
func shorthandWith(toks []token) (string, int) {
	if len(toks) < 2 || toks[0].low != "w" || toks[1].low != "/" || toks[1].start != toks[0].end {
		return "", 0
	}
	if len(toks) > 2 && toks[2].start == toks[1].end {
		switch toks[2].low {
		case "o":
			return "without", 3
		case "w":
			return "", 0
		}
	}
	return "with", 2
}

// synonyms maps each word of synonymSets to its set's first word.
var synonyms = func() map[string]string {
	m := map[string]string{}
	for _, set := range synonymSets {
		for _, w := range set {
			if !strings.Contains(w, " ") {
				m[w] = set[0]
			}
		}
	}
	return m
}()

// sameWord reports whether the request's word w names the word cw of a
// column's name: equal once singular and spelled out, or synonyms.
func sameWord(w, cw string) bool {
	if w == cw || norm(w) == norm(cw) || norm(american(w)) == norm(american(cw)) {
		return true
	}
	a, b := synonymOf(w), synonymOf(cw)
	if a != "" && a == b {
		return true
	}
	sa, sb := stem(w), stem(cw)
	if len(sa) >= 5 && sa == sb {
		return true
	}
	if d, u := digitsThenLetters(w); d != "" && u != "" && cw == u+d {
		return true // "1500m" for a column m1500: a distance said as written
	}
	// "closing" and "close", "opening" and "open", "hired" and "hire": a
	// short root with -ing or -ed.
	for _, pair := range [][2]string{{w, cw}, {cw, w}} {
		// "smoking" and "smoker", "driving" and "driver": the one who does it
		if r, ok := strings.CutSuffix(pair[0], "ing"); ok && len(r) >= 4 && (r == pair[1] || r+"e" == pair[1] || r+"er" == pair[1]) {
			return true
		}
		if r, ok := strings.CutSuffix(pair[0], "ed"); ok && len(r) >= 3 && (r == pair[1] || r+"e" == pair[1] || undoubled(r) == pair[1]) {
			return true // "readmitted" and "readmit"
		}
		if r, ok := strings.CutSuffix(pair[0], "ing"); ok && len(r) >= 4 && undoubled(r) == pair[1] {
			return true // "shipping" and "ship"
		}
	}
	return false
}

// digitsThenLetters splits a word such as "1500m" or "400mh" into its
// digits and the letters after them; "" and "" for any other word.
func digitsThenLetters(w string) (string, string) {
	k := 0
	for k < len(w) && w[k] >= '0' && w[k] <= '9' {
		k++
	}
	if k == 0 || k == len(w) {
		return "", ""
	}
	for _, r := range w[k:] {
		if r < 'a' || r > 'z' {
			return "", ""
		}
	}
	return w[:k], w[k:]
}

// undoubled returns r without a doubled last consonant ("readmitt" is
// readmit), "" when its last letter is not doubled.
func undoubled(r string) string {
	n := len(r)
	if n < 4 || r[n-1] != r[n-2] || strings.IndexByte("aeiouy", r[n-1]) >= 0 {
		return ""
	}
	return r[:n-1]
}

// stem strips the endings that turn one English word into another of the
// same root: "generate", "generated" and "generation", "employed" and
// "employment".
// Only roots of five letters or more are compared.
func stem(w string) string {
	w = strings.ToLower(w)
	if r, ok := strings.CutSuffix(w, "ution"); ok && len(r) >= 4 {
		return r + "v" // "resolution" and "resolve"
	}
	for _, suf := range []string{"ations", "ation", "ated", "ates", "ate", "ments", "ment", "ings", "ing", "ions", "ion", "ures", "ure", "ers", "er", "ed", "es", "e", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 5 {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

func synonymOf(w string) string {
	if s, ok := synonyms[w]; ok {
		return s
	}
	if s, ok := synonyms[singular(w)]; ok {
		return s
	}
	return ""
}

// unitWords in a column's name say how it is measured ("Beak Length
// (mm)", "Cost Total $", "Body Mass (g)"); a request need not say them.
var unitWords = setOf("mm", "cm", "km", "g", "kg", "lb", "lbs", "oz", "in", "ft", "usd", "eur", "gbp", "$",
	"mph", "kmh", "pct", "%", "mi", "sec", "secs", "hrs", "kwh", "mwh", "gwh", "tons")

// essentialWords are the words of a column's name a request must say:
// all of them but the units, unless the name is nothing but units.
func essentialWords(cw []string) []string {
	var out []string
	for _, w := range cw {
		if !unitWords[w] {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return cw
	}
	return out
}

// wordsAnyOrder reports whether the free word tokens at i name the words
// of a column's name in any order ("high temperature" for temp_max,
// "total cost" for "Cost Total $", "beak length" for "Beak Length (mm)"),
// each word the same or a synonym, and how many tokens they take. Two or
// three words only: longer names are said in their order.
func (p *parser) wordsAnyOrder(i int, cw []string) (int, bool) {
	words := essentialWords(cw)
	n := len(words)
	if n == 0 || n > 3 || i+n > len(p.toks) {
		return 0, false
	}
	var toks []string
	k, skipped := i, false
	for ; len(toks) < n; k++ {
		if k >= len(p.toks) {
			return 0, false
		}
		t := p.toks[k]
		if t.used || t.kind != kWord {
			return 0, false
		}
		if k > i && n >= 2 && !skipped && tableWord(p.t, t.low) && !slices.ContainsFunc(words, func(cwd string) bool { return sameWord(t.low, cwd) }) {
			skipped = true // "total strike cost": the table's subject between
			continue
		}
		toks = append(toks, t.low)
	}
	taken := make([]bool, n)
	for _, cwd := range words {
		found := false
		for k, w := range toks {
			if !taken[k] && sameWord(w, cwd) {
				taken[k], found = true, true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	// A name of one word matched by a synonym must be a real synonym,
	// not a word that only shares a set with a generic word.
	if n == 1 && generic[norm(words[0])] && toks[0] != words[0] {
		return 0, false
	}
	return k - i, true
}

// ofPhrase reports whether the free tokens at i name a two-word column
// name backwards around "of" ("state of the origin" for origin_state,
// "length of the beak" for beak_length), and how many tokens they take.
func (p *parser) ofPhrase(i int, cw []string) (int, bool) {
	words := essentialWords(cw)
	if len(words) != 2 || !p.free(i) || p.toks[i].kind != kWord || !sameWord(p.toks[i].low, words[1]) || p.low(i+1) != "of" {
		return 0, false
	}
	k := p.skip(i+2, "the", "a", "an", "each", "its", "their")
	if !p.free(k) || p.toks[k].kind != kWord || !sameWord(p.toks[k].low, words[0]) {
		return 0, false
	}
	return k + 1 - i, true
}

// countryAliases are the short names of countries people write, in
// capitals; they match only as written ("US", not "us").
var countryAliases = map[string][]string{
	"united states": {"US", "USA", "U.S.", "U.S.A."}, "united states of america": {"US", "USA", "U.S.", "U.S.A."},
	"united kingdom": {"UK", "U.K.", "GB"}, "united arab emirates": {"UAE"}, "south korea": {"ROK"},
	"korea, rep.": {"South Korea"}, "russian federation": {"Russia"}, "democratic republic of the congo": {"DRC"},
}

// demonyms are the adjectives of places: "Japanese cars" are the cars
// whose origin is Japan.
var demonyms = map[string][]string{
	"united states": {"american"}, "united states of america": {"american"}, "usa": {"american"}, "us": {"american"},
	"america": {"american"}, "europe": {"european"}, "asia": {"asian"}, "africa": {"african"},
	"japan": {"japanese"}, "china": {"chinese"}, "germany": {"german"}, "france": {"french"}, "italy": {"italian"},
	"spain": {"spanish"}, "canada": {"canadian"}, "mexico": {"mexican"}, "brazil": {"brazilian"},
	"india": {"indian"}, "russia": {"russian"}, "russian federation": {"russian"}, "united kingdom": {"british"},
	"uk": {"british"}, "australia": {"australian"}, "south korea": {"korean", "south korean"},
	"sweden": {"swedish"}, "norway": {"norwegian"}, "netherlands": {"dutch"}, "switzerland": {"swiss"},
	"austria": {"austrian"}, "belgium": {"belgian"}, "ireland": {"irish"}, "poland": {"polish"},
	"portugal": {"portuguese"}, "greece": {"greek"}, "turkey": {"turkish"}, "egypt": {"egyptian"},
	"argentina": {"argentinian", "argentine"}, "chile": {"chilean"}, "denmark": {"danish"}, "finland": {"finnish"},
	"england": {"english"}, "scotland": {"scottish"}, "israel": {"israeli"}, "pakistan": {"pakistani"},
	"nigeria": {"nigerian"}, "kenya": {"kenyan"}, "vietnam": {"vietnamese"}, "thailand": {"thai"},
	"indonesia": {"indonesian"}, "philippines": {"filipino"}, "colombia": {"colombian"}, "peru": {"peruvian"},
}

// currencies are the names of the currencies whose codes data holds:
// "in euros" are the rows whose currency is EUR.
// Names that are everyday words or units as well ("dollars", "pounds",
// "real", "won") are left out: "weight in pounds" is no filter.
var currencies = map[string][]string{
	"eur": {"euro", "euros"}, "usd": {"us dollar", "us dollars"}, "gbp": {"sterling", "pound sterling"},
	"jpy": {"yen"}, "cny": {"yuan", "renminbi", "rmb"}, "chf": {"swiss franc", "swiss francs"},
	"inr": {"rupee", "rupees", "indian rupee"}, "cad": {"canadian dollar", "canadian dollars"},
	"aud": {"australian dollar", "australian dollars"}, "sek": {"swedish krona", "kronor"},
	"nok": {"norwegian krone"}, "dkk": {"danish krone"}, "brl": {"reais", "brazilian real"}, "mxn": {"pesos", "mexican peso"},
}

// codedValue matches a value written after a code that numbers or letters
// it: "5. Low income", "F: FOLFOX", "02 - North". People say the words.
var codedValue = regexp.MustCompile(`^(?:[0-9]{1,3}\s*[.:)-]|[A-Z]\s*[:)])\s+(\S.*)$`)

// sexes are the other words for the values of a sex or gender column.
var sexes = map[string][]string{
	"female": {"women", "woman", "females", "girls"}, "male": {"men", "man", "males", "boys"},
	"women": {"female", "females", "woman"}, "men": {"male", "males", "man"},
	"f": {"female", "females", "women", "woman"}, "m": {"male", "males", "men", "man"},
}

// parties are the words for the codes of political parties.
var parties = map[string][]string{
	"dem": {"democrat", "democrats", "democratic"}, "rep": {"republican", "republicans", "gop"},
	"democrat": {"democrats", "democratic"}, "republican": {"republicans", "gop"},
	"ind": {"independent", "independents"}, "lib": {"libertarian", "libertarians"}, "grn": {"green"},
}

// capsAlias reports whether form of value v must be written in capitals:
// a country's short name ("US", "UK") or a state's postal code ("IN",
// "OR", "ME" are words too).
func capsAlias(v, form string) bool {
	l := strings.ToLower(strings.TrimSpace(v))
	if code, ok := usStates[l]; ok && strings.ToLower(code) == form {
		return true
	}
	aliases := countryAliases[l]
	if name, ok := countryOfCode(strings.TrimSpace(v)); ok {
		aliases = countryAliases[strings.ToLower(name)] // "UK" for GBR, only in capitals
	}
	for _, a := range aliases {
		if strings.ToLower(a) == form && a == strings.ToUpper(a) {
			return true
		}
	}
	return false
}

// usStates maps the names of the states of the USA (and DC) to their
// postal codes, so that "California" finds a column of codes ("CA") and
// "CA" a column of names.
var usStates = map[string]string{
	"alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA", "colorado": "CO",
	"connecticut": "CT", "delaware": "DE", "district of columbia": "DC", "florida": "FL", "georgia": "GA",
	"hawaii": "HI", "idaho": "ID", "illinois": "IL", "indiana": "IN", "iowa": "IA", "kansas": "KS",
	"kentucky": "KY", "louisiana": "LA", "maine": "ME", "maryland": "MD", "massachusetts": "MA",
	"michigan": "MI", "minnesota": "MN", "mississippi": "MS", "missouri": "MO", "montana": "MT",
	"nebraska": "NE", "nevada": "NV", "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM",
	"new york": "NY", "north carolina": "NC", "north dakota": "ND", "ohio": "OH", "oklahoma": "OK",
	"oregon": "OR", "pennsylvania": "PA", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD",
	"tennessee": "TN", "texas": "TX", "utah": "UT", "vermont": "VT", "virginia": "VA", "washington": "WA",
	"west virginia": "WV", "wisconsin": "WI", "wyoming": "WY",
}

// valueForms are the other ways a request writes a one-word value: the
// adjective of a weather or state word ("sunny" for sun, "rainy" for rain,
// "foggy" for fog, "snowy" for snow), and a state's name for its code or
// its code for its name.
func valueForms(v string) []string {
	l := strings.ToLower(strings.TrimSpace(v))
	var out []string
	for _, a := range countryAliases[l] {
		out = append(out, strings.ToLower(a))
	}
	out = append(out, demonyms[l]...)
	out = append(out, parties[l]...)
	out = append(out, sexes[l]...)
	out = append(out, currencies[l]...)
	if m := codedValue.FindStringSubmatch(strings.TrimSpace(v)); m != nil {
		out = append(out, strings.Join(valueWords(m[1]), " "))
	}
	if code, ok := usStates[l]; ok {
		out = append(out, strings.ToLower(code))
	}
	for name, code := range usStates {
		if v == code {
			out = append(out, name)
		}
	}
	if strings.ContainsAny(l, " -") || len(l) < 3 || !isLetters(l) {
		return out
	}
	last := l[len(l)-1]
	switch {
	case strings.HasSuffix(l, "e"):
		out = append(out, l[:len(l)-1]+"y") // haze -> hazy
	case strings.ContainsRune("aeiouy", rune(last)):
	default:
		out = append(out, l+"y") // rain -> rainy, snow -> snowy
		if len(l) >= 3 && !strings.ContainsRune("aeiou", rune(l[len(l)-2])) {
			break
		}
		if strings.ContainsRune("aeiou", rune(l[len(l)-2])) && !strings.ContainsRune("aeiouwxy", rune(last)) {
			out = append(out, l+string(last)+"y") // sun -> sunny, fog -> foggy
		}
	}
	return out
}

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}
