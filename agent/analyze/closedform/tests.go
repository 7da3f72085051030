package closedform

import (
	"math"
)

// Statistical tests, each matching the scipy.stats function named in its
// comment with that function's defaults.

// testResult is a statistic and its p-value.
type testResult struct {
	Stat, P float64
}

// pearson is scipy.stats.pearsonr over paired values.
func pearson(x, y []float64) testResult {
	n := len(x)
	if n < 2 {
		return testResult{math.NaN(), math.NaN()}
	}
	mx, my := mean(x), mean(y)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	r := sxy / math.Sqrt(sxx*syy)
	r = math.Max(-1, math.Min(1, r))
	return testResult{r, corrP(r, n)}
}

// corrP is the two-sided p-value of a correlation r over n pairs.
func corrP(r float64, n int) float64 {
	if n <= 2 {
		return math.NaN()
	}
	if math.Abs(r) >= 1 {
		return 0
	}
	df := float64(n - 2)
	t := r * math.Sqrt(df/((1-r)*(1+r)))
	return tSF2(t, df)
}

// spearman is scipy.stats.spearmanr.
func spearman(x, y []float64) testResult {
	r := pearson(ranks(x), ranks(y)).Stat
	return testResult{r, corrP(r, len(x))}
}

// kendall is scipy.stats.kendalltau (tau-b, asymptotic p-value).
func kendall(x, y []float64) testResult {
	n := len(x)
	if n > 20000 {
		return testResult{math.NaN(), math.NaN()} // quadratic; too slow beyond this
	}
	var conc, disc, tx, ty float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case dx*dy > 0:
				conc++
			default:
				disc++
			}
		}
	}
	tau := (conc - disc) / math.Sqrt((conc+disc+tx)*(conc+disc+ty))
	// variance with ties (scipy's formula)
	tiesum := func(v []float64) (a, b, c float64) {
		s := sorted(v)
		for i := 0; i < len(s); {
			j := i
			for j+1 < len(s) && s[j+1] == s[i] {
				j++
			}
			t := float64(j - i + 1)
			a += t * (t - 1) / 2
			b += t * (t - 1) * (t - 2)
			c += t * (t - 1) * (2*t + 5)
			i = j + 1
		}
		return
	}
	xt1, xt2, xt3 := tiesum(x)
	yt1, yt2, yt3 := tiesum(y)
	fn := float64(n)
	m := fn * (fn - 1)
	v := (m*(2*fn+5)-xt3-yt3)/18 + (2*xt1*yt1)/m + (xt2*yt2)/(9*m*(fn-2))
	z := (conc - disc) / math.Sqrt(v)
	return testResult{tau, 2 * normSF(math.Abs(z))}
}

// shapiro is scipy.stats.shapiro (Royston's AS R94).
func shapiro(xs []float64) testResult {
	n := len(xs)
	if n < 3 {
		return testResult{math.NaN(), math.NaN()}
	}
	x := sorted(xs)
	nn2 := n / 2
	a := make([]float64, nn2+1) // 1-based
	an := float64(n)
	if n == 3 {
		a[1] = math.Sqrt(0.5)
	} else {
		c1 := []float64{0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056}
		c2 := []float64{0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633}
		m := make([]float64, nn2+1)
		an25 := an + 0.25
		summ2 := 0.0
		for i := 1; i <= nn2; i++ {
			m[i] = normPPF((float64(i) - 0.375) / an25)
			summ2 += m[i] * m[i]
		}
		summ2 *= 2
		ssumm2 := math.Sqrt(summ2)
		rsn := 1 / math.Sqrt(an)
		a1 := poly(c1, rsn) - m[1]/ssumm2
		i1 := 2
		var fac float64
		if n > 5 {
			i1 = 3
			a2 := -m[2]/ssumm2 + poly(c2, rsn)
			fac = math.Sqrt((summ2 - 2*m[1]*m[1] - 2*m[2]*m[2]) / (1 - 2*a1*a1 - 2*a2*a2))
			a[2] = a2
		} else {
			fac = math.Sqrt((summ2 - 2*m[1]*m[1]) / (1 - 2*a1*a1))
		}
		a[1] = a1
		for i := i1; i <= nn2; i++ {
			a[i] = -m[i] / fac
		}
	}
	rng := x[n-1] - x[0]
	if rng < 1e-19 {
		return testResult{math.NaN(), math.NaN()}
	}
	// W = (sum a_i (x_(n+1-i) - x_(i)))^2 / SSQ, on values scaled by the range
	xs2 := make([]float64, n)
	for i := range x {
		xs2[i] = x[i] / rng
	}
	num := 0.0
	for i := 1; i <= nn2; i++ {
		num += a[i] * (xs2[n-i] - xs2[i-1])
	}
	mu := mean(xs2)
	ssq := 0.0
	for _, v := range xs2 {
		ssq += (v - mu) * (v - mu)
	}
	w := num * num / ssq
	if w > 1 {
		w = 1
	}
	w1 := 1 - w
	if n == 3 {
		const pi6, stqr = 1.90985931710274, 1.04719755119660
		pw := pi6 * (math.Asin(math.Sqrt(w)) - stqr)
		return testResult{w, math.Max(pw, 0)}
	}
	if w1 <= 0 {
		return testResult{w, 1}
	}
	y := math.Log(w1)
	xx := math.Log(an)
	var mm, s float64
	if n <= 11 {
		gamma := poly([]float64{-2.273, 0.459}, an)
		if y >= gamma {
			return testResult{w, 1e-99}
		}
		y = -math.Log(gamma - y)
		mm = poly([]float64{0.544, -0.39978, 0.025054, -6.714e-4}, an)
		s = math.Exp(poly([]float64{1.3822, -0.77857, 0.062767, -0.0020322}, an))
	} else {
		mm = poly([]float64{-1.5861, -0.31082, -0.083751, 0.0038915}, xx)
		s = math.Exp(poly([]float64{-0.4803, -0.082676, 0.0030302}, xx))
	}
	return testResult{w, normSF((y - mm) / s)}
}

// poly evaluates c[0] + c[1] x + c[2] x^2 + ...
func poly(c []float64, x float64) float64 {
	r := 0.0
	for i := len(c) - 1; i >= 0; i-- {
		r = r*x + c[i]
	}
	return r
}

// normaltest is scipy.stats.normaltest (D'Agostino and Pearson).
func normaltest(xs []float64) testResult {
	n := float64(len(xs))
	if n < 8 {
		return testResult{math.NaN(), math.NaN()}
	}
	// skewtest
	b2 := skewness(xs, true)
	y := b2 * math.Sqrt((n+1)*(n+3)/(6*(n-2)))
	beta2 := 3 * (n*n + 27*n - 70) * (n + 1) * (n + 3) / ((n - 2) * (n + 5) * (n + 7) * (n + 9))
	w2 := -1 + math.Sqrt(2*(beta2-1))
	delta := 1 / math.Sqrt(0.5*math.Log(w2))
	alpha := math.Sqrt(2 / (w2 - 1))
	if y == 0 {
		y = 1
	}
	zs := delta * math.Log(y/alpha+math.Sqrt((y/alpha)*(y/alpha)+1))
	// kurtosistest
	k := kurtosis(xs, true) + 3
	e := 3 * (n - 1) / (n + 1)
	varb2 := 24 * n * (n - 2) * (n - 3) / ((n + 1) * (n + 1) * (n + 3) * (n + 5))
	x := (k - e) / math.Sqrt(varb2)
	sb1 := 6 * (n*n - 5*n + 2) / ((n + 7) * (n + 9)) * math.Sqrt(6*(n+3)*(n+5)/(n*(n-2)*(n-3)))
	A := 6 + 8/sb1*(2/sb1+math.Sqrt(1+4/(sb1*sb1)))
	term1 := 1 - 2/(9*A)
	denom := 1 + x*math.Sqrt(2/(A-4))
	term2 := math.Copysign(math.Cbrt((1-2/A)/math.Abs(denom)), denom)
	if denom == 0 {
		term2 = math.NaN()
	}
	zk := (term1 - term2) / math.Sqrt(2/(9*A))
	k2 := zs*zs + zk*zk
	return testResult{k2, chi2SF(k2, 2)}
}

// ksNorm is scipy.stats.kstest against a normal distribution with the
// given mean and standard deviation.
func ksNorm(xs []float64, mu, sigma float64) testResult {
	x := sorted(xs)
	n := float64(len(x))
	d := 0.0
	for i, v := range x {
		c := normCDF((v - mu) / sigma)
		d = math.Max(d, math.Max(float64(i+1)/n-c, c-float64(i)/n))
	}
	return testResult{d, ksOneSF(d, len(x))}
}

// ttestInd is scipy.stats.ttest_ind: Student's (equalVar) or Welch's.
func ttestInd(a, b []float64, equalVar bool) testResult {
	n1, n2 := float64(len(a)), float64(len(b))
	v1, v2 := variance(a, 1), variance(b, 1)
	d := mean(a) - mean(b)
	if equalVar {
		df := n1 + n2 - 2
		sp := ((n1-1)*v1 + (n2-1)*v2) / df
		t := d / math.Sqrt(sp*(1/n1+1/n2))
		return testResult{t, tSF2(t, df)}
	}
	s1, s2 := v1/n1, v2/n2
	t := d / math.Sqrt(s1+s2)
	df := (s1 + s2) * (s1 + s2) / (s1*s1/(n1-1) + s2*s2/(n2-1))
	return testResult{t, tSF2(t, df)}
}

// ttestRel is scipy.stats.ttest_rel.
func ttestRel(a, b []float64) testResult {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return ttest1(d, 0)
}

// ttest1 is scipy.stats.ttest_1samp.
func ttest1(a []float64, mu float64) testResult {
	n := float64(len(a))
	t := (mean(a) - mu) / (std(a, 1) / math.Sqrt(n))
	return testResult{t, tSF2(t, n-1)}
}

// anova is scipy.stats.f_oneway.
func anova(groups [][]float64) testResult {
	var all []float64
	for _, g := range groups {
		all = append(all, g...)
	}
	gm := mean(all)
	var ssb, ssw float64
	k := 0
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		k++
		m := mean(g)
		ssb += float64(len(g)) * (m - gm) * (m - gm)
		for _, v := range g {
			ssw += (v - m) * (v - m)
		}
	}
	dfb, dfw := float64(k-1), float64(len(all)-k)
	f := (ssb / dfb) / (ssw / dfw)
	return testResult{f, fSF(f, dfb, dfw)}
}

// kruskal is scipy.stats.kruskal.
func kruskal(groups [][]float64) testResult {
	var all []float64
	for _, g := range groups {
		all = append(all, g...)
	}
	r := ranks(all)
	n := float64(len(all))
	h := 0.0
	off := 0
	k := 0
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		k++
		s := 0.0
		for i := range g {
			s += r[off+i]
		}
		off += len(g)
		h += s * s / float64(len(g))
	}
	h = 12/(n*(n+1))*h - 3*(n+1)
	h /= tieCorrection(all)
	return testResult{h, chi2SF(h, float64(k-1))}
}

func tieCorrection(xs []float64) float64 {
	s := sorted(xs)
	n := float64(len(s))
	t := 0.0
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[i] {
			j++
		}
		c := float64(j - i + 1)
		t += c*c*c - c
		i = j + 1
	}
	return 1 - t/(n*n*n-n)
}

// mannWhitney is scipy.stats.mannwhitneyu, two-sided, asymptotic with
// continuity correction.
func mannWhitney(a, b []float64) testResult {
	all := append(append([]float64(nil), a...), b...)
	r := ranks(all)
	n1, n2 := float64(len(a)), float64(len(b))
	r1 := 0.0
	for i := range a {
		r1 += r[i]
	}
	u1 := r1 - n1*(n1+1)/2
	u2 := n1*n2 - u1
	u := math.Max(u1, u2)
	mu := n1 * n2 / 2
	n := n1 + n2
	s := sorted(all)
	tsum := 0.0
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[i] {
			j++
		}
		t := float64(j - i + 1)
		tsum += t*t*t - t
		i = j + 1
	}
	sigma := math.Sqrt(n1 * n2 / 12 * ((n + 1) - tsum/(n*(n-1))))
	z := (u - mu - 0.5) / sigma
	p := math.Min(1, 2*normSF(z))
	return testResult{u1, p}
}

// chi2Contingency is scipy.stats.chi2_contingency on a table of counts,
// with Yates' correction when there is one degree of freedom.
func chi2Contingency(table [][]float64) (testResult, int) {
	rows, cols := len(table), 0
	if rows > 0 {
		cols = len(table[0])
	}
	rs := make([]float64, rows)
	cs := make([]float64, cols)
	tot := 0.0
	for i, row := range table {
		for j, v := range row {
			rs[i] += v
			cs[j] += v
			tot += v
		}
	}
	dof := (rows - 1) * (cols - 1)
	chi := 0.0
	for i, row := range table {
		for j, v := range row {
			e := rs[i] * cs[j] / tot
			d := v - e
			if dof == 1 {
				d = math.Copysign(math.Min(0.5, math.Abs(d)), d)
				d = (v - e) - d
			}
			chi += d * d / e
		}
	}
	return testResult{chi, chi2SF(chi, float64(dof))}, dof
}

// levene is scipy.stats.levene (center median).
func levene(groups [][]float64) testResult {
	var zs [][]float64
	for _, g := range groups {
		m := median(g)
		z := make([]float64, len(g))
		for i, v := range g {
			z[i] = math.Abs(v - m)
		}
		zs = append(zs, z)
	}
	return anova(zs)
}
