package intent

// spanNouns name a length of time between two dates: "days", "lead
// time", "turnaround".
var spanNouns = setOf("days", "day", "time", "duration", "lead", "gap", "interval", "delay", "wait", "turnaround",
	"span", "lag", "elapsed", "length")

// spanExtremes are superlatives of a length of time.
var spanExtremes = map[string]string{"longest": "max", "shortest": "min", "quickest": "min", "fastest": "min", "slowest": "max"}

// spanFillers may stand between a span's words: "lead time in days", "the
// number of days".
var spanFillers = setOf("in", "the", "of", "number", "how", "many", "calendar")

// dateSpans reads the days from one date column to another as a measure:
// "avg days from created to release", "median lead time in days (bk_dt
// to chk_in_dt)", "the time between order date and ship date". A word of
// time must say it is a length: "sales between order_date and ship_date"
// is no span. "Between" runs from the column whose dates start earlier.
// The aggregate is the one said before it ("median"), an average when
// none is.
func (p *parser) dateSpans() error {
	if p.t == nil {
		return nil
	}
	for i := 0; i < len(p.toks); i++ {
		open := p.low(i)
		if !p.free(i) || open != "between" && open != "from" && open != "(" {
			continue
		}
		j := p.skip(i+1, "the", "its", "their", "each")
		a, na, _ := p.colAt(j, prefDate)
		if a == nil || !isDate(a) {
			continue
		}
		k := j + na
		switch conn := p.low(k); {
		case open == "between" && conn == "and", open == "from" && (conn == "to" || conn == "until" || conn == "till"),
			open == "(" && (conn == "to" || conn == "-" || conn == "->"):
		default:
			continue
		}
		e := p.skip(k+1, "the", "its", "their")
		b, nb, _ := p.colAt(e, prefDate)
		if b == nil || !isDate(b) || b == a {
			continue
		}
		end := e + nb
		if open == "(" {
			if p.low(end) != ")" {
				continue
			}
			end++
		}
		// the words of time before it: "median lead time in days"
		s, said := i, false
		for s > 0 && p.free(s-1) && (spanNouns[p.low(s-1)] || spanFillers[p.low(s-1)]) {
			said = said || spanNouns[p.low(s-1)]
			s--
		}
		if !said {
			continue
		}
		agg, from := "avg", s
		if a, ok := spanExtremes[p.low(s-1)]; ok && p.free(s-1) {
			if !p.ranksBefore(s - 1) {
				agg, from = a, s-1 // "the longest gap between"; "which 3 orders had the longest" ranks them
			}
		} else if ph, n := p.backPhrase(s, keys(aggs)); n > 0 {
			switch a := aggs[ph]; a {
			case "avg", "median", "min", "max", "sum", "std":
				agg, from = a, s-n
			case "count":
				from = s - n // "how many days between": the days, each row's
			}
		}
		if lo, hi := a.Min, b.Min; open == "between" && lo != "" && hi != "" && lo > hi {
			a, b = b, a // "between ship_date and order_date": from the earlier to the later
		}
		src := p.src(from, end)
		p.addMeasure(from, src, Measure{Column: b.Name, Since: a.Name, Agg: agg}, "")
		p.named = true
		p.use(from, end)
		i = end - 1
	}
	return nil
}

// ranksBefore reports whether a ranking opens the request before token i:
// "which", "what", "top".
func (p *parser) ranksBefore(i int) bool {
	for k := 0; k < i; k++ {
		if w := p.low(k); w == "which" || w == "what" || w == "top" || w == "bottom" {
			return true
		}
	}
	return false
}

// backPhrase returns the longest of phrases that ends just before token
// i, and its length in tokens.
func (p *parser) backPhrase(i int, phrases []string) (string, int) {
	best, n := "", 0
	for k := max(0, i-4); k < i; k++ {
		if ph, m := p.anyPhrase(k, phrases); m == i-k && m > n && p.free(k) {
			best, n = ph, m
		}
	}
	return best, n
}
