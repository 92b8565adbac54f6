package hdl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/sim"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// controlBlock uses every control construct at once: a state machine, a
// Switch, a record array written and read at dynamic indexes, a five-word
// memory with lane-masked writes and, with wideLines, a memory of 200-bit
// words (which the compiled-Go back-end does not handle).
func controlBlock(wideLines bool) *hdl.Module {
	type slot struct{ Valid, Key *hdl.Signal }
	m := hdl.NewModule("control")
	go_, stop, op := m.Input("go", 1), m.Input("stop", 1), m.Input("op", 2)
	idx, key := m.Input("idx", 3), m.Input("key", 5)
	addr, data, mask := m.Input("addr", 3), m.Input("data", 12), m.Input("mask", 3)

	st := m.FSM("phase", "Idle", "Fill", "Drain")
	count := m.Reg("count", 4)
	st.When("Idle", func() {
		m.If(go_, func() { st.Goto("Fill"); count.SetU(0) })
	})
	st.When("Fill", func() {
		count.Set(count.Add(m.ConstU(4, 1)))
		m.If(stop, func() { st.Goto("Drain") })
	})
	st.When("Drain", func() {
		count.Set(count.Sub(m.ConstU(4, 1)))
		m.If(count.EqConst(1), func() { st.Goto("Idle") })
	})

	slots := hdl.RegArray(m, "slot", 6, func(f hdl.Fields) slot { return slot{Valid: f("valid", 1), Key: f("key", 5)} })
	m.If(st.Is("Fill"), func() { slots.Write(idx, slot{Valid: m.ConstU(1, 1), Key: key}) })
	m.If(st.Is("Drain").And(go_), func() { slots.Write(idx, slot{Valid: m.ConstU(1, 0), Key: key}) })
	seen := slots.Read(idx)

	result := m.Wire("result", 12)
	m.Switch(op).
		Case(0, func() { result.Set(hdl.Concat(seen.Valid, seen.Key, m.ConstU(2, 0), count)) }).
		Case(1, func() { result.Set(data) }).
		Default(func() { result.Set(data.Xor(hdl.Concat(count, count, count))) })

	q := m.MemDepth("q", 5, 12)
	q.WriteMasked(addr, result, mask, st.Is("Fill"))

	m.Output("busy", 1).Drive(st.Is("Idle").Not())
	m.Output("result_o", 12).Drive(result)
	m.Output("q_async", 12).Drive(q.Read(addr))
	m.Output("q_sync", 12).Drive(q.ReadSync(addr, stop))
	if wideLines {
		lines := m.MemDepth("lines", 3, 200)
		lines.WriteMasked(addr.Trunc(2), m.Input("wide", 200), mask.Slice(1, 0), go_)
		m.Output("line", 200).Drive(lines.Read(addr.Trunc(2)))
	}
	return m
}

func TestControlConstructsMatchRTL(t *testing.T) {
	d, err := hdl.Elaborate(controlBlock(true))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "control.v"), d.Verilog(), 0o644))
	tools.LintClean(t, dir, "control.v")
	for _, wide := range []bool{true, false} {
		res := verify.Check(t, controlBlock(wide), verify.CheckOptions{Cycles: 20000})
		t.Logf("wide lines %v: the simulators agree on %d cycles (%d output values)", wide, res.Cycles, res.Compared)
	}
}

// TestStateNamesInWaveforms: the Go VCD of a state machine comes with a
// GTKWave translate filter and a save file that applies it.
func TestStateNamesInWaveforms(t *testing.T) {
	d, err := hdl.Elaborate(controlBlock(false))
	require.NoError(t, err)
	dir := t.TempDir()
	vcd := filepath.Join(dir, "run.vcd")
	files, err := d.WriteGTKWave(vcd)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "run.phase.filter"), filepath.Join(dir, "run.gtkw")}, files)
	filter, err := os.ReadFile(files[0])
	require.NoError(t, err)
	require.Equal(t, "# GTKWave translate filter for state machine phase (hex values)\n0 Idle\n1 Fill\n2 Drain\n", string(filter))
	save, err := os.ReadFile(files[1])
	require.NoError(t, err)
	require.Contains(t, string(save), "[dumpfile] \""+vcd+"\"")
	require.Contains(t, string(save), "@2022\n^1 "+files[0]+"\ncontrol.phase[1:0]\n")

	f, err := os.Create(vcd)
	require.NoError(t, err)
	s := sim.New(d)
	require.NoError(t, s.TraceVCD(f))
	s.Reset()
	require.NoError(t, s.SetU("go", 1))
	s.Step()
	s.Step()
	require.NoError(t, s.FlushTrace())
	require.NoError(t, f.Close())
	text, err := os.ReadFile(vcd)
	require.NoError(t, err)
	require.Contains(t, string(text), "$var reg 2 ", "the state register is traced")
	require.True(t, strings.Contains(string(text), " phase [1:0] $end"), "under the name the filter and save file use")
}
