package vmshr

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allTerminals is every terminal of a side, in order.
func allTerminals() []int {
	ts := make([]int, flyTerms)
	for t := range ts {
		ts[t] = t
	}
	return ts
}

// Destination-tag routing reaches the right terminal for all 32x32 pairs
// by the one path through 5 stages, and the wiring between stages is the
// k-ary n-fly's: each router input is fed by exactly one router output
// (upstream is next's inverse).
func TestButterflyRoutes(t *testing.T) {
	for src := range flyTerms {
		for dst := range flyTerms {
			r := src / flyK
			for s := range flyN - 1 {
				r, _ = next(s, r, route(s, dst))
			}
			assert.Equal(t, dst, r*flyK+route(flyN-1, dst), "%d -> %d", src, dst)
		}
	}
	b := newButterfly(allTerminals(), allTerminals(), 2, 0, VCBuffers)
	for s := range flyN - 1 {
		fed := map[[2]int]bool{}
		for r := range flyPerStg {
			for o := range flyK {
				nr, np := next(s, r, o)
				assert.False(t, fed[[2]int{nr, np}], "stage %d: input %d.%d fed twice", s+1, nr, np)
				fed[[2]int{nr, np}] = true
				assert.Equal(t, ((s*flyPerStg+r)*flyK+o)*2+1, b.upstream(s+1, nr, np, 1))
			}
		}
		assert.Len(t, fed, flyPerStg*flyK)
	}
}

// checkCredits holds the butterfly to its buffers: no router buffer holds
// more than its depth, and every credit counter is the free buffers
// downstream.
func checkCredits(t *testing.T, b *butterfly) {
	t.Helper()
	for i, n := range b.cnt {
		require.LessOrEqual(t, n, b.depth, "input VC %d", i)
	}
	for s := range flyN - 1 {
		for r := range flyPerStg {
			for o := range flyK {
				nr, np := next(s, r, o)
				for v := range b.vcs {
					down := (((s+1)*flyPerStg+nr)*flyK+np)*b.vcs + v
					require.Equal(t, b.depth-b.cnt[down], b.credit[((s*flyPerStg+r)*flyK+o)*b.vcs+v])
				}
			}
		}
	}
	for term := range flyTerms {
		for v := range b.vcs {
			require.Equal(t, b.depth-b.cnt[term*b.vcs+v], b.srcCr[term][v])
		}
	}
}

// Random traffic between all 32 terminals, packets of 1 to 17 flits,
// destinations that refuse at random: every packet arrives exactly once,
// in order per (source, destination, virtual channel), the buffers never
// overflow, and every flit is counted once.
func TestButterflyDeliversInOrder(t *testing.T) {
	for _, vcs := range []int{1, 2} {
		rng := rand.New(rand.NewSource(int64(vcs)))
		b := newButterfly(allTerminals(), allTerminals(), vcs, 0, VCBuffers)
		const packets = 3000
		var ps []packet
		var flits int64
		for id := range packets {
			p := packet{src: rng.Intn(flyTerms), dst: rng.Intn(flyTerms), flits: 1 + rng.Intn(17), id: id}
			ps = append(ps, p)
			flits += int64(p.flits)
		}
		seen := make([]int, packets)
		last := map[[3]int]int{}
		pushed := 0
		for cycle := 0; ; cycle++ {
			require.Less(t, cycle, 100000, "%d VCs: the butterfly did not drain", vcs)
			for range 4 {
				if pushed < packets && rng.Intn(2) == 0 {
					b.push(ps[pushed])
					pushed++
				}
			}
			b.tick(func(int) bool { return rng.Intn(4) > 0 }, func(p packet) {
				seen[p.id]++
				key := [3]int{p.src, p.dst, p.dst % vcs}
				if prev, ok := last[key]; ok {
					assert.Greater(t, p.id, prev, "%d VCs: %v out of order", vcs, key)
				}
				last[key] = p.id
				assert.Equal(t, ps[p.id], p)
			})
			checkCredits(t, b)
			if pushed == packets && b.idle() {
				break
			}
		}
		for id, n := range seen {
			require.Equal(t, 1, n, "%d VCs: packet %d delivered %d times", vcs, id, n)
		}
		assert.Equal(t, flits, b.moved())
	}
}

// A source's queue holds buffers flits per virtual channel, as the
// crossbar's.
func TestButterflyRoom(t *testing.T) {
	b := newButterfly([]int{0}, []int{5}, 1, 8, VCBuffers)
	b.push(packet{src: 0, dst: 0, flits: 3})
	assert.True(t, b.room(0, 0, 5))
	assert.False(t, b.room(0, 0, 6))
	assert.False(t, b.idle())
}

// Head-of-line blocking inside the network: terminal 0 sends a 20-flit
// packet to terminal 0, which refuses for 30 cycles, so its flits fill the
// buffers along its path and its packet holds every output virtual
// channel on it; terminal 1's one-flit packet for terminal 1 shares that
// path up to the last router. With one virtual channel it waits for the
// long packet's tail; with two (destination 1 takes virtual channel 1) it
// passes in 5 hops plus injection, losing at most one round-robin turn per
// shared output to the long packet: 6 to 11 cycles.
func TestButterflyHeadOfLineBlocking(t *testing.T) {
	run := func(vcs int) (long, short int) {
		b := newButterfly([]int{0, 1}, []int{0, 1}, vcs, 0, VCBuffers)
		b.push(packet{src: 0, dst: 0, flits: 20, id: 0})
		b.push(packet{src: 1, dst: 1, flits: 1, id: 1})
		done := make([]int, 2)
		for cycle := 1; cycle <= 100; cycle++ {
			b.tick(func(d int) bool { return d == 1 || cycle > 30 }, func(p packet) { done[p.id] = cycle })
			checkCredits(t, b)
		}
		require.True(t, b.idle())
		return done[0], done[1]
	}
	long1, short1 := run(1)
	assert.Greater(t, long1, 30)
	assert.Greater(t, short1, long1, "1 VC: the short packet waits for the long one's tail")
	_, short2 := run(2)
	assert.GreaterOrEqual(t, short2, 6)
	assert.LessOrEqual(t, short2, 11, "2 VCs: the short packet passes")
}
