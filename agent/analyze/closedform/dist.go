package closedform

import "math"

// The distribution functions the tests need, written out so that the
// package depends on nothing but the standard library. Accuracy is far
// beyond the four decimals answers are rounded to.

// normCDF is the standard normal distribution function.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

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

// kolmogorovSF is the asymptotic survival function of the Kolmogorov
// distribution, P(sqrt(n) D > x).
func kolmogorovSF(x float64) float64 {
	if x <= 0 {
		return 1
	}
	if x < 0.2 {
		return 1
	}
	s := 0.0
	for k := 1; k <= 100; k++ {
		t := 2 * math.Exp(-2*float64(k*k)*x*x)
		if k%2 == 0 {
			s -= t
		} else {
			s += t
		}
		if t < 1e-18 {
			break
		}
	}
	return math.Max(0, math.Min(1, s))
}

// ksOneSF is the survival function of the one-sample two-sided
// Kolmogorov-Smirnov statistic for sample size n (Marsaglia, Tsang and
// Wang's exact method, falling back on the asymptotic form for large n).
func ksOneSF(d float64, n int) float64 {
	if d <= 0 {
		return 1
	}
	if d >= 1 {
		return 0
	}
	if n > 500 || float64(n)*d*d > 7.24 {
		// asymptotic with Stephens' correction
		sn := math.Sqrt(float64(n))
		return kolmogorovSF((sn + 0.12 + 0.11/sn) * d)
	}
	return 1 - mtwCDF(n, d)
}

// mtwCDF is P(D_n < d) by Marsaglia, Tsang and Wang (2003).
func mtwCDF(n int, d float64) float64 {
	nd := float64(n) * d
	k := int(nd) + 1
	m := 2*k - 1
	h := float64(k) - nd
	H := make([]float64, m*m)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			if i-j+1 < 0 {
				H[i*m+j] = 0
			} else {
				H[i*m+j] = 1
			}
		}
	}
	for i := 0; i < m; i++ {
		H[i*m] -= math.Pow(h, float64(i+1))
		H[(m-1)*m+i] -= math.Pow(h, float64(m-i))
	}
	if 2*h-1 > 0 {
		H[(m-1)*m] += math.Pow(2*h-1, float64(m))
	}
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			if i-j+1 > 0 {
				for g := 1; g <= i-j+1; g++ {
					H[i*m+j] /= float64(g)
				}
			}
		}
	}
	Q, eQ := matPow(H, m, n)
	s := Q[(k-1)*m+k-1]
	for i := 1; i <= n; i++ {
		s = s * float64(i) / float64(n)
		if s < 1e-140 {
			s *= 1e140
			eQ -= 140
		}
	}
	return s * math.Pow(10, float64(eQ))
}

func matMul(a, b []float64, m int) []float64 {
	c := make([]float64, m*m)
	for i := 0; i < m; i++ {
		for k := 0; k < m; k++ {
			if a[i*m+k] == 0 {
				continue
			}
			for j := 0; j < m; j++ {
				c[i*m+j] += a[i*m+k] * b[k*m+j]
			}
		}
	}
	return c
}

// matPow returns a^n as a matrix and a power-of-ten exponent.
func matPow(a []float64, m, n int) ([]float64, int) {
	if n == 1 {
		out := make([]float64, len(a))
		copy(out, a)
		return out, 0
	}
	v, ev := matPow(a, m, n/2)
	b := matMul(v, v, m)
	eb := 2 * ev
	if n%2 == 1 {
		b = matMul(a, b, m)
	}
	if b[(m/2)*m+m/2] > 1e140 {
		for i := range b {
			b[i] *= 1e-140
		}
		eb += 140
	}
	return b, eb
}
