package lib

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/internal/vcd"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// A planted bug changes one signal of a component through plant; the
// proof of the component's properties must fail the assertion that
// catches it, with a counterexample the Go simulator replays to the same
// assertion in the trace's last cycle, and a waveform that shows the bug.
type plantedBug struct {
	name, site string
	build      func() *hdl.Module
	bug        func(s *hdl.Signal) *hdl.Signal
	assertion  string
	cycles     int // the counterexample's length, reset included
	// alsoFail are assertions the bug breaks on longer traces: the one
	// assertion catches first is a lemma of theirs.
	alsoFail []string
	// shows checks the waveform w at cycle c, the failing one, and says
	// what it shows.
	shows func(t *testing.T, w waveform, c uint64) string
}

// waveform reads a replayed counterexample's VCD: value(name, cycle) is
// the top's signal name in that cycle.
type waveform func(name string, cycle uint64) uint64

func plantedBugs() []plantedBug {
	return []plantedBug{{
		name: "fifo_ready_when_full", site: "fifo.not_full",
		build: func() *hdl.Module { return FIFO{Depth: 3, Width: 2}.Build("lib_fifo") },
		// The queue takes a push while full if the head leaves in the same
		// cycle: a pipe queue's ready in a queue that is not one (a block
		// RAM read and written at one slot in one edge).
		bug: func(notFull *hdl.Signal) *hdl.Signal {
			return notFull.Or(input(notFull.Module(), "out_ready"))
		},
		assertion: "push_into_free_slot", cycles: 5, // reset, three pushes, the push into the full queue
		shows: func(t *testing.T, w waveform, c uint64) string {
			require.Equal(t, uint64(3), w("count", c), "full")
			require.Equal(t, uint64(1), w("in_valid", c)&w("in_ready", c)&w("out_ready", c), "a push taken while full, popping")
			return "count = 3 (full) with in_valid = in_ready = out_ready = 1"
		},
	}, {
		name: "rrarb_pointer_stays", site: "rrarb.next_ptr",
		build: func() *hdl.Module { return RRArb{N: 4}.Build("lib_rrarb") },
		// The pointer moves to the requester granted instead of past it
		// (the value planted is one less, modulo n), so it keeps winning.
		bug: func(next *hdl.Signal) *hdl.Signal {
			m := next.Module()
			return hdl.Mux(next.EqConst(0), m.ConstU(next.Width(), 3), next.Sub(m.ConstU(next.Width(), 1)))
		},
		assertion: "waits_within_distance", cycles: 3, // reset, a grant passing over a requester, the check
		// The requester the pointer stays on keeps winning: any other one
		// that requests too waits for more than n-1 grants.
		alsoFail: []string{"served_within_n_grants_0", "served_within_n_grants_1", "served_within_n_grants_2", "served_within_n_grants_3"},
		shows: func(t *testing.T, w waveform, c uint64) string {
			require.Equal(t, uint64(1), w("valid", c-1)&w("ack", c-1), "a grant taken in the cycle before")
			g := w("idx", c-1)
			require.Equal(t, g, w("ptr", c), "the pointer stays on the requester granted")
			require.NotZero(t, w("req", c-1)&^(1<<g), "while another requests")
			return "after the grant to requester " + strconv.FormatUint(g, 10) + " with another requesting, ptr stays " + strconv.FormatUint(g, 10) + " instead of moving past it"
		},
	}, {
		name: "lru_touches_neighbour", site: "lru.touch_way",
		build: func() *hdl.Module { return LRU{Ways: 4}.Build("lib_lru") },
		// A touch updates the way next to the one used (bit 0 flipped).
		bug: func(way *hdl.Signal) *hdl.Signal {
			return way.Xor(way.Module().ConstU(way.Width(), 1))
		},
		assertion: "touched_is_youngest", cycles: 3, // reset, a touch, the check
		shows: func(t *testing.T, w waveform, c uint64) string {
			require.Equal(t, uint64(1), w("touch", c-1), "a touch in the cycle before")
			way := w("touch_way", c-1)
			lo := way &^ 1
			older := w("older_"+strconv.FormatUint(lo, 10)+"_"+strconv.FormatUint(lo+1, 10), c)
			require.Equal(t, b2u(way == lo), older, "the way beside the one touched became the younger of the two")
			return "after a touch of way " + strconv.FormatUint(way, 10) + ", older_" + strconv.FormatUint(lo, 10) + "_" + strconv.FormatUint(lo+1, 10) + " = " + strconv.FormatUint(older, 10) + ": way " + strconv.FormatUint(way^1, 10) + " was made the most recent"
		},
	}}
}

// input is m's input port called name.
func input(m *hdl.Module, name string) *hdl.Signal {
	for _, in := range m.Inputs() {
		if in.Name() == name {
			return in
		}
	}
	panic("no input " + name)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// TestPlantedBugsFailTheirAssertions proves the properties of the FIFO,
// the round-robin arbiter and the LRU each with one planted bug: the
// assertion that catches it fails (every other assertion is still
// proven, but those it breaks on longer traces), the Go simulator replays the counterexample to that assertion
// in its last cycle, and the waveform shows the bug.
func TestPlantedBugsFailTheirAssertions(t *testing.T) {
	tools.Need(t, "yosys")
	for _, b := range plantedBugs() {
		t.Run(b.name, func(t *testing.T) {
			planted := 0
			plant = func(site string, s *hdl.Signal) *hdl.Signal {
				if site != b.site {
					return s
				}
				planted++
				return b.bug(s)
			}
			m := b.build()
			plant = func(_ string, s *hdl.Signal) *hdl.Signal { return s }
			require.Equal(t, 1, planted, "the component calls plant at %s once", b.site)
			d, err := hdl.Elaborate(m)
			require.NoError(t, err)
			results, err := verify.ProveProperties(d, verify.ProveOptions{Depth: 10})
			require.NoError(t, err)
			var fail *verify.PropertyResult
			for i, r := range results {
				switch {
				case r.Name == b.assertion:
					fail = &results[i]
				case slices.Contains(b.alsoFail, r.Name):
					require.Equal(t, verify.Failed, r.Verdict, "%s holds despite the bug", r.Name)
				case r.Kind == hdl.Assertion:
					require.Equal(t, verify.Proven, r.Verdict, "%s holds despite the bug", r.Name)
				}
			}
			require.NotNil(t, fail)
			require.Equal(t, verify.Failed, fail.Verdict)
			require.Len(t, fail.Trace, b.cycles)

			path := filepath.Join(t.TempDir(), b.name+".vcd")
			s, err := verify.Replay(d, fail.Trace, path)
			require.NoError(t, err)
			v := s.Violation()
			require.NotNil(t, v, "the Go simulator fails an assertion on the counterexample")
			require.Equal(t, b.assertion, v.Name)
			require.Equal(t, uint64(len(fail.Trace)-1), v.Cycle)

			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			wave, err := vcd.Parse(f)
			require.NoError(t, err)
			w := func(name string, cycle uint64) uint64 {
				x := wave.Vars[m.Name()+"."+name]
				require.NotNil(t, x, "the waveform has %s: %v", name, wave.Paths())
				u, err := strconv.ParseUint(x.At(10*cycle), 2, 64)
				require.NoError(t, err, "%s in cycle %d", name, cycle)
				return u
			}
			t.Logf("%s: %s fails (%s), %d cycles; the waveform shows %s", b.name, v.Name, v.Message, len(fail.Trace), b.shows(t, w, v.Cycle))
		})
	}
}
