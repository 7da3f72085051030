package drill

import "math"

// A CalendarEffect is the part of a metric's change that the calendar alone
// explains: periods with a different mix of weekdays (two weekends against
// one) or a different number of days move a metric with a weekly pattern
// even when nothing else changed.
type CalendarEffect struct {
	// Change is the metric's actual change: of the period totals for
	// additive metrics, of the pooled ratio for ratios.
	Change float64
	// ExpectedChange is the change the weekday mix alone predicts, at the
	// baseline's level and the comparison's length. It is 0 when both
	// periods have the same mix of weekdays.
	ExpectedChange float64
	// LengthChange is, for additive metrics, the change the different
	// number of days alone predicts; ratios do not depend on length.
	LengthChange float64
	// ShareOfChange is ExpectedChange/Change, 0 when Change is 0.
	ShareOfChange float64
	// Base and Cmp count each period's days per weekday, indexed by
	// time.Weekday.
	Base, Cmp [7]int
	// Profile is the level of the metric per weekday relative to an average
	// weekday (1): of the daily value for additive metrics, of the daily
	// ratio for ratios. Weekdays without data have 1.
	Profile [7]float64
	// Volume is, for ratios, the relative denominator per weekday.
	Volume [7]float64
	// Skipped counts days whose Date did not parse.
	Skipped int
}

// WeekdayEffect estimates a weekly profile from both periods and the change
// it alone predicts. Scale is the metric's scale (0 means 1).
//
// The profile comes from a multiplicative model fitted to every day of both
// periods, value(day) = level(period) * profile(weekday), so that a real
// change of level between the periods is not mistaken for a weekday effect.
// With S_p the sum of the profile over period p's n_p days and m_p = S_p/n_p,
// an additive total T is expected to change by
//
//	T0 * (S1/S0 - 1) = T0 * (n1/n0 - 1)           LengthChange
//	                 + T0 * n1/n0 * (m1/m0 - 1)    ExpectedChange
//
// For a ratio both the daily ratio (weighted by denominator) and the daily
// denominator get a profile, h and g, and the ratio is expected to move from
// R0 by R0 * (E1/E0 - 1) with E_p = sum(g*h)/sum(g) over period p's days.
//
// A weekday seen in only one period cannot be told apart from that period's
// level; the fit then leans on the other weekdays.
func WeekdayEffect(base, cmp []Day, ratio bool, scale float64) CalendarEffect {
	if scale == 0 {
		scale = 1
	}
	var c CalendarEffect
	var obs []observation
	var num, den [2]float64
	for p, days := range [2][]Day{base, cmp} {
		for _, d := range days {
			wd, ok := weekday(d.Date)
			if !ok {
				c.Skipped++
				continue
			}
			if p == 0 {
				c.Base[wd]++
			} else {
				c.Cmp[wd]++
			}
			num[p] += d.Num
			den[p] += d.Den
			obs = append(obs, observation{period: p, weekday: int(wd), num: d.Num, den: d.Den})
		}
	}
	n0, n1 := total(c.Base), total(c.Cmp)
	if n0 == 0 || n1 == 0 {
		c.Profile, c.Volume = ones(), ones()
		return c
	}
	if !ratio {
		c.Profile = fitProfile(obs, func(o observation) (float64, float64) { return o.num, 1 })
		c.Volume = ones()
		t0 := scale * num[0]
		c.Change = scale*num[1] - t0
		m0, m1 := mean(c.Profile, c.Base), mean(c.Profile, c.Cmp)
		c.LengthChange = t0 * (n1/n0 - 1)
		c.ExpectedChange = t0 * n1 / n0 * (safeDiv(m1, m0) - 1)
	} else {
		c.Profile = fitProfile(obs, func(o observation) (float64, float64) { return safeDiv(o.num, o.den), o.den })
		c.Volume = fitProfile(obs, func(o observation) (float64, float64) { return o.den, 1 })
		r0 := scale * safeDiv(num[0], den[0])
		c.Change = scale*safeDiv(num[1], den[1]) - r0
		e0 := weighted(c.Profile, c.Volume, c.Base)
		e1 := weighted(c.Profile, c.Volume, c.Cmp)
		c.ExpectedChange = r0 * (safeDiv(e1, e0) - 1)
	}
	c.ShareOfChange = safeDiv(c.ExpectedChange, c.Change)
	return c
}

// observation is one day of a period.
type observation struct {
	period, weekday int
	num, den        float64
}

// fitProfile fits value = level[period] * profile[weekday] by alternating
// weighted ratio estimates, where get returns a day's value and weight, and
// returns the profile scaled to average 1 over the weekdays seen.
func fitProfile(obs []observation, get func(observation) (value, weight float64)) [7]float64 {
	prof, level := ones(), [2]float64{1, 1}
	for range 50 {
		var lvNum, lvDen [2]float64
		for _, o := range obs {
			v, w := get(o)
			lvNum[o.period] += w * v
			lvDen[o.period] += w * prof[o.weekday]
		}
		for p := range level {
			level[p] = safeDiv(lvNum[p], lvDen[p])
		}
		var pfNum, pfDen [7]float64
		for _, o := range obs {
			v, w := get(o)
			pfNum[o.weekday] += w * v
			pfDen[o.weekday] += w * level[o.period]
		}
		next := ones()
		for wd := range next {
			if pfDen[wd] != 0 {
				next[wd] = pfNum[wd] / pfDen[wd]
			}
		}
		next = normalized(next, pfDen)
		done := true
		for wd := range next {
			done = done && math.Abs(next[wd]-prof[wd]) <= 1e-13*math.Max(1, math.Abs(prof[wd]))
		}
		prof = next
		if done {
			break
		}
	}
	return prof
}

// normalized scales prof to average 1 over the weekdays with seen != 0.
func normalized(prof [7]float64, seen [7]float64) [7]float64 {
	var s, n float64
	for wd := range prof {
		if seen[wd] != 0 {
			s += prof[wd]
			n++
		}
	}
	if s == 0 || n == 0 {
		return prof
	}
	for wd := range prof {
		if seen[wd] != 0 {
			prof[wd] *= n / s
		}
	}
	return prof
}

// mean is the average of prof over a period with count days per weekday.
func mean(prof [7]float64, count [7]int) float64 {
	var s float64
	for wd, k := range count {
		s += float64(k) * prof[wd]
	}
	return s / total(count)
}

// weighted is sum(k*g*h)/sum(k*g) over a period's weekday counts k.
func weighted(h, g [7]float64, count [7]int) float64 {
	var s, w float64
	for wd, k := range count {
		s += float64(k) * g[wd] * h[wd]
		w += float64(k) * g[wd]
	}
	return safeDiv(s, w)
}

func total(count [7]int) float64 {
	var n int
	for _, k := range count {
		n += k
	}
	return float64(n)
}

func ones() [7]float64 { return [7]float64{1, 1, 1, 1, 1, 1, 1} }
