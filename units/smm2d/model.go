package smm2d

import (
	"math"
	"math/rand/v2"
)

// The cycle-level model of the memory: how many stage-1 cycles an access
// takes. The memory serves, each cycle, every waiting lane that no lower
// waiting lane meets in the router (memory.go, serve); Meet is that rule
// and SubAccesses plays it out.

// Meet says whether lanes k and l collide in the two-stage router (Route):
// on the column path (crow false) two lanes of one access row with equal
// m_h meet in the first stage, and any two with equal banks in the
// second; on the row path two lanes of one access column with equal m_v,
// or equal banks.
func (g Geometry) Meet(k, l int, mv, mh []uint64, crow bool) bool {
	ak, ck := g.LaneAt(k)
	al, cl := g.LaneAt(l)
	sameBank := mv[k] == mv[l] && mh[k] == mh[l]
	switch {
	case !crow && ak == al:
		return mh[k] == mh[l]
	case crow && ck == cl:
		return mv[k] == mv[l]
	}
	return sameBank
}

// SubAccesses is the sub-access (1, 2, ...) that serves each enabled lane
// of an access (0 for masked lanes) and how many cycles stage 1 holds the
// access: the number of sub-accesses, at least 1.
func (s Scheme) SubAccesses(a Access, enabled []bool) (round []int, cycles int) {
	is, js := s.Addresses(a)
	mv, mh, _ := s.Place(is, js)
	crow := a.Pattern.Crow()
	round = make([]int, len(is))
	waiting := 0
	for k := range is {
		if enabled == nil || enabled[k] {
			waiting++
		}
	}
	for cycles = 1; ; cycles++ {
		var served []int
		for k := range is {
			if round[k] != 0 || (enabled != nil && !enabled[k]) {
				continue
			}
			blocked := false
			for l := range k {
				pendingL := round[l] == 0 && (enabled == nil || enabled[l])
				if pendingL && s.Meet(k, l, mv, mh, crow) {
					blocked = true
					break
				}
			}
			if !blocked {
				served = append(served, k)
			}
		}
		for _, k := range served {
			round[k] = cycles
		}
		waiting -= len(served)
		if waiting == 0 {
			return round, cycles
		}
	}
}

// CyclesPerAccess is the model's measurement for one pattern: the mean
// stage-1 cycles of random accesses whose strides and bases the scheme
// supports, and of ones it does not (strides of another family,
// misaligned continuous bases), every lane enabled. Unsupported is NaN
// when the scheme supports every access of the pattern.
type CyclesPerAccess struct {
	Supported, Unsupported float64
	Worst                  int // the most cycles any unsupported access took
}

// MeasureCycles runs the model on n random accesses of each kind.
func (s Scheme) MeasureCycles(p Pattern, n int, r *rand.Rand) CyclesPerAccess {
	var c CyclesPerAccess
	mean := func(supported bool) float64 {
		total, count := 0, 0
		for range n {
			a, ok := s.randomAccess(p, supported, r)
			if !ok {
				return math.NaN()
			}
			_, cycles := s.SubAccesses(a, nil)
			total, count = total+cycles, count+1
			if !supported {
				c.Worst = max(c.Worst, cycles)
			}
		}
		return float64(total) / float64(count)
	}
	c.Supported, c.Unsupported = mean(true), mean(false)
	return c
}

// randomAccess draws an access of pattern p that the scheme supports or
// not, as asked; false when a thousand draws found none.
func (s Scheme) randomAccess(p Pattern, supported bool, r *rand.Rand) (Access, bool) {
	for range 1000 {
		a := Access{Pattern: p, BI: r.Uint64() & mask(s.MB), BJ: r.Uint64() & mask(s.NB)}
		if supported {
			a.VStride = (r.Uint64() | 1) << uint(s.VS) & mask(s.MB)
			a.HStride = (r.Uint64() | 1) << uint(s.HS) & mask(s.NB)
			a.BI &^= mask(min(s.P, s.VS))
			switch p {
			case ContinuousRow:
				a.BJ &^= mask(s.Q + min(s.P, s.HS))
			case ContinuousBlock:
				a.BJ &^= mask(min(s.Q, s.HS))
			}
		} else {
			a.VStride = (r.Uint64() | 1) << uint(r.IntN(s.MB)) & mask(s.MB)
			a.HStride = (r.Uint64() | 1) << uint(r.IntN(s.NB)) & mask(s.NB)
		}
		if ok, _ := s.Supported(a); ok == supported {
			return a, true
		}
	}
	return Access{}, false
}
