package closedform

import (
	"math"
	"sort"
)

// Descriptive statistics over values without missing entries, computed as
// pandas and numpy compute them.

func sum(xs []float64) float64 {
	// numpy's pairwise summation, so that the last digits agree with pandas
	n := len(xs)
	switch {
	case n < 8:
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], xs[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for k := 0; k < 8; k++ {
				r[k] += xs[i+k]
			}
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += xs[i]
		}
		return s
	}
	n2 := n / 2
	n2 -= n2 % 8
	return sum(xs[:n2]) + sum(xs[n2:])
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return sum(xs) / float64(len(xs))
}

// variance with ddof delta degrees of freedom (pandas: 1, numpy: 0).
func variance(xs []float64, ddof int) float64 {
	n := len(xs)
	if n-ddof <= 0 {
		return math.NaN()
	}
	m := mean(xs)
	d := make([]float64, n)
	for i, x := range xs {
		d[i] = (x - m) * (x - m)
	}
	return sum(d) / float64(n-ddof)
}

func std(xs []float64, ddof int) float64 { return math.Sqrt(variance(xs, ddof)) }

func sorted(xs []float64) []float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s
}

// quantile is numpy's default (linear) quantile, q in [0, 1].
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := sorted(xs)
	return quantileSorted(s, q)
}

func quantileSorted(s []float64, q float64) float64 {
	h := float64(len(s)-1) * q
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-lo)*(s[i+1]-s[i])
}

func median(xs []float64) float64 { return quantile(xs, 0.5) }

func minMax(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo = math.Min(lo, x)
		hi = math.Max(hi, x)
	}
	return lo, hi
}

// modeFloat is the smallest most frequent value (pandas' mode()[0]).
func modeFloat(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	counts := map[float64]int{}
	for _, x := range xs {
		counts[x]++
	}
	best, bc := math.NaN(), 0
	for v, c := range counts {
		if c > bc || (c == bc && v < best) {
			best, bc = v, c
		}
	}
	return best
}

// moments returns the second, third and fourth central moments.
func moments(xs []float64) (m2, m3, m4 float64) {
	n := float64(len(xs))
	m := mean(xs)
	for _, x := range xs {
		d := x - m
		m2 += d * d
		m3 += d * d * d
		m4 += d * d * d * d
	}
	return m2 / n, m3 / n, m4 / n
}

// skewness: biased (scipy.stats.skew default) or the adjusted
// Fisher-Pearson coefficient (pandas Series.skew).
func skewness(xs []float64, bias bool) float64 {
	n := float64(len(xs))
	if n < 3 {
		return math.NaN()
	}
	m2, m3, _ := moments(xs)
	if m2 == 0 {
		return 0
	}
	g1 := m3 / math.Pow(m2, 1.5)
	if bias {
		return g1
	}
	return g1 * math.Sqrt(n*(n-1)) / (n - 2)
}

// kurtosis is excess kurtosis: biased (scipy.stats.kurtosis default) or
// with pandas' bias correction (Series.kurt).
func kurtosis(xs []float64, bias bool) float64 {
	n := float64(len(xs))
	if n < 4 {
		return math.NaN()
	}
	m2, _, m4 := moments(xs)
	if m2 == 0 {
		return 0
	}
	g2 := m4/(m2*m2) - 3
	if bias {
		return g2
	}
	return ((n+1)*g2 + 6) * (n - 1) / ((n - 2) * (n - 3))
}

// ranks are average ranks (1-based) with ties sharing their mean rank.
func ranks(xs []float64) []float64 {
	n := len(xs)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, n)
	for i := 0; i < n; {
		j := i
		for j+1 < n && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}
