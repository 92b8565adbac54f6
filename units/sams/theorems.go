package sams

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/verdict"
)

// Appendix A's results (and section 3.2.4's worked example), checked
// exhaustively on the Go model of Eq. 3.1-3.3 (spec.go) for every q in
// 1..maxCheckQ, every n from q+2 to maxCheckN and every family s in
// 0..n-q: every address or base address, and every stride of a family
// for n <= 8 (a sample of odd multipliers above). gen -report fidelity's
// claims and spec_test.go run the same checks.

const maxCheckQ, maxCheckN = 4, 12

// layoutSize is a memory the checks cover: 2^Q modules, 2^N elements.
type layoutSize struct{ Q, N int }

// checkedSizes are every (q, n) the checks cover.
func checkedSizes() []layoutSize {
	var ls []layoutSize
	for q := 1; q <= maxCheckQ; q++ {
		for n := q + 2; n <= maxCheckN; n++ {
			ls = append(ls, layoutSize{q, n})
		}
	}
	return ls
}

// proof is a check's outcome: the cases it tried (addresses or accesses)
// and the first counterexample, "" when there is none.
type proof struct {
	Cases int
	Fail  string
}

// holds reports whether the check tried something and found no
// counterexample.
func (p proof) holds() bool { return p.Cases > 0 && p.Fail == "" }

// access counts one access from base with stride in l, and notes the first
// that conflicts.
func (p *proof) access(l Layout, base, stride uint64) {
	p.Cases++
	if p.Fail == "" && !l.ConflictFree(Addresses(base, stride, l.Q, l.N)) {
		p.Fail = fmt.Sprintf("q=%d n=%d s=%d: stride %d from base %d conflicts", l.Q, l.N, l.Family, stride, base)
	}
}

// everyBase checks the accesses in l from every base with each stride.
func everyBase(l Layout, strides ...uint64) proof {
	var p proof
	for _, stride := range strides {
		for base := range uint64(1) << uint(l.N) {
			p.access(l, base, stride)
		}
	}
	return p
}

// families calls f with the layout of every family s of (q, n).
func families(q, n int, f func(l Layout)) {
	for s := 0; s <= n-q; s++ {
		f(Layout{Q: q, N: n, Family: s})
	}
}

// overFamilies is a check of (q, n) that checks the layout of every family.
func overFamilies(check func(l Layout) proof) func(q, n int) proof {
	return func(q, n int) proof {
		var p proof
		families(q, n, func(l Layout) { p.add(check(l)) })
		return p
	}
}

// multipliers are the odd sigma of a family's strides sigma*2^s (mod 2^n):
// every one for n <= 8, else 1, 3, 5, 7, the two largest and eight drawn
// at random (seeded by q, n and s, so every run checks the same).
func multipliers(l Layout) []uint64 {
	limit := uint64(1) << uint(l.N-l.Family) // sigma*2^s mod 2^n repeats after this
	if l.N <= 8 {
		var all []uint64
		for sigma := uint64(1); sigma < limit; sigma += 2 {
			all = append(all, sigma)
		}
		return all
	}
	r := rand.New(rand.NewPCG(uint64(l.Q), uint64(l.N<<8|l.Family)))
	sample := []uint64{1, 3, 5, 7, limit - 1, limit - 3}
	for range 8 {
		sample = append(sample, r.Uint64()%limit|1)
	}
	return sample
}

// familyStrides are the strides sigma*2^s of l's family.
func familyStrides(l Layout) []uint64 {
	var ss []uint64
	for _, sigma := range multipliers(l) {
		ss = append(ss, sigma<<uint(l.Family))
	}
	return ss
}

// powersBelow are the strides 2^s' for s' < s.
func powersBelow(s int) []uint64 {
	var ss []uint64
	for sp := range s {
		ss = append(ss, 1<<uint(sp))
	}
	return ss
}

// bijective is Theorem 1 on one layout: Place maps E^n one to one onto
// the slots (2^q modules, 2^(n-q-1) rows, 2 offsets).
func bijective(l Layout) proof {
	var p proof
	seen := make([]bool, 1<<uint(l.N))
	for a := range uint64(1) << uint(l.N) {
		p.Cases++
		s := l.Place(a)
		key := s.Module<<uint(l.N-l.Q) | s.Row<<1 | s.Offset
		switch {
		case s.Module >= 1<<uint(l.Q) || s.Row >= 1<<uint(l.N-l.Q-1) || s.Offset > 1:
			p.Fail = fmt.Sprintf("q=%d n=%d s=%d nas=%v: address %d maps outside the slots, %+v", l.Q, l.N, l.Family, l.NaS, a, s)
		case seen[key]:
			p.Fail = fmt.Sprintf("q=%d n=%d s=%d nas=%v: address %d shares slot %+v with another", l.Q, l.N, l.Family, l.NaS, a, s)
		}
		if p.Fail != "" {
			return p
		}
		seen[key] = true
	}
	return p
}

// period is Property 1 on one layout: 2^(q+s) is the period of m(a), the
// smallest (2^(q+s-1) is not one).
func period(l Layout) proof {
	var p proof
	full := uint64(1) << uint(l.Q+l.Family)
	half := true
	for a := range uint64(1) << uint(l.N) {
		p.Cases++
		if l.Module(a) != l.Module(a+full) {
			p.Fail = fmt.Sprintf("q=%d n=%d s=%d: m(%d) != m(%d + 2^(q+s))", l.Q, l.N, l.Family, a, a)
			return p
		}
		half = half && l.Module(a) == l.Module(a+full/2)
	}
	if half {
		p.Fail = fmt.Sprintf("q=%d n=%d s=%d: 2^(q+s-1) is a period too", l.Q, l.N, l.Family)
	}
	return p
}

// matchedExample is section 3.2.4's worked example: Matched SAMS with
// q = 2 (n = 8) is m(a) = <a_2, a_3 XOR a_0>, r(a) = a[n-1:3],
// o(a) = a_1, and from base 1 the strides 1, 2 and 4 reach {1,2,3,4},
// {1,3,5,7} and {1,5,9,13}, each without conflict.
func matchedExample() proof {
	var p proof
	l := Layout{Q: 2, N: 8, Family: 2}
	for a := range uint64(1) << uint(l.N) {
		p.Cases++
		b := func(j int) uint64 { return a >> uint(j) & 1 }
		if got, want := l.Place(a), (Slot{b(2)<<1 | (b(3) ^ b(0)), a >> 3, b(1)}); got != want && p.Fail == "" {
			p.Fail = fmt.Sprintf("address %d: %+v, section 3.2.4 gives %+v", a, got, want)
		}
	}
	for _, g := range matchedGroups {
		p.access(l, 1, g.stride)
		if got := Addresses(1, g.stride, l.Q, l.N); !slices.Equal(got, g.addrs) && p.Fail == "" {
			p.Fail = fmt.Sprintf("stride %d from base 1 reaches %v, section 3.2.4 gives %v", g.stride, got, g.addrs)
		}
	}
	return p
}

// matchedGroups are section 3.2.4's groups from base 1.
var matchedGroups = []struct {
	stride uint64
	addrs  []uint64
}{{1, []uint64{1, 2, 3, 4}}, {2, []uint64{1, 3, 5, 7}}, {4, []uint64{1, 5, 9, 13}}}

// everySample says which strides a family check tries.
const everySample = "every odd multiplier sigma for n <= 8, fourteen above (1, 3, 5, 7, the two largest, eight drawn at random)"

// proven says what check/sams's SAT proofs add to a check: they run on
// the emitted netlist, but in make prove, not here.
const proven = "; the netlist's AGU and ATU are proven to it by Yosys's SAT solver in check/sams (make prove: q = 2, 3 and n = 12, 16), which the claims do not run"

// appendixA are the results of thesis appendix A, after section 3.2.4's
// example, in the thesis's order: each checks one (q, n) (the example
// only its own), and says what it checked.
var appendixA = []struct {
	where, what, printed, checked string
	check                         func(q, n int) proof
	sizes                         []layoutSize
}{
	{
		where: "3.2.4", what: "Matched SAMS q = 2: m(a) = <a_2, a_3 XOR a_0>, r(a) = a[n-1:3], o(a) = a_1; from base 1, strides 1, 2, 4 conflict-free",
		printed: "{1, 2, 3, 4}, {1, 3, 5, 7} and {1, 5, 9, 13} accessed in parallel",
		checked: "the mapping of every address and the three accesses",
		check:   func(int, int) proof { return matchedExample() }, sizes: []layoutSize{{2, 8}},
	},
	{
		where: "Property 1", what: "the period of the module assignment m(a) is 2^(q+s)",
		printed: "2^{q+s}",
		checked: "every address, every family s, and that 2^(q+s-1) is no period",
		check:   overFamilies(period), sizes: checkedSizes(),
	},
	{
		where: "Property 2", what: "for 1 <= s <= q, conflict-free for the strides 2^s', s' < s",
		printed: "conflict-free",
		checked: "every base, every s' < s",
		check: overFamilies(func(l Layout) proof {
			if l.Family < 1 || l.Family > l.Q {
				return proof{}
			}
			return everyBase(l, powersBelow(l.Family)...)
		}),
		sizes: checkedSizes(),
	},
	{
		where: "Theorem 1", what: "the mapping a -> (module, row, offset) is a bijection on E^n",
		printed: "bijection",
		checked: "every address, every family s" + proven,
		check:   overFamilies(bijective), sizes: checkedSizes(),
	},
	{
		where: "Theorem 2", what: "conflict-free for the stride family sigma*2^s, sigma odd, in the layout of family s",
		printed: "conflict-free",
		checked: "every base, " + everySample + proven,
		check:   overFamilies(func(l Layout) proof { return everyBase(l, familyStrides(l)...) }), sizes: checkedSizes(),
	},
	{
		where: "Theorem 2", what: "conflict-free for unit stride, in the layout of every family s",
		printed: "conflict-free",
		checked: "every base" + proven,
		check:   overFamilies(func(l Layout) proof { return everyBase(l, 1) }), sizes: checkedSizes(),
	},
	{
		where: "Corollary 1", what: "Matched SAMS (s = q): conflict-free for strides 1, 2, ..., 2^(q-1) and the family sigma*2^q",
		printed: "conflict-free",
		checked: "every base, the powers and " + everySample + proven,
		check: func(q, n int) proof {
			l := Layout{Q: q, N: n, Family: q}
			return everyBase(l, slices.Concat(powersBelow(q), familyStrides(l))...)
		},
		sizes: checkedSizes(),
	},
}

// add counts another check's cases and keeps the first counterexample.
func (p *proof) add(o proof) {
	p.Cases += o.Cases
	if p.Fail == "" {
		p.Fail = o.Fail
	}
}

// appendixJob is one result of appendixA checked at one size.
type appendixJob struct {
	Result int
	Size   layoutSize
}

func (j appendixJob) String() string {
	return fmt.Sprintf("%s q=%d n=%d", appendixA[j.Result].where, j.Size.Q, j.Size.N)
}

// appendixProofs checks appendixA, a job per result and size (progress is
// the run's writer), and returns each result's proof over its sizes.
func appendixProofs(progress io.Writer) ([]proof, error) {
	var jobs []appendixJob
	for i, r := range appendixA {
		for _, s := range r.sizes {
			jobs = append(jobs, appendixJob{i, s})
		}
	}
	got, err := sweep.Map(progress, "sams appendix A", jobs, func(j appendixJob) (proof, error) {
		return appendixA[j.Result].check(j.Size.Q, j.Size.N), nil
	})
	if err != nil {
		return nil, err
	}
	proofs := make([]proof, len(appendixA))
	for k, j := range jobs {
		proofs[j.Result].add(got[k])
	}
	return proofs, nil
}

// appendixClaims are appendixA's results beside the proofs: exact when a
// check holds (the thesis proves them), differs with the counterexample
// when not.
func appendixClaims(proofs []proof) []verdict.Claim {
	var cs []verdict.Claim
	for i, r := range appendixA {
		p := proofs[i]
		ours := fmt.Sprintf("holds in %d cases", p.Cases)
		if !p.holds() {
			ours = "fails: " + cmp.Or(p.Fail, "nothing checked")
		}
		sizes := fmt.Sprintf("q = 1..%d, n = q+2..%d", maxCheckQ, maxCheckN)
		if len(r.sizes) == 1 {
			sizes = fmt.Sprintf("q = %d, n = %d", r.sizes[0].Q, r.sizes[0].N)
		}
		cs = append(cs, verdict.Stated(verdict.Thesis, r.where, r.what, r.printed, p.holds(), true, ours).
			Because(fmt.Sprintf("Checked on the Go model of Eq. 3.1-3.3 (spec.go), %s: %s.", sizes, r.checked)))
	}
	return cs
}
