package verify

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// streamDesigns are the designs of the multi-stream checksum test, each
// with the streams its runs take (full groups of a vector's lanes and a
// partial one where it can):
// combinational logic, a counter with a memory, registers that read each
// other (registerOrder), and the fuzz's random designs (every operation
// at widths 1 to 130, memories with masks and synchronous reads,
// instances).
var streamDesigns = []struct {
	name    string
	m       func() *hdl.Module
	streams int
}{
	{"comb300", func() *hdl.Module { return designs.RandomComb("comb300", 300, 32, 1) }, 21},
	{"counter_ram", designs.CounterRAM, 16},
	{"regorder", registerOrder, 16},
	{"netlists", func() *hdl.Module {
		return PackNetlists("streams", []uint64{netlistSeed(3, 0), netlistSeed(3, 1), netlistSeed(3, 2), netlistSeed(3, 3)})
	}, 20},
}

// TestRandomNetlistsOnCompiledStreams is the Go side of the differential
// fuzz for the compiled multi-stream simulator: random designs (each pack
// of 100 is a Go build), checked against the Go simulator that
// TestRandomNetlists checks against Verilator and Icarus, in two full
// groups of eight streams and a partial one.
func TestRandomNetlistsOnCompiledStreams(t *testing.T) {
	randomNetlistsOn(t, PackNetlists, CheckCompiledStreams, compiledNetlists(), 20)
}

// compiledNetlists is how many random designs the compiled streams check.
func compiledNetlists() int {
	if *longFlag {
		return 300
	}
	return 100
}

// TestNarrowNetlistsOnCompiledStreams is the same for the compiled
// streams' sixteen 32-bit lanes: random designs whose every signal fits 32
// bits, each pack checked to run in them, in one full and one partial
// group of sixteen.
func TestNarrowNetlistsOnCompiledStreams(t *testing.T) {
	randomNetlistsOn(t, PackNarrowNetlists, func(d *hdl.Design, streams int, cycles, seed uint64) error {
		if bits := sim.New(d).StreamLaneBits(); bits != 32 {
			return fmt.Errorf("%s runs in %d-bit lanes, want 32", d.Top().Name(), bits)
		}
		return CheckCompiledStreams(d, streams, cycles, seed)
	}, compiledNetlists(), 20)
}

// randomNetlistsOn checks total random designs from pack, in packs of 100,
// on a multi-stream simulator's check.
func randomNetlistsOn(t *testing.T, pack func(string, []uint64) *hdl.Module, check func(*hdl.Design, int, uint64, uint64) error, total, streams int) {
	run := TestSeed(t, 1)
	const per = 100
	for first := 0; first < total; first += per {
		t.Run(fmt.Sprintf("designs%d-%d", first, first+per-1), func(t *testing.T) {
			seeds := make([]uint64, per)
			for i := range seeds {
				seeds[i] = netlistSeed(run+1, first+i)
			}
			d, err := hdl.Elaborate(pack(fmt.Sprintf("sfuzz%d", first), seeds))
			require.NoError(t, err)
			require.NoError(t, check(d, streams, 100, run))
		})
	}
}

// TestCompiledStreamsMatchSingleStream is the multi-stream checksum test
// for the compiled form, built for AVX-512 where the machine has it and
// with the portable vec8.
func TestCompiledStreamsMatchSingleStream(t *testing.T) {
	portable := func(d *hdl.Design, streams int, cycles, seed uint64) ([]uint64, uint64, error) {
		return compiledStreamsBench(d, streams, cycles, seed, false)
	}
	for _, tc := range streamDesigns {
		t.Run(tc.name, func(t *testing.T) {
			d, err := hdl.Elaborate(tc.m())
			require.NoError(t, err)
			require.NoError(t, CheckCompiledStreams(d, tc.streams, 300, 11))
			require.NoError(t, checkStreams(d, portable, tc.streams, 300, 11))
		})
	}
}

// TestCompiledStreamsStayInAVX512 disassembles the compiled streams of
// streamDesigns (the programs TestCompiledStreamsMatchSingleStream builds:
// every operation at widths 1 to 130 and memories in 64-bit lanes, logic,
// a memory and registers in 32-bit ones), built for AVX-512, and finds
// no legacy-SSE instruction that writes an XMM register in the design's
// code (its methods and memory helpers): with the upper halves of the
// vector registers in use, such an instruction waits on the whole
// register and merges into it. Go 1.26 wrote two: ShiftAllRight's count
// (a MOVQ, vec.ShrK) and a constant vec.Splat it spilled and reloaded with
// MOVUPS (sim's splat); either would show here. Stores of X15, Go's zero
// register, are how it clears memory; they write no register.
func TestCompiledStreamsStayInAVX512(t *testing.T) {
	objdump, err := exec.LookPath("objdump")
	require.NoError(t, err, "objdump (binutils, installed with gcc) disassembles the program")
	for _, tc := range streamDesigns {
		t.Run(tc.name, func(t *testing.T) {
			d, err := hdl.Elaborate(tc.m())
			require.NoError(t, err)
			dir, err := buildCompiledStreams(d, true)
			require.NoError(t, err)
			out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", filepath.Join(dir, "sim")).Output()
			require.NoError(t, err)
			vector, legacy := designInstructions(string(out))
			require.Positive(t, vector, "the design's code runs on ZMM registers")
			require.Empty(t, legacy, "legacy-SSE instructions in the design's code")
		})
	}
}

// designCode is the symbol of a function of the compiled design: a method
// of Design or a memory port's helper (sim.Sim.GoStreamsSource).
var designCode = regexp.MustCompile(`^main\.(\(\*Design\)\.|(read|readInto|gather|scatter)\[)`)

// designInstructions counts the AVX-512 instructions (on ZMM registers)
// of the design's functions in objdump's listing (AT&T syntax: the
// destination last), and lists each instruction there without a VEX or
// EVEX encoding (its mnemonic does not start with v) whose destination is
// an XMM register: legacy SSE writing one.
func designInstructions(listing string) (vector int, legacy []string) {
	fn := ""
	for _, line := range strings.Split(listing, "\n") {
		if m := regexp.MustCompile(`^[0-9a-f]+ <(.*)>:$`).FindStringSubmatch(line); m != nil {
			fn = m[1]
			continue
		}
		_, insn, ok := strings.Cut(line, ":\t")
		if !ok || !designCode.MatchString(fn) {
			continue
		}
		switch {
		case strings.Contains(insn, "%zmm"):
			vector++
		case !strings.HasPrefix(insn, "v") && strings.HasPrefix(insn[strings.LastIndexAny(insn, " ,")+1:], "%xmm"):
			legacy = append(legacy, fn+": "+insn)
		}
	}
	return vector, legacy
}

// TestCompiledStreamsSelectOfZeros: an indexed multiplexer whose choices
// are all the constant 0 (the random designs of seeds 101 and 202 of the
// long run made them) compiles: no level of its select tree picks, so
// none tests an index bit, and an index computed for it alone is unused.
func TestCompiledStreamsSelectOfZeros(t *testing.T) {
	m := hdl.NewModule("selzeros")
	idx, in := m.Input("idx", 2), m.Input("in", 8)
	zero := m.ConstU(8, 0)
	m.Output("zeros", 8).Drive(hdl.Select(idx, zero, zero, zero, zero))
	m.Output("some", 8).Drive(hdl.Select(idx, zero, in, zero))
	m.Output("computed", 8).Drive(hdl.Select(idx.Xor(in.Slice(1, 0)), zero, zero, zero)) // an index read by this select alone
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	require.NoError(t, CheckCompiledStreams(d, 16, 100, 3))
}
