package synth

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/internal/cache"
	"github.com/stretchr/testify/require"
)

func verilogOf(t *testing.T, m *hdl.Module) []byte {
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	return d.Verilog()
}

// adder is a plain w-bit adder, the unit of thesis Table 4.2.
func adder(w int) *hdl.Module {
	m := hdl.NewModule("adder")
	m.Output("y", w).Drive(m.Input("a", w).Add(m.Input("b", w)))
	return m
}

// chain is k 8-bit adders in series: depth grows with k, area too.
func chain(k int) *hdl.Module {
	m := hdl.NewModule("chain")
	x := m.Input("x", 8)
	for range k {
		x = x.Add(m.Input("y"+string(rune('a'+len(m.Inputs()))), 8))
	}
	m.Output("y", 8).Drive(x)
	return m
}

func TestFlowsMeasureWhatTheyShould(t *testing.T) {
	a, err := MapGates("adder", verilogOf(t, adder(32)))
	require.NoError(t, err)
	t.Logf("32-bit adder: %d gates, depth %d", a.Gates, a.Depth)
	require.Greater(t, a.Gates, 32*2)
	require.Greater(t, a.Depth, 5)

	one, err := MapGates("chain", verilogOf(t, chain(1)))
	require.NoError(t, err)
	four, err := MapGates("chain", verilogOf(t, chain(4)))
	require.NoError(t, err)
	require.Greater(t, four.Gates, 3*one.Gates, "four adders cost more than three")
	require.Greater(t, four.Depth, one.Depth, "chained adders are deeper")
	require.Zero(t, four.Flops, "a combinational design has no flip-flops")

	// A 5-bit register and a 4-word memory of 3 bits: 5 + 12 flip-flops.
	sm := hdl.NewModule("state")
	r := sm.Reg("r", 5)
	r.Drive(sm.Input("d", 5))
	words := sm.MemDepth("store", 4, 3)
	words.Write(sm.Input("a", 2), sm.Input("w", 3), sm.Input("we", 1))
	sm.Output("q", 8).Drive(hdl.Concat(r, words.Read(sm.Input("ra", 2))))
	st, err := MapGates("state", verilogOf(t, sm))
	require.NoError(t, err)
	require.Equal(t, 17, st.Flops)

	ice, err := MapICE40("adder", verilogOf(t, adder(32)))
	require.NoError(t, err)
	t.Logf("32-bit adder on iCE40: %+v", ice)
	require.Equal(t, 31, ice.Carry, "the carry chain")
	require.GreaterOrEqual(t, ice.LUT4, 32)
	require.Equal(t, 1, ice.LUTLevels, "a carry-chain adder is one LUT deep")

	// A registered design: flip-flops cut paths; RAM bits are counted.
	m := hdl.NewModule("ram")
	addr, data := m.Input("addr", 9), m.Input("data", 8)
	mem := m.Mem("store", 9, 8)
	mem.Write(addr, data, m.Input("we", 1))
	m.Output("q", 8).Drive(mem.ReadSync(addr, nil))
	ice, err = MapICE40("ram", verilogOf(t, m))
	require.NoError(t, err)
	require.Equal(t, 4096, ice.RAMBits, "one SB_RAM40_4K")
}

// TestOutputDepth: a module with a shallow and a deep output reports each
// port's own depth, and the deepest is the module's depth.
func TestOutputDepth(t *testing.T) {
	m := hdl.NewModule("two")
	a, b := m.Input("a", 8), m.Input("b", 8)
	m.Output("shallow", 1).Drive(a.Bit(0).And(b.Bit(0)))
	m.Output("deep", 8).Drive(a.Add(b).Add(m.Input("c", 8)))
	m.Output("same", 8).Drive(a)
	g, err := MapGates("two", verilogOf(t, m))
	require.NoError(t, err)
	t.Logf("output depths %v, module depth %d", g.OutputDepth, g.Depth)
	require.Equal(t, 1, g.OutputDepth["shallow"])
	require.Equal(t, 0, g.OutputDepth["same"])
	require.Greater(t, g.OutputDepth["deep"], 5)
	require.Equal(t, g.Depth, g.OutputDepth["deep"])
}

// TestFastFlow: the fast gate flow maps a 32-bit adder to more than two
// gates a bit and a path of several gates, and reports its one output's
// depth as the module's.
func TestFastFlow(t *testing.T) {
	f, err := MapGatesFast("adder", verilogOf(t, adder(32)))
	require.NoError(t, err)
	t.Logf("32-bit adder, abc -fast: %d gates, depth %d", f.Gates, f.Depth)
	require.Greater(t, f.Gates, 32*2)
	require.Greater(t, f.Depth, 5)
	require.Equal(t, f.Depth, f.OutputDepth["y"])
}

// TestNoABCFlow: without ABC a 32-bit adder still maps to gates (Yosys's
// own full adders: at least an XOR, AND and OR per bit) with a ripple
// path through every bit.
func TestNoABCFlow(t *testing.T) {
	g, err := MapGatesNoABC("adder", verilogOf(t, adder(32)))
	require.NoError(t, err)
	t.Logf("32-bit adder, no ABC: %d gates, depth %d", g.Gates, g.Depth)
	require.Greater(t, g.Gates, 32*3)
	require.Greater(t, g.Depth, 5)
	require.Equal(t, g.Depth, g.OutputDepth["y"])
}

// TestGEFlow: areas in NAND2 equivalents. A NAND of two bits is one gate
// equivalent; an 8-bit register with its enable is 8 DFFs of 4.67 plus
// logic; a Kogge-Stone 32-bit adder is larger and shallower than a plain
// (ripple) one.
func TestGEFlow(t *testing.T) {
	nand := hdl.NewModule("one_nand")
	nand.Output("y", 1).Drive(nand.Input("a", 1).And(nand.Input("b", 1)).Not())
	g, err := MapGE("one_nand", verilogOf(t, nand))
	require.NoError(t, err)
	require.Equal(t, GE{Area: 1, Cells: 1, Depth: 1}, g)

	reg := hdl.NewModule("enreg")
	r := reg.Reg("r", 8)
	r.Drive(reg.Input("d", 8))
	r.Enable(reg.Input("en", 1))
	reg.Output("q", 8).Drive(r)
	g, err = MapGE("enreg", verilogOf(t, reg))
	require.NoError(t, err)
	require.Equal(t, 8, g.Flops)
	require.Greater(t, g.Area, 8*4.67, "flip-flops and their enable and reset logic")

	ripple, err := MapGE("adder", verilogOf(t, adder(32)))
	require.NoError(t, err)
	ks := hdl.NewModule("ks")
	ks.Output("y", 32).Drive(lib.KoggeStoneAdd(ks.Input("a", 32), ks.Input("b", 32)))
	fast, err := MapGE("ks", verilogOf(t, ks))
	require.NoError(t, err)
	t.Logf("32-bit adders in gate equivalents: plain %+v, Kogge-Stone %+v", ripple, fast)
	require.Greater(t, fast.Area, ripple.Area)
	require.Less(t, fast.Depth, ripple.Depth)
}

// TestSlotsGoToTheLargestDesign: with every slot taken, a freed slot goes
// to the largest waiting design.
func TestSlotsGoToTheLargestDesign(t *testing.T) {
	q := &slotQueue{free: 1}
	q.acquire(1)
	order := make(chan int, 3)
	for _, size := range []int{10, 30, 20} {
		go func() { q.acquire(size); order <- size }()
		for {
			q.mu.Lock()
			n := len(q.waiting)
			queued := n > 0 && q.waiting[n-1].size == size
			q.mu.Unlock()
			if queued {
				break
			}
			runtime.Gosched()
		}
	}
	var got []int
	for range 3 {
		q.release()
		got = append(got, <-order)
	}
	require.Equal(t, []int{30, 20, 10}, got)
}

// TestAFlowRunsOncePerDesign: the same flow on the same design gives the
// same result, each caller its own copy of the output depths.
func TestAFlowRunsOncePerDesign(t *testing.T) {
	v := verilogOf(t, adder(8))
	a, err := MapGates("adder", v)
	require.NoError(t, err)
	b, err := MapGates("adder", v)
	require.NoError(t, err)
	require.Equal(t, a, b)
	b.OutputDepth["y"] = -1
	require.NotEqual(t, a.OutputDepth["y"], b.OutputDepth["y"])
}

// TestMain keeps this package's tests out of the developer's tool cache
// and, but for TestResultsAreKeptInTheToolCache, runs Yosys every time.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "synth-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(cache.Env, dir)
	diskCache = false
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// forget clears the in-process results, so that the next Map goes to the
// tool cache.
func forget() {
	onceMu.Lock()
	clear(once)
	onceMu.Unlock()
}

// TestResultsAreKeptInTheToolCache: a result comes back from the cache
// entry (a planted value shows it is read, not measured again); a damaged
// entry is measured again; a changed design is a new entry.
func TestResultsAreKeptInTheToolCache(t *testing.T) {
	diskCache = true
	defer func() { diskCache = false }()
	forget() // another test may have measured the adder
	v := verilogOf(t, adder(8))
	measured, err := MapGates("adder", v)
	require.NoError(t, err)
	root, err := cache.Root()
	require.NoError(t, err)
	entries, err := filepath.Glob(filepath.Join(root, "synth-*", "result.json"))
	require.NoError(t, err)
	require.Len(t, entries, 1)

	planted := measured
	planted.Gates = 123456
	data, err := json.Marshal(planted)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(entries[0], data, 0o644))
	forget()
	got, err := MapGates("adder", v)
	require.NoError(t, err)
	require.Equal(t, 123456, got.Gates, "read from the cache entry")

	require.NoError(t, os.WriteFile(entries[0], []byte("{damaged"), 0o644))
	forget()
	got, err = MapGates("adder", v)
	require.NoError(t, err)
	require.Equal(t, measured, got, "a damaged entry is measured again")

	wider, err := MapGates("adder", verilogOf(t, adder(9)))
	require.NoError(t, err)
	require.Greater(t, wider.Gates, measured.Gates)
	entries, err = filepath.Glob(filepath.Join(root, "synth-*", "result.json"))
	require.NoError(t, err)
	require.Len(t, entries, 2)
}
