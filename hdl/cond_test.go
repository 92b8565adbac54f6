package hdl_test

import (
	"fmt"
	"github.com/parmem/parmem/hdl"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/kernel"
	"github.com/parmem/parmem/sim"

	"github.com/stretchr/testify/require"
)

// condBlock builds a block with nested If/Elif/Else and Switch arms that
// assign a wire (with a default), a register that holds when unassigned,
// and an output assigned on every path without a default.
func condBlock() *hdl.Module {
	m := hdl.NewModule("cond")
	a, b, c := m.Input("a", 1), m.Input("b", 1), m.Input("c", 1)
	op := m.Input("op", 2)
	x, y := m.Input("x", 8), m.Input("y", 8)
	w := m.Wire("w", 8)
	r := m.Reg("r", 8)
	o := m.Output("o", 8)
	w.Set(x) // default
	m.If(a, func() {
		w.Set(y)
		m.If(b, func() { r.Set(x.Add(y)) }).Else(func() { w.Set(x.Xor(y)) })
	}).Elif(b, func() {
		r.Set(y)
		m.If(c, func() { r.Set(x) }) // the last assignment wins
	})
	m.Switch(op).
		Case(0, func() { o.Set(w) }).
		Cases([]uint64{1, 2}, func() { o.Set(r) }).
		Default(func() { o.Set(x.And(y)) })
	m.Output("wo", 8).Drive(w)
	return m
}

// condModel is condBlock in plain Go: outputs before the edge, then r's
// next value.
func condModel(a, b, c bool, op, x, y, r uint64) (o, w, next uint64) {
	w, next = x, r
	switch {
	case a:
		w = y
		if b {
			next = (x + y) & 0xff
		} else {
			w = x ^ y
		}
	case b:
		next = y
		if c {
			next = x
		}
	}
	switch op {
	case 0:
		o = w
	case 1, 2:
		o = r
	default:
		o = x & y
	}
	return o, w, next
}

func TestConditionalAssignmentMatchesModel(t *testing.T) {
	d, err := hdl.Elaborate(condBlock())
	require.NoError(t, err)
	s := sim.New(d)
	s.Reset()
	rng := rand.New(rand.NewPCG(1, 2))
	r := uint64(0)
	for cycle := range 5000 {
		a, b, c := rng.IntN(2) == 1, rng.IntN(2) == 1, rng.IntN(2) == 1
		op, x, y := rng.Uint64N(4), rng.Uint64N(256), rng.Uint64N(256)
		for name, v := range map[string]uint64{"a": kernel.FromBool(a), "b": kernel.FromBool(b), "c": kernel.FromBool(c), "op": op, "x": x, "y": y} {
			require.NoError(t, s.SetU(name, v))
		}
		o, w, next := condModel(a, b, c, op, x, y, r)
		got, _ := s.GetU("o")
		require.Equalf(t, o, got, "cycle %d: o", cycle)
		got, _ = s.GetU("wo")
		require.Equalf(t, w, got, "cycle %d: w", cycle)
		s.Step()
		got, _ = s.GetU("r")
		require.Equalf(t, next, got, "cycle %d: r after the edge", cycle)
		r = next
	}
}

// TestRegisterSetLowersToEnable: a register assigned only under a
// condition loads through its enable; a wire assigned only under an If
// with an Else needs no default.
func TestRegisterSetLowersToEnable(t *testing.T) {
	m := hdl.NewModule("en")
	go_, v := m.Input("go", 1), m.Input("v", 4)
	r := m.Reg("r", 4)
	m.If(go_, func() { r.Set(v) })
	w := m.Wire("w", 4)
	m.If(go_, func() { w.Set(v) }).Else(func() { w.Set(r) })
	m.Output("q", 4).Drive(w)
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	text := string(d.Verilog())
	require.Contains(t, text, "else if (go) r <= v;", "the If condition is the register's enable, no feedback mux")
	require.Contains(t, text, "assign _mux_", "the wire is a multiplexer")
}

func errorsOf(t *testing.T, m *hdl.Module) string {
	t.Helper()
	_, err := hdl.Elaborate(m)
	require.Error(t, err)
	return err.Error()
}

// lineOf returns "cond_test.go:N" for the line of this file that ends
// with the comment marker.
func lineOf(t *testing.T, marker string) string {
	t.Helper()
	text, err := os.ReadFile("cond_test.go")
	require.NoError(t, err)
	for i, line := range strings.Split(string(text), "\n") {
		if strings.HasSuffix(line, "// "+marker) {
			return fmt.Sprintf("cond_test.go:%d", i+1)
		}
	}
	t.Fatalf("no line marked %s", marker)
	return ""
}

func TestWireWithoutDefaultIsAnErrorNamingTheIf(t *testing.T) {
	m := hdl.NewModule("latch")
	c := m.Input("c", 1)
	w := m.Wire("w", 1)
	m.If(c, func() { w.Set(c) }) // MARK-if-without-else
	m.Output("o", 1).Drive(w)
	msg := errorsOf(t, m)
	require.Contains(t, msg, `wire "w" is not assigned on every path`)
	require.Contains(t, msg, "the If at "+lineOf(t, "MARK-if-without-else"))
	require.NotContains(t, msg, "never driven", "one error, not two")

	m = hdl.NewModule("latch2")
	sel := m.Input("sel", 2)
	o := m.Output("o", 1)
	m.Switch(sel).Case(0, func() { o.SetU(1) }).Case(1, func() { o.SetU(0) }) // MARK-switch-without-default
	msg = errorsOf(t, m)
	require.Contains(t, msg, "the Switch at "+lineOf(t, "MARK-switch-without-default"))
	require.Contains(t, msg, "give it a Default")
}

func TestConditionalAssignmentMistakes(t *testing.T) {
	m := hdl.NewModule("bad")
	c, sel := m.Input("c", 1), m.Input("sel", 2)
	wide := m.Input("wide", 2)
	w := m.Wire("w", 1)
	w.Drive(c)
	w.Set(c)                    // Drive then Set
	m.Input("in", 1).Set(c)     // not assignable
	r := m.Reg("r", 1)          //
	r.Set(c)                    //
	r.Enable(c)                 // Enable on a Set register
	m.If(wide, func() {})       // a two-bit condition
	chain := m.If(c, func() {}) // MARK-chain
	w2 := m.Wire("w2", 1)
	w2.Set(c)
	chain.Else(func() {}) // not directly after its If
	sw := m.Switch(sel)
	sw.Case(1, func() {}).Case(1, func() {}).Case(4, func() {})
	sw.Default(func() {})
	sw.Default(func() {})
	m.Output("o", 1).Drive(w2)
	m.Output("o2", 1).Drive(r)
	msg := errorsOf(t, m)
	for _, want := range []string{
		`Set: wire "w" is driven with Drive at`,
		`Set: input "in" is an input, not a wire, output or register`,
		`Enable: reg "r" is assigned with Set`,
		`If condition is 2 bits, want 1`,
		"Else must directly follow its If (at " + lineOf(t, "MARK-chain") + ")",
		"Case 1: the value already has a case at",
		"Case 4: value 4 does not fit in 2 bits",
		"Default: the Switch at",
	} {
		require.Contains(t, msg, want)
	}
}

func TestFSMStatesInVerilogAndErrors(t *testing.T) {
	m := hdl.NewModule("door")
	open, shut := m.Input("open", 1), m.Input("shut", 1)
	st := m.FSM("state", "Closed", "Opening", "Open", "Stuck")
	st.When("Closed", func() { m.If(open, func() { st.Goto("Opening") }) })
	st.When("Opening", func() { st.Goto("Open") })
	st.When("Open", func() { m.If(shut, func() { st.Goto("Closed") }) })
	m.Output("is_open", 1).Drive(st.Is("Open"))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	text := string(d.Verilog())
	for _, want := range []string{
		"localparam [1:0] state_Closed = 2'd0;",
		"localparam [1:0] state_Stuck = 2'd3;",
		"state == state_Open",
		"? state_Opening :",
		"state_Stuck}", // never referenced: kept for the reader, in the lint sink
	} {
		require.Contains(t, text, want)
	}
	require.Equal(t, []hdl.StateMachine{{Path: "state", Width: 2, States: []string{"Closed", "Opening", "Open", "Stuck"}}}, d.StateMachines())
	require.Equal(t, "# GTKWave translate filter for state machine state (hex values)\n0 Closed\n1 Opening\n2 Open\n3 Stuck\n", string(d.StateMachines()[0].GTKWaveFilter()))

	s := sim.New(d)
	s.Reset()
	require.NoError(t, s.SetU("open", 1))
	s.Step()
	v, _ := s.GetU("state")
	require.Equal(t, uint64(1), v, "Closed -> Opening")
	s.Step()
	v, _ = s.GetU("is_open")
	require.Equal(t, uint64(1), v, "Opening -> Open unconditionally")

	bad := hdl.NewModule("bad")
	f := bad.FSM("st", "A", "A", "module")
	f.Goto("B")
	bad.Wire("st_A", 1).Drive(bad.ConstU(1, 0))
	msg := errorsOf(t, bad)
	require.Contains(t, msg, `FSM "st": state "A" is listed twice`)
	require.Contains(t, msg, `Goto: state machine "st" has no state "B" (it has A, A, module)`)
	require.Contains(t, msg, `name "st_A" is already used`)
}

func TestRegArrayReadWrite(t *testing.T) {
	type entry struct{ Valid, Tag *hdl.Signal }
	m := hdl.NewModule("arr")
	we, idx, ridx := m.Input("we", 1), m.Input("idx", 3), m.Input("ridx", 3)
	tag := m.Input("tag", 6)
	a := hdl.RegArray(m, "e", 5, func(f hdl.Fields) entry { return entry{Valid: f("valid", 1), Tag: f("tag", 6)} })
	m.If(we, func() { a.Write(idx, entry{Valid: m.ConstU(1, 1), Tag: tag}) })
	r := a.Read(ridx)
	m.Output("valid", 1).Drive(r.Valid)
	m.Output("tag_o", 6).Drive(r.Tag)
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	require.Contains(t, string(d.Verilog()), "reg [5:0] e_tag_4;", "element fields are named <array>_<field>_<i>")

	s := sim.New(d)
	s.Reset()
	model := make([]struct{ valid, tag uint64 }, 5)
	rng := rand.New(rand.NewPCG(3, 4))
	for cycle := range 3000 {
		w, i, ri, tg := rng.Uint64N(2), rng.Uint64N(8), rng.Uint64N(8), rng.Uint64N(64)
		for name, v := range map[string]uint64{"we": w, "idx": i, "ridx": ri, "tag": tg} {
			require.NoError(t, s.SetU(name, v))
		}
		var wantV, wantT uint64
		if ri < 5 {
			wantV, wantT = model[ri].valid, model[ri].tag
		}
		gv, _ := s.GetU("valid")
		gt, _ := s.GetU("tag_o")
		require.Equalf(t, [2]uint64{wantV, wantT}, [2]uint64{gv, gt}, "cycle %d read %d", cycle, ri)
		s.Step()
		if w == 1 && i < 5 { // indexes past the end write nothing
			model[i].valid, model[i].tag = 1, tg
		}
	}
}

func TestRecords(t *testing.T) {
	type lane struct{ En, Data *hdl.Signal }
	type channel struct {
		Valid *hdl.Signal
		Lanes []lane
	}
	type ports struct{ Req, Resp channel } // both directions of one sub-module
	make := func(f func(lane ...int) hdl.Fields) channel {
		c := channel{Valid: f()("valid", 1)}
		for i := range 2 {
			c.Lanes = append(c.Lanes, lane{En: f(i)("en", 1), Data: f(i)("data", 4)})
		}
		return c
	}
	sub := hdl.NewModule("sub")
	sp := ports{Req: make(func(l ...int) hdl.Fields { return sub.InputFields("req", l...) })}
	sp.Resp = make(func(l ...int) hdl.Fields { return sub.OutputFields("resp", l...) })
	hdl.DriveRecord(sp.Resp, hdl.MapRecord(sp.Req, func(s *hdl.Signal) *hdl.Signal { return s.Not() }))
	require.Equal(t, "req_data_1", sp.Req.Lanes[1].Data.Name(), "the naming rule <chan>_<field>_<i>")
	require.Equal(t, "resp_valid", sp.Resp.Valid.Name())

	top := hdl.NewModule("top")
	a := make(func(l ...int) hdl.Fields { return top.InputFields("a", l...) })
	u := hdl.Use(top, "u", sub, sp)
	require.Equal(t, "u_req_en_0", u.Req.Lanes[0].En.Name(), "the instance's inputs are wires named <inst>_<port>")
	hdl.DriveRecord(u.Req, a) // one call connects the whole channel
	y := make(func(l ...int) hdl.Fields { return top.OutputFields("y", l...) })
	hdl.DriveRecord(y, u.Resp)
	packed := hdl.Pack(a)
	require.Equal(t, 1+2*5, packed.Width())
	back := hdl.Unpack(packed, a)
	top.Output("p", 11).Drive(hdl.Pack(hdl.MuxRecord(back.Valid, u.Resp, back)))
	top.Output("s", 4).Drive(hdl.SelectRecord(back.Lanes[0].En, back.Lanes[0], back.Lanes[1]).Data)
	d, err := hdl.Elaborate(top)
	require.NoError(t, err)

	s := sim.New(d)
	for v := range uint64(1 << 11) {
		in := []uint64{v >> 10 & 1, v >> 9 & 1, v >> 5 & 15, v >> 4 & 1, v & 15}
		for i, name := range []string{"a_valid", "a_en_0", "a_data_0", "a_en_1", "a_data_1"} {
			require.NoError(t, s.SetU(name, in[i]))
		}
		got, _ := s.GetU("y_data_1")
		require.Equal(t, ^in[4]&15, got)
		p, _ := s.GetU("p")
		if in[0] == 1 {
			require.Equal(t, ^v&0x7ff, p, "MuxRecord takes the response when valid")
		} else {
			require.Equal(t, v, p, "Pack then Unpack gives the record back")
		}
		sel, _ := s.GetU("s")
		require.Equal(t, []uint64{in[2], in[4]}[in[1]], sel, "SelectRecord by lane 0's enable")
	}

	bad := hdl.NewModule("bad")
	hdl.Use(bad, "u", sub, channel{Valid: bad.Input("v", 1), Lanes: []lane{}})
	require.Contains(t, errorsOf(t, bad), `Use u: input "v" is not a port of module sub`)
}

func TestBadRecordField(t *testing.T) {
	m := hdl.NewModule("r")
	type bad struct {
		A     *hdl.Signal
		Width int
	}
	hdl.DriveRecord(bad{A: m.Wire("w", 1)}, bad{A: m.ConstU(1, 0)})
	require.Contains(t, errorsOf(t, m), "record field hdl_test.bad.Width is a int; records hold *hdl.Signal")
}

func TestNonPowerOfTwoDepthAndMaskedWrites(t *testing.T) {
	m := hdl.NewModule("mem5")
	addr, data, mask, we := m.Input("addr", 3), m.Input("data", 16), m.Input("mask", 2), m.Input("we", 1)
	mem := m.MemDepth("q", 5, 16)
	require.Equal(t, 3, mem.AddrBits())
	mem.WriteMasked(addr, data, mask, we)
	m.Output("rd", 16).Drive(mem.Read(addr))
	m.Output("rs", 16).Drive(mem.ReadSync(addr, nil))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	text := string(d.Verilog())
	require.Contains(t, text, "reg [15:0] q [0:4];")
	require.Contains(t, text, "if (we && addr < 3'd5) begin")
	require.Contains(t, text, "if (mask[1]) q[addr][15:8] <= data[15:8];")
	require.Contains(t, text, "(addr < 3'd5) ? q[addr] : 16'h0000")

	s := sim.New(d)
	model := make([]uint64, 8)
	rng := rand.New(rand.NewPCG(5, 6))
	for cycle := range 4000 {
		a, v, mk, w := rng.Uint64N(8), rng.Uint64N(1<<16), rng.Uint64N(4), rng.Uint64N(2)
		for name, x := range map[string]uint64{"addr": a, "data": v, "mask": mk, "we": w} {
			require.NoError(t, s.SetU(name, x))
		}
		got, _ := s.GetU("rd")
		require.Equalf(t, model[a], got, "cycle %d: read %d", cycle, a)
		s.Step()
		got, _ = s.GetU("rs")
		require.Equalf(t, model[a], got, "cycle %d: synchronous read %d is read-first", cycle, a)
		if w == 1 && a < 5 {
			for lane := range 2 {
				if mk>>uint(lane)&1 == 1 {
					bits := uint64(0xff) << uint(8*lane)
					model[a] = model[a]&^bits | v&bits
				}
			}
		}
	}
	require.Equal(t, []uint64{0, 0, 0}, model[5:], "addresses past the depth never hold data")

	bad := hdl.NewModule("badmask")
	bm := bad.MemDepth("m", 3, 10)
	bm.WriteMasked(bad.Input("a", 2), bad.Input("d", 10), bad.Input("k", 3), bad.Input("e", 1))
	bad.Output("o", 10).Drive(bm.Read(bad.Input("ra", 2)))
	require.Contains(t, errorsOf(t, bad), "a 3-bit mask does not split 10-bit words into equal lanes")
}

// TestSharedSubModules: two parents that build the same component share
// one module; the same name for different hardware stays an error.
func TestSharedSubModules(t *testing.T) {
	comp := func(width int) *hdl.Module {
		m := hdl.NewModule(fmt.Sprintf("inc_w%d", width))
		m.Output("y", width).Drive(m.Input("x", width).Add(m.ConstU(width, 1)))
		return m
	}
	parent := func(name string) *hdl.Module {
		m := hdl.NewModule(name)
		x := m.Input("x", 8)
		i := m.Instance("i", comp(8))
		i.Connect("x", x)
		m.Output("y", 8).Drive(i.Out("y"))
		return m
	}
	top := hdl.NewModule("top")
	x := top.Input("x", 8)
	var last *hdl.Signal = x
	for _, name := range []string{"p1", "p2"} {
		i := top.Instance(name, parent(name))
		i.Connect("x", last)
		last = i.Out("y")
	}
	k := top.Instance("k", comp(8)) // a third build of the component, directly
	k.Connect("x", last)
	top.Output("y", 8).Drive(k.Out("y"))
	d, err := hdl.Elaborate(top)
	require.NoError(t, err)
	text := string(d.Verilog())
	require.Equal(t, 1, strings.Count(text, "module inc_w8 ("), "one module for three identical builds")
	s := sim.New(d)
	require.NoError(t, s.SetU("x", 7))
	y, _ := s.GetU("y")
	require.Equal(t, uint64(10), y)

	clash := hdl.NewModule("clash")
	a := clash.Instance("a", comp(8))
	a.Connect("x", clash.Input("x", 8))
	other := hdl.NewModule("inc_w8") // same name, different hardware
	other.Output("y", 8).Drive(other.Input("x", 8).Sub(other.ConstU(8, 1)))
	b := clash.Instance("b", other)
	b.Connect("x", a.Out("y"))
	clash.Output("y", 8).Drive(b.Out("y"))
	require.Contains(t, errorsOf(t, clash), `two different modules are named "inc_w8"`)
}

// TestConnectRecord: a sub-module's port records connect and read an
// instance in one call each, creating no signals for the inputs.
func TestVectorFields(t *testing.T) {
	type lanes struct {
		Valid *hdl.Signal
		Addr  []*hdl.Signal
	}
	m := hdl.NewModule("v")
	in := lanes{Valid: m.InputFields("")("valid", 1), Addr: m.InputFields("").Vec("addr", 3, 4)}
	out := lanes{Valid: m.OutputFields("q")("valid", 1), Addr: m.OutputFields("q").Vec("addr", 3, 4)}
	hdl.DriveRecord(out, in)
	require.Equal(t, []string{"valid", "addr_0", "addr_1", "addr_2"}, names(hdl.Signals(in)), "<field>_<i> without a prefix")
	require.Equal(t, []string{"q_valid", "q_addr_0", "q_addr_1", "q_addr_2"}, names(hdl.Signals(out)), "<prefix>_<field>_<i>")
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(d)
	require.NoError(t, s.SetU("addr_2", 9))
	got, _ := s.GetU("q_addr_2")
	require.Equal(t, uint64(9), got)
}

// RegInitFields names a lane's registers as the other makers do and
// resets each to its own value.
func TestRegInitFields(t *testing.T) {
	m := hdl.NewModule("t")
	var outs []*hdl.Signal
	for k := range 3 {
		r := m.RegInitFields("tab", k)("mul", hdl.MustU(4, uint64(3*k)))
		r.Drive(r)
		outs = append(outs, r)
		m.Output(r.Name()+"_q", 4).Drive(r)
	}
	require.Equal(t, []string{"tab_mul_0", "tab_mul_1", "tab_mul_2"}, names(outs))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(d)
	s.Reset()
	for k := range 3 {
		got, _ := s.GetU(fmt.Sprintf("tab_mul_%d_q", k))
		require.Equal(t, uint64(3*k), got, "lane %d's reset value", k)
	}
	bad := hdl.NewModule("bad")
	bad.RegInitFields("x", 1, 2)("y", hdl.MustU(1, 0))
	require.Contains(t, errorsOf(t, bad), "RegInitFields \"x\": one lane index at most")
}

func names(sigs []*hdl.Signal) []string {
	var out []string
	for _, s := range sigs {
		out = append(out, s.Name())
	}
	return out
}

func TestConnectRecord(t *testing.T) {
	type pair struct{ A, B *hdl.Signal }
	sub := hdl.NewModule("swap")
	in := pair{A: sub.Input("a", 4), B: sub.Input("b", 4)}
	out := pair{A: sub.Output("x", 4), B: sub.Output("y", 4)}
	hdl.DriveRecord(out, pair{A: in.B, B: in.A})

	top := hdl.NewModule("top")
	src := pair{A: top.Input("p", 4), B: top.Input("q", 4)}
	i := top.Instance("s", sub)
	hdl.ConnectRecord(i, in, src)
	got := hdl.OutRecord(i, out)
	hdl.DriveRecord(pair{A: top.Output("pa", 4), B: top.Output("pb", 4)}, got)
	d, err := hdl.Elaborate(top)
	require.NoError(t, err)
	require.Contains(t, string(d.Verilog()), ".a(p)", "the instance's input reads the parent's port itself")
	require.NotRegexp(t, `wire .*\bs_[ab]\b`, string(d.Verilog()), "connecting makes no wires (Use would make s_a and s_b)")
	s := sim.New(d)
	require.NoError(t, s.SetU("p", 3))
	require.NoError(t, s.SetU("q", 9))
	pa, _ := s.GetU("pa")
	pb, _ := s.GetU("pb")
	require.Equal(t, []uint64{9, 3}, []uint64{pa, pb})

	bad := hdl.NewModule("bad")
	j := bad.Instance("s", sub)
	hdl.ConnectRecord(j, out, pair{A: bad.Input("p", 4), B: bad.Input("q", 4)}) // outputs are not inputs
	hdl.OutRecord(j, in)                                                        // nor inputs outputs
	msg := errorsOf(t, bad)
	require.Contains(t, msg, `ConnectRecord s: output "x" is not an input of module swap`)
	require.Contains(t, msg, `OutRecord s: input "a" is not an output of module swap`)
}
