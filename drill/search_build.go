package drill

import (
	"runtime"
	"slices"
	"sync"
)

// Building a cuboid from the leaves is the bulk of a search's work on a
// large cube. Most cuboids can instead be rolled up from a built cuboid
// over more dimensions that has far fewer elements than the cube has
// leaves; the rest are built side by side.

// parallelLeaves is the smallest number of leaves for which buildLayer
// builds cuboids side by side; below it goroutines cost more than they
// save.
const parallelLeaves = 50_000

// baseShrink is how many times fewer elements than leaves the base
// cuboid (every dimension but the widest) must have to be worth a pass.
const baseShrink = 8

// newBase returns the cuboid over every dimension but the one with the
// most values, or nil if it would not be much smaller than the cube.
func newBase(c *Cube) *cuboid {
	if len(c.Dims) < 3 {
		return nil
	}
	widest := 0
	for d := range c.Dims {
		if len(c.Labels[d]) > len(c.Labels[widest]) {
			widest = d
		}
	}
	size := 1.0
	var dims []int
	for d := range c.Dims {
		if d != widest {
			dims = append(dims, d)
			size *= float64(max(len(c.Labels[d]), 1))
		}
	}
	if size*baseShrink > float64(c.Len()) {
		return nil
	}
	return newCuboid(c, dims)
}

// buildLayer builds the layer's cuboids that are not built yet: those it
// can roll up one after the other, the others from the leaves, in
// parallel for large cubes. Each build writes only its own cuboid and
// reads leaves that do not change meanwhile, so the result does not
// depend on the schedule.
func (s *searcher) buildLayer(layer []*cuboid) {
	var fromLeaves []*cuboid
	for _, cb := range layer {
		if cb.ready {
			continue
		}
		if s.base != nil && !s.base.ready && s.rollupSource(cb) == nil && covers(s.base, cb) {
			s.base.build(s.c, s.lv, s.active)
		}
		if from := s.rollupSource(cb); from != nil {
			cb.rollup(s.c, from)
		} else {
			fromLeaves = append(fromLeaves, cb)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(fromLeaves))
	if s.c.Len() < parallelLeaves || workers < 2 {
		for _, cb := range fromLeaves {
			cb.build(s.c, s.lv, s.active)
		}
		return
	}
	next := make(chan *cuboid)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for cb := range next {
				cb.build(s.c, s.lv, s.active)
			}
		})
	}
	for _, cb := range fromLeaves {
		next <- cb
	}
	close(next)
	wg.Wait()
}

// rollupSource returns the built cuboid with the fewest elements, among
// the next layer's and the base, that holds cb's dimensions and has
// fewer elements than the cube has leaves; nil if there is none.
func (s *searcher) rollupSource(cb *cuboid) *cuboid {
	var from *cuboid
	consider := func(p *cuboid) {
		if p.ready && p.elements() < s.c.Len() && (from == nil || p.elements() < from.elements()) && covers(p, cb) {
			from = p
		}
	}
	if k := len(cb.dims); k < len(s.layers) {
		for _, p := range s.layers[k] {
			consider(p)
		}
	}
	if s.base != nil && len(s.base.dims) > len(cb.dims) {
		consider(s.base)
	}
	return from
}

// covers reports whether p's dimensions include all of cb's.
func covers(p, cb *cuboid) bool {
	for _, d := range cb.dims {
		if !slices.Contains(p.dims, d) {
			return false
		}
	}
	return true
}
