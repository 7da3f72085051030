package analyze

import (
	"math"
	"sort"
)

// The statistics of the statistical df.transform operations, written out
// so that they depend on nothing but the standard library, each matching
// the scipy.stats, numpy or pandas function named in its comment with that
// function's defaults. Accuracy is far beyond the four decimals answers
// are usually rounded to.

// testResult is a statistic and its p-value.
type testResult struct {
	Stat, P float64
}

// normSF is the standard normal survival function, accurate in the tail.
func normSF(x float64) float64 { return 0.5 * math.Erfc(x/math.Sqrt2) }

// normPPF is the standard normal quantile function (Wichura's AS 241,
// PPND16, good to about 1e-16).
func normPPF(p float64) float64 {
	if p <= 0 {
		return math.Inf(-1)
	}
	if p >= 1 {
		return math.Inf(1)
	}
	q := p - 0.5
	if math.Abs(q) <= 0.425 {
		r := 0.180625 - q*q
		return q * (((((((r*2509.0809287301226727+33430.575583588128105)*r+67265.770927008700853)*r+
			45921.953931549871457)*r+13731.693765509461125)*r+1971.5909503065514427)*r+133.14166789178437745)*r +
			3.387132872796366608) /
			(((((((r*5226.495278852545925+28729.085735721942674)*r+39307.89580009271061)*r+
				21213.794301586595867)*r+5394.1960214247511077)*r+687.1870074920579083)*r+42.313330701600911252)*r + 1)
	}
	r := p
	if q > 0 {
		r = 1 - p
	}
	r = math.Sqrt(-math.Log(r))
	var v float64
	if r <= 5 {
		r -= 1.6
		v = (((((((r*7.7454501427834140764e-4+0.0227238449892691845833)*r+0.24178072517745061177)*r+
			1.27045825245236838258)*r+3.64784832476320460504)*r+5.7694972214606914055)*r+4.6303378461565452959)*r +
			1.42343711074968357734) /
			(((((((r*1.05075007164441684324e-9+5.475938084995344946e-4)*r+0.0151986665636164571966)*r+
				0.14810397642748007459)*r+0.68976733498510000455)*r+1.6763848301838038494)*r+2.05319162663775882187)*r + 1)
	} else {
		r -= 5
		v = (((((((r*2.01033439929228813265e-7+2.71155556874348757815e-5)*r+0.0012426609473880784386)*r+
			0.026532189526576123093)*r+0.29656057182850489123)*r+1.7848265399172913358)*r+5.4637849111641143699)*r +
			6.6579046435011037772) /
			(((((((r*2.04426310338993978564e-15+1.4215117583164458887e-7)*r+1.8463183175100546818e-5)*r+
				7.868691311456132591e-4)*r+0.0148753612908506148525)*r+0.13692988092273580531)*r+0.59983220655588793769)*r + 1)
	}
	if q < 0 {
		return -v
	}
	return v
}

// betaInc is the regularized incomplete beta function I_x(a, b).
func betaInc(x, a, b float64) float64 {
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(x, a, b) / a
	}
	return 1 - front*betaCF(1-x, b, a)/b
}

// betaCF evaluates the continued fraction of the incomplete beta
// function by the modified Lentz method.
func betaCF(x, a, b float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 10000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return h
}

// gammaIncQ is the regularized upper incomplete gamma function Q(a, x).
func gammaIncQ(a, x float64) float64 {
	if x <= 0 {
		return 1
	}
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		// series for P
		ap, sum := a, 1/a
		del := sum
		for n := 0; n < 100000; n++ {
			ap++
			del *= x / ap
			sum += del
			if math.Abs(del) < math.Abs(sum)*1e-16 {
				break
			}
		}
		return 1 - sum*math.Exp(-x+a*math.Log(x)-lg)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 100000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}

// tSF2 is the two-sided p-value of a t statistic with df degrees of freedom.
func tSF2(t, df float64) float64 {
	if math.IsNaN(t) || df <= 0 {
		return math.NaN()
	}
	if math.IsInf(t, 0) {
		return 0
	}
	return betaInc(df/(df+t*t), df/2, 0.5)
}

// fSF is the survival function of the F distribution.
func fSF(f, d1, d2 float64) float64 {
	if math.IsNaN(f) {
		return math.NaN()
	}
	if f <= 0 {
		return 1
	}
	return betaInc(d2/(d2+d1*f), d2/2, d1/2)
}

// chi2SF is the survival function of the chi-square distribution.
func chi2SF(x, k float64) float64 {
	if math.IsNaN(x) {
		return math.NaN()
	}
	return gammaIncQ(k/2, x/2)
}

// sum is numpy's sum of values without missing entries.
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

func quantileSorted(s []float64, q float64) float64 {
	h := float64(len(s)-1) * q
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-lo)*(s[i+1]-s[i])
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

// lstsq solves min ||X b - y|| by Householder QR. X is row-major n×p.
// It returns b and R's inverse (for coefficient standard errors); ok is
// false when X is rank-deficient.
func lstsq(X [][]float64, y []float64) (b []float64, rinv [][]float64, ok bool) {
	n := len(X)
	if n == 0 {
		return nil, nil, false
	}
	p := len(X[0])
	if n < p {
		return nil, nil, false
	}
	A := make([][]float64, n)
	for i := range X {
		A[i] = append([]float64(nil), X[i]...)
	}
	z := append([]float64(nil), y...)
	for k := 0; k < p; k++ {
		norm := 0.0
		for i := k; i < n; i++ {
			norm += A[i][k] * A[i][k]
		}
		norm = math.Sqrt(norm)
		if norm == 0 {
			return nil, nil, false
		}
		alpha := -norm
		if A[k][k] < 0 {
			alpha = norm
		}
		v := make([]float64, n)
		v[k] = A[k][k] - alpha
		for i := k + 1; i < n; i++ {
			v[i] = A[i][k]
		}
		vv := 0.0
		for i := k; i < n; i++ {
			vv += v[i] * v[i]
		}
		if vv == 0 {
			continue
		}
		for j := k; j < p; j++ {
			d := 0.0
			for i := k; i < n; i++ {
				d += v[i] * A[i][j]
			}
			d = 2 * d / vv
			for i := k; i < n; i++ {
				A[i][j] -= d * v[i]
			}
		}
		d := 0.0
		for i := k; i < n; i++ {
			d += v[i] * z[i]
		}
		d = 2 * d / vv
		for i := k; i < n; i++ {
			z[i] -= d * v[i]
		}
	}
	scale := 0.0
	for k := 0; k < p; k++ {
		scale = math.Max(scale, math.Abs(A[k][k]))
	}
	for k := 0; k < p; k++ {
		if math.Abs(A[k][k]) <= 1e-10*scale {
			return nil, nil, false
		}
	}
	b = make([]float64, p)
	for k := p - 1; k >= 0; k-- {
		s := z[k]
		for j := k + 1; j < p; j++ {
			s -= A[k][j] * b[j]
		}
		b[k] = s / A[k][k]
	}
	rinv = make([][]float64, p)
	for i := range rinv {
		rinv[i] = make([]float64, p)
	}
	for j := 0; j < p; j++ {
		rinv[j][j] = 1 / A[j][j]
		for i := j - 1; i >= 0; i-- {
			s := 0.0
			for k := i + 1; k <= j; k++ {
				s += A[i][k] * rinv[k][j]
			}
			rinv[i][j] = -s / A[i][i]
		}
	}
	return b, rinv, true
}
