package closedform

import "math"

// Least squares and the random numbers of numpy's legacy RandomState, so
// that train_test_split(random_state=42) picks the same rows.

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

// lstsqDropping solves least squares leaving out columns that depend on
// earlier ones (their coefficients are 0). The fitted values equal those
// of the minimum-norm solution scikit-learn computes.
func lstsqDropping(X [][]float64, y []float64) ([]float64, bool) {
	n := len(X)
	if n == 0 {
		return nil, false
	}
	p := len(X[0])
	var keep []int
	var basis [][]float64 // orthonormal columns kept so far
	for j := 0; j < p; j++ {
		v := make([]float64, n)
		norm0 := 0.0
		for i := range X {
			v[i] = X[i][j]
			norm0 += v[i] * v[i]
		}
		for _, q := range basis {
			d := 0.0
			for i := range v {
				d += q[i] * v[i]
			}
			for i := range v {
				v[i] -= d * q[i]
			}
		}
		norm := 0.0
		for _, x := range v {
			norm += x * x
		}
		if norm0 == 0 || norm <= 1e-18*norm0 {
			continue
		}
		norm = math.Sqrt(norm)
		for i := range v {
			v[i] /= norm
		}
		basis = append(basis, v)
		keep = append(keep, j)
	}
	sub := make([][]float64, n)
	for i := range X {
		sub[i] = make([]float64, len(keep))
		for k, j := range keep {
			sub[i][k] = X[i][j]
		}
	}
	bs, _, ok := lstsq(sub, y)
	if !ok {
		return nil, false
	}
	b := make([]float64, p)
	for k, j := range keep {
		b[j] = bs[k]
	}
	return b, true
}

// mt19937 is the Mersenne Twister as numpy's RandomState seeds it from
// an integer.
type mt19937 struct {
	mt  [624]uint32
	pos int
}

func newMT19937(seed uint32) *mt19937 {
	m := &mt19937{}
	m.mt[0] = seed
	for i := 1; i < 624; i++ {
		m.mt[i] = 1812433253*(m.mt[i-1]^(m.mt[i-1]>>30)) + uint32(i)
	}
	m.pos = 624
	return m
}

func (m *mt19937) next() uint32 {
	if m.pos >= 624 {
		const upper, lower = 0x80000000, 0x7fffffff
		for i := 0; i < 624; i++ {
			y := m.mt[i]&upper | m.mt[(i+1)%624]&lower
			v := m.mt[(i+397)%624] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.mt[i] = v
		}
		m.pos = 0
	}
	y := m.mt[m.pos]
	m.pos++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// interval is numpy's legacy random_interval: a uniform integer in
// [0, max] by masked rejection.
func (m *mt19937) interval(max uint32) uint32 {
	if max == 0 {
		return 0
	}
	mask := max
	mask |= mask >> 1
	mask |= mask >> 2
	mask |= mask >> 4
	mask |= mask >> 8
	mask |= mask >> 16
	for {
		if v := m.next() & mask; v <= max {
			return v
		}
	}
}

// permutation is RandomState(seed).permutation(n).
func permutation(n int, seed uint32) []int {
	m := newMT19937(seed)
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i >= 1; i-- {
		j := int(m.interval(uint32(i)))
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// trainTestSplit returns the row indexes of scikit-learn's
// train_test_split(test_size=testSize, random_state=seed).
func trainTestSplit(n int, testSize float64, seed uint32) (train, test []int) {
	nTest := int(math.Ceil(testSize * float64(n)))
	perm := permutation(n, seed)
	return perm[nTest:], perm[:nTest]
}
