package verify

import (
	"os"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/parmem/parmem/internal/vcd"
	"github.com/stretchr/testify/require"
)

func TestCounterRAMAgreesEverywhere(t *testing.T) {
	res := Check(t, designs.CounterRAM(), CheckOptions{Cycles: 20000})
	require.Equal(t, uint64(20000*5), res.Compared)
}

// adderModule builds an accumulating adder; the broken variant subtracts
// when a == b. Giving the RTL back-ends the broken one makes Go and Verilog
// differ, some cycles into the run.
func adderModule(name string, broken bool) *hdl.Module {
	m := hdl.NewModule(name)
	a, b := m.Input("a", 8), m.Input("b", 8)
	acc := m.Reg("acc", 8)
	sum := a.Add(b)
	if broken {
		sum = hdl.Mux(a.Eq(b), a.Sub(b), sum)
	}
	acc.Drive(acc.Xor(sum))
	m.Output("y", 8).Drive(sum)
	m.Output("acc_q", 8).Drive(acc)
	return m
}

// adders elaborates adderModule as it should be and broken.
func adders(t *testing.T) (good, bad *hdl.Design) {
	good, err := hdl.Elaborate(adderModule("adder", false))
	require.NoError(t, err)
	bad, err = hdl.Elaborate(adderModule("adder", true))
	require.NoError(t, err)
	return good, bad
}

// runDigests runs the in-simulator stimulus in batches of the given
// sizes, asking for each batch before reading the one before it (as the
// fast mode does), and returns their digests.
func runDigests(h hasher, sizes []int) ([]uint64, error) {
	digests := make([]uint64, len(sizes))
	for i, n := range sizes {
		if err := h.requestDigest(n); err != nil {
			return nil, err
		}
		if i > 0 {
			var err error
			if digests[i-1], err = h.readDigest(); err != nil {
				return nil, err
			}
		}
	}
	var err error
	digests[len(sizes)-1], err = h.readDigest()
	return digests, err
}

// TestInSimulatorStimulusIsTheSameEverywhere checks that each simulator's
// own copy of the in-simulator stimulus, hash and batch digest matches the
// Go one fed in through Run.
func TestInSimulatorStimulusIsTheSameEverywhere(t *testing.T) {
	d, err := hdl.Elaborate(designs.CounterRAM())
	require.NoError(t, err)
	ports := PortsOf(d)
	const n = 3000
	want := make([]uint64, n)
	ref, err := NewGoSim(d)
	require.NoError(t, err)
	require.NoError(t, Reset(ref))
	stim := NewLFSR(ports, 42)
	for c := range want {
		v := make(Vector, ports.InWords())
		stim.Fill(uint64(c), v)
		out, err := ref.Run([]Vector{v})
		require.NoError(t, err)
		want[c] = outputHash(out[0])
	}
	// Batches of one cycle and of many, each answered by its digest.
	sizes := []int{1, 1, 2, 13, 983, 1, 1999}
	var wantDigests []uint64
	at := 0
	for _, size := range sizes {
		digest := uint64(lfsrChecksumInit)
		for _, h := range want[at : at+size] {
			digest = batchDigest(digest, h)
		}
		wantDigests = append(wantDigests, digest)
		at += size
	}
	require.Equal(t, n, at)
	for _, b := range []Backend{GoBackend(d), GoCompiledBackend(d), VerilatorBackend(d, VerilatorOptions{}), IcarusBackend(d)} {
		s, err := b(false)
		require.NoError(t, err)
		require.NoError(t, Reset(s))
		h := s.(hasher)
		require.NoError(t, h.seedStimulus(42))
		got, err := runDigests(h, sizes)
		require.NoError(t, err)
		require.Equal(t, wantDigests, got, s.Name())
		require.NoError(t, s.Close())
	}
}

func TestMismatchInFastModeNamesThePort(t *testing.T) {
	good, bad := adders(t)
	_, err := Lockstep(Config{
		Backends:  []Backend{GoBackend(good), GoCompiledBackend(bad), IcarusBackend(bad)},
		Seed:      5,
		Cycles:    100000,
		ReportDir: t.TempDir(),
	})
	var me *MismatchError
	require.ErrorAs(t, err, &me)
	require.Equal(t, "y", me.M.Port)
	require.Len(t, me.M.Waveforms, 2, "the Go and Icarus waveforms (compiled Go writes none)")
}

// TestFastModeFindsTheCycleAcrossBatches: with small batches, each
// simulator process already working on the next one while the last is
// compared, the fast mode reports the cycle the fed comparison of the same
// stimulus finds.
func TestFastModeFindsTheCycleAcrossBatches(t *testing.T) {
	good, bad := adders(t)
	ports := PortsOf(good)
	_, err := Lockstep(Config{
		Backends: []Backend{GoBackend(good), GoBackend(bad)},
		Stimulus: func(seed uint64) Stimulus { return NewLFSR(ports, seed) },
		Seed:     11,
		Cycles:   100000,
		NoReplay: true,
	})
	var fed *MismatchError
	require.ErrorAs(t, err, &fed)
	require.Greater(t, fed.M.Cycle, uint64(3*8), "the difference comes batches in")
	_, err = Lockstep(Config{
		Backends: []Backend{GoBackend(good), VerilatorBackend(bad, VerilatorOptions{}), IcarusBackend(bad)},
		Seed:     11,
		Batch:    8,
		Cycles:   100000,
		NoReplay: true,
	})
	var fast *MismatchError
	require.ErrorAs(t, err, &fast)
	require.Equal(t, fed.M.Cycle, fast.M.Cycle)
	require.Equal(t, "y", fast.M.Port)
}

// A mismatch stops the fed pipeline while the compiled-Go process still has
// batches in flight; stopping must not send to it while it is being closed
// (make test runs this under -race, which caught that) nor hang on its
// full pipe.
func TestMismatchStopsAStreamingPipelineCleanly(t *testing.T) {
	good, bad := adders(t)
	ports := PortsOf(good)
	_, err := Lockstep(Config{
		Backends: []Backend{GoBackend(good), GoCompiledBackend(bad)},
		Stimulus: func(seed uint64) Stimulus { return NewRandom(ports, seed) },
		Seed:     7,
		Batch:    8,
		Cycles:   200000,
	})
	var me *MismatchError
	require.ErrorAs(t, err, &me)
	require.Equal(t, "y", me.M.Port)
}

func TestMismatchReportAndWaveforms(t *testing.T) {
	good, bad := adders(t)
	dir := t.TempDir()
	ports := PortsOf(good)
	_, err := Lockstep(Config{
		Backends:  []Backend{GoBackend(good), VerilatorBackend(bad, VerilatorOptions{}), IcarusBackend(bad)},
		Stimulus:  func(seed uint64) Stimulus { return NewRandom(ports, seed) },
		Seed:      99,
		Cycles:    1000,
		ReportDir: dir,
	})
	var me *MismatchError
	require.ErrorAs(t, err, &me)
	m := me.M
	t.Log("\n" + m.Text())
	require.Equal(t, "y", m.Port)
	require.Len(t, m.Values, 3)
	require.Equal(t, []string{"go", "verilator", "icarus"}, []string{m.Values[0].Sim, m.Values[1].Sim, m.Values[2].Sim})
	require.NotEqual(t, m.Values[0].Value, m.Values[1].Value)
	require.Equal(t, m.Values[1].Value, m.Values[2].Value)
	require.Equal(t, uint64(99), m.Seed)
	require.Len(t, m.LastInputs, min(int(m.Cycle)+1, 16)+1, "a header and up to 16 cycles")
	report, err := os.ReadFile(m.Report)
	require.NoError(t, err)
	require.Contains(t, string(report), "output y")
	require.Contains(t, string(report), "-verify.seed=99")
	require.Len(t, m.Waveforms, 3)
	for _, path := range m.Waveforms {
		f, err := os.Open(path)
		require.NoError(t, err)
		w, err := vcd.Parse(f)
		f.Close()
		require.NoError(t, err, path)
		found := false
		for p := range w.Vars {
			found = found || strings.HasSuffix(p, "adder.y")
		}
		require.Truef(t, found, "%s has the mismatching port: %v", path, w.Paths())
	}
}

// TestSignedCompareOfKnownZeroSign keeps the emitter clear of a Verilator
// 5.006 miscompilation the random-netlist fuzz found: $signed(x) >=
// $signed(1'b0) evaluated to 0 when x was a bit of a zero extension.
func TestSignedCompareOfKnownZeroSign(t *testing.T) {
	m := hdl.NewModule("known_zero_sign")
	x := m.Input("x", 1)
	top := x.Zext(2).Bit(1) // always 0
	zero := m.ConstU(1, 0)
	m.Output("ges", 1).Drive(top.GeS(zero))
	m.Output("gts", 1).Drive(top.GtS(zero))
	m.Output("les", 1).Drive(top.LeS(zero))
	m.Output("lts", 1).Drive(top.LtS(zero))
	wide := hdl.Concat(top, x.Zext(7))
	m.Output("ges8", 1).Drive(wide.GeS(m.ConstU(8, 0)))
	Check(t, m, CheckOptions{Cycles: 100})
}
