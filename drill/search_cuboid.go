package drill

import (
	"cmp"
	"math"
	"slices"
)

// denseLimit is the largest number of possible elements for which a
// cuboid's aggregates live in a slice indexed by the mixed-radix key;
// bigger cuboids use a map holding only the elements that occur.
const denseLimit = 1 << 20

// sparseShrink is how many times more possible elements than the cube has
// leaves make a cuboid under denseLimit keep only the elements that occur,
// in a map, rather than a slice of every one to allocate and walk: a cube
// of 40,000 leaves over dimensions of 300, 40 and 24 values holds a
// fraction of their 288,000 combinations. Its slots are then put in the
// order of their keys (see sortSlots), so that the search walks its
// elements, and breaks ties between them, as it walks a slice.
const sparseShrink = 2

// A cuboid is one combination of dimensions with the running aggregates
// of its elements over the leaves not yet explained.
type cuboid struct {
	dims  []int
	radix []uint64 // multiplier of each dimension's code in the key
	dense bool
	// ordered is set for a cuboid of at most denseLimit elements: dense,
	// or sparse because the cube has far fewer leaves (sparseShrink),
	// with its slots in the order of their keys.
	ordered bool
	size    int              // every possible element, when ordered
	slots   map[uint64]int32 // key -> slot when !dense
	keys    []uint64         // slot -> key
	agg     []elemAgg        // per slot
	ready   bool

	// members lists each slot's leaves (built on first need).
	memberStart []int32
	members     []int32
}

// elemAgg is one element's running aggregates.
type elemAgg struct {
	abnW, normW float64 // summed weights of anomalous and normal leaves
	ep          float64 // summed signed change
	base        float64 // summed expected value
	m, v        float64 // summed exposure and noise variance
	nAbn        int32
}

func newCuboid(c *Cube, dims []int) *cuboid {
	cb := &cuboid{dims: dims, radix: make([]uint64, len(dims))}
	size := 1.0
	mult := uint64(1)
	for i, d := range dims {
		card := uint64(len(c.Labels[d]))
		if card == 0 {
			card = 1
		}
		cb.radix[i] = mult
		mult *= card
		size *= float64(card)
	}
	// Keys must also fit in 64 bits; dense needs a small key space.
	if size > math.MaxUint64/2 {
		cb.radix = nil
	}
	cb.ordered = cb.radix != nil && size <= denseLimit
	if cb.ordered {
		cb.size = int(size)
	}
	cb.dense = cb.ordered && size <= sparseShrink*float64(max(c.Len(), 1))
	return cb
}

// elements is how many elements cb holds, as the choice of a cuboid to
// roll up from counts them: every possible one when it is ordered, as if
// it were dense, so that a cube's sums are added up in the same order
// whichever way its cuboids are held.
func (cb *cuboid) elements() int {
	if cb.ordered {
		return cb.size
	}
	return len(cb.agg)
}

// sortSlots puts the slots of a sparse ordered cuboid in the order of
// their keys. An element's aggregates do not depend on its slot.
func (cb *cuboid) sortSlots() {
	if cb.dense || !cb.ordered {
		return
	}
	order := make([]int32, len(cb.keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Compare(cb.keys[a], cb.keys[b])
	})
	keys := make([]uint64, len(order))
	agg := make([]elemAgg, len(order))
	for s, old := range order {
		keys[s], agg[s] = cb.keys[old], cb.agg[old]
		cb.slots[keys[s]] = int32(s)
	}
	cb.keys, cb.agg = keys, agg
}

// key returns leaf i's element key in this cuboid.
func (cb *cuboid) key(c *Cube, i int) uint64 {
	var k uint64
	for j, d := range cb.dims {
		k += uint64(c.Codes[d][i]) * cb.radix[j]
	}
	return k
}

// slot returns leaf i's slot, adding it when add is set; -1 if absent.
func (cb *cuboid) slot(c *Cube, i int, add bool) int32 {
	k := cb.key(c, i)
	if cb.dense {
		return int32(k)
	}
	s, ok := cb.slots[k]
	if !ok {
		if !add {
			return -1
		}
		s = int32(len(cb.keys))
		cb.slots[k] = s
		cb.keys = append(cb.keys, k)
		cb.agg = append(cb.agg, elemAgg{})
	}
	return s
}

// alloc makes room for the aggregates.
func (cb *cuboid) alloc(c *Cube) {
	if cb.dense {
		size := 1
		for _, d := range cb.dims {
			size *= max(len(c.Labels[d]), 1)
		}
		cb.agg = make([]elemAgg, size)
	} else {
		cb.slots = map[uint64]int32{}
	}
}

// buildBlock is how many leaves build keys at a time: column by column,
// which is faster than leaf by leaf, in a buffer that stays in cache.
const buildBlock = 2048

// build aggregates the active leaves.
func (cb *cuboid) build(c *Cube, lv *leaves, active []bool) {
	cb.alloc(c)
	if !cb.dense {
		for i, on := range active {
			if on {
				cb.add(lv, i, cb.slot(c, i, true), 1)
			}
		}
		cb.sortSlots()
		cb.ready = true
		return
	}
	var keys [buildBlock]uint64
	for lo := 0; lo < len(active); lo += buildBlock {
		hi := min(lo+buildBlock, len(active))
		ks := keys[:hi-lo]
		clear(ks)
		for j, d := range cb.dims {
			r := cb.radix[j]
			for i, code := range c.Codes[d][lo:hi] {
				ks[i] += uint64(code) * r
			}
		}
		for i, k := range ks {
			if active[lo+i] {
				cb.add(lv, lo+i, int32(k), 1)
			}
		}
	}
	cb.ready = true
}

// rollup aggregates cb from from, a built cuboid over cb's dimensions and
// more, whose elements are far fewer than the leaves. Built cuboids track
// the active leaves, so the result is the same as build's.
func (cb *cuboid) rollup(c *Cube, from *cuboid) {
	cb.alloc(c)
	pos := make([]int, len(cb.dims)) // index of each of cb's dims in from
	for i, d := range cb.dims {
		for j, fd := range from.dims {
			if fd == d {
				pos[i] = j
			}
		}
	}
	for fs := range from.agg {
		k := uint64(fs)
		if !from.dense {
			k = from.keys[fs]
		}
		var sub uint64
		for i, j := range pos {
			card := uint64(max(len(c.Labels[from.dims[j]]), 1))
			sub += (k / from.radix[j] % card) * cb.radix[i]
		}
		var s int32
		if cb.dense {
			s = int32(sub)
		} else {
			var ok bool
			if s, ok = cb.slots[sub]; !ok {
				s = int32(len(cb.keys))
				cb.slots[sub] = s
				cb.keys = append(cb.keys, sub)
				cb.agg = append(cb.agg, elemAgg{})
			}
		}
		cb.agg[s].merge(&from.agg[fs])
	}
	cb.sortSlots()
	cb.ready = true
}

// merge adds b's aggregates to a's.
func (a *elemAgg) merge(b *elemAgg) {
	a.abnW += b.abnW
	a.normW += b.normW
	a.ep += b.ep
	a.base += b.base
	a.m += b.m
	a.v += b.v
	a.nAbn += b.nAbn
}

// add adds (sign 1) or removes (sign -1) leaf i from slot s.
func (cb *cuboid) add(lv *leaves, i int, s int32, sign float64) {
	a := &cb.agg[s]
	a.ep += sign * lv.ep[i]
	a.base += sign * lv.b[i]
	a.m += sign * lv.m[i]
	a.v += sign * lv.v[i]
	if lv.abn[i] {
		a.abnW += sign * lv.w[i]
		a.nAbn += int32(sign)
	} else {
		a.normW += sign * lv.w[i]
	}
}

// slotOf returns the slot of the element given by conds (which must use
// exactly cb's dimensions), or -1 if no active leaf ever had it.
func (cb *cuboid) slotOf(conds []Cond) int32 {
	var k uint64
	for j, cd := range conds {
		k += uint64(cd.Code) * cb.radix[j]
	}
	if cb.dense {
		return int32(k)
	}
	if s, ok := cb.slots[k]; ok {
		return s
	}
	return -1
}

// conds returns the conditions of slot s, sorted by dimension because
// cuboid dimensions are generated in increasing order.
func (cb *cuboid) conds(c *Cube, s int32) []Cond {
	k := uint64(s)
	if !cb.dense {
		k = cb.keys[s]
	}
	out := make([]Cond, len(cb.dims))
	for j := len(cb.dims) - 1; j >= 0; j-- {
		code := k / cb.radix[j]
		k -= code * cb.radix[j]
		out[j] = Cond{Dim: cb.dims[j], Code: int32(code)}
	}
	return out
}

// leavesOf returns the leaves of slot s (active or not), grouping all
// leaves by slot on first use.
func (cb *cuboid) leavesOf(c *Cube, s int32) []int32 {
	if cb.memberStart == nil {
		n := c.Len()
		nslots := len(cb.agg)
		slotOf := make([]int32, n)
		cb.memberStart = make([]int32, nslots+1)
		for i := range n {
			slotOf[i] = cb.slot(c, i, false)
			if slotOf[i] >= 0 {
				cb.memberStart[slotOf[i]+1]++
			}
		}
		for j := range nslots {
			cb.memberStart[j+1] += cb.memberStart[j]
		}
		next := append([]int32(nil), cb.memberStart[:nslots]...)
		cb.members = make([]int32, cb.memberStart[nslots])
		for i := range n {
			if s := slotOf[i]; s >= 0 {
				cb.members[next[s]] = int32(i)
				next[s]++
			}
		}
	}
	return cb.members[cb.memberStart[s]:cb.memberStart[s+1]]
}

// combinations returns all k-subsets of {0..n-1} in lexicographic order.
func combinations(n, k int) [][]int {
	var out [][]int
	cur := make([]int, k)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == k {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := start; i <= n-(k-depth); i++ {
			cur[depth] = i
			rec(i+1, depth+1)
		}
	}
	rec(0, 0)
	return out
}
