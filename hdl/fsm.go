package hdl

import (
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
)

// FSM is a state machine with named states, as Amaranth's m.FSM and
// Hardcaml's Always.State_machine: a state register that resets to the
// first state, a When body per state, and Goto to choose the next state.
//
//	st := m.FSM("state", "Idle", "Busy", "Done")
//	st.When("Idle", func() {
//		m.If(start, func() { st.Goto("Busy") })
//	})
//	st.When("Busy", func() {
//		m.If(last, func() { st.Goto("Done") })
//	})
//	busy := st.Is("Busy")
//
// Every state is a cover point, <name>_<state>. The encoding is the
// state's position in the list. The emitted Verilog
// declares each state as a localparam <name>_<state> and compares and
// assigns the register with those names; the Go simulator's waveforms come
// with a GTKWave translate filter that shows the names (WriteGTKWave).
type FSM struct {
	m      *Module
	reg    *Signal
	states []string
	index  map[string]int
	is     []*Signal // comparators, made when first asked for
	consts []*Signal // state constants, made when first asked for
	whens  *chain    // the chain of the last When, which the next When extends
}

// FSM declares a state machine whose state register is called name and
// whose states are listed in encoding order; reset enters the first.
func (m *Module) FSM(name string, states ...string) *FSM {
	pos := callerPos()
	f := &FSM{m: m, states: states, index: map[string]int{}, is: make([]*Signal, len(states)), consts: make([]*Signal, len(states))}
	if len(states) == 0 {
		m.errorf(pos, "FSM %q: no states", name)
		f.states = []string{"none"}
		f.is, f.consts = make([]*Signal, 1), make([]*Signal, 1)
	}
	for i, st := range f.states {
		if _, dup := f.index[st]; dup {
			m.errorf(pos, "FSM %q: state %q is listed twice", name, st)
		}
		f.index[st] = i
	}
	width := max(1, bits.Len(uint(len(f.states)-1)))
	f.reg = m.add(pos, OpReg, width, name, nil, nil)
	f.reg.val = Zero(width)
	m.fsms = append(m.fsms, f)
	for _, st := range f.states { // a stimulus should visit every state
		m.property(pos, CoverPoint, f.isState(pos, "FSM", st), name+"_"+st, "")
	}
	return f
}

// State returns the state register.
func (f *FSM) State() *Signal { return f.reg }

// States returns the state names in encoding order.
func (f *FSM) States() []string { return append([]string(nil), f.states...) }

// lookup returns the encoding of state, recording an error for an unknown one.
func (f *FSM) lookup(pos Pos, op, state string) (int, bool) {
	i, ok := f.index[state]
	if !ok {
		f.m.errorf(pos, "%s: state machine %q has no state %q (it has %s)", op, f.reg.name, state, strings.Join(f.states, ", "))
	}
	return i, ok
}

// Const returns the constant of state's encoding, emitted as its
// localparam.
func (f *FSM) Const(state string) *Signal {
	return f.constant(callerPos(), "Const", state)
}

func (f *FSM) constant(pos Pos, op, state string) *Signal {
	i, ok := f.lookup(pos, op, state)
	if !ok {
		return placeholder(f.m, pos, f.reg.width)
	}
	if f.consts[i] == nil {
		c := f.m.add(pos, OpConst, f.reg.width, "")
		c.val = MustU(f.reg.width, uint64(i))
		c.sym = f.reg.name + "_" + state
		f.consts[i] = c
	}
	return f.consts[i]
}

// Is is 1 while the machine is in state.
func (f *FSM) Is(state string) *Signal {
	return f.isState(callerPos(), "Is", state)
}

func (f *FSM) isState(pos Pos, op, state string) *Signal {
	i, ok := f.lookup(pos, op, state)
	if !ok {
		return placeholder(f.m, pos, 1)
	}
	if f.is[i] == nil {
		f.is[i] = f.m.add(pos, OpEq, 1, "", f.reg, f.constant(pos, op, state))
	}
	return f.is[i]
}

// When runs body, whose assignments apply while the machine is in state.
// Consecutive Whens of one machine in one body form a single chain (the
// states exclude each other), which lowers to one multiplexer per target.
func (f *FSM) When(state string, body func()) {
	pos := callerPos()
	m := f.m
	is := f.isState(pos, "When", state)
	b := m.current()
	c := f.whens
	if c == nil || len(b.stmts) == 0 || b.stmts[len(b.stmts)-1].chain != c {
		c = m.startChain("If", pos)
		f.whens = c
	}
	body2 := &block{}
	c.arms = append(c.arms, arm{cond: is, body: body2})
	m.run(body2, body)
}

// Goto makes state the next state, under the current condition; without a
// Goto the machine stays where it is.
func (f *FSM) Goto(state string) {
	pos := callerPos()
	f.reg.set(pos, f.constant(pos, "Goto", state))
}

// localparam is the Verilog declaration of one state.
func (f *FSM) localparam(i int) string {
	w := f.reg.width
	return fmt.Sprintf("localparam %s%s_%s = %d'd%d;", rangeOf(w), f.reg.name, f.states[i], w, i)
}

// StateMachine describes a state machine of an elaborated design: the
// hierarchical name of its state register and its states by encoding.
type StateMachine struct {
	Path   string
	Width  int
	States []string
}

// StateMachines lists the design's state machines, in instance order.
func (d *Design) StateMachines() []StateMachine {
	var out []StateMachine
	for _, sc := range d.scopes {
		for _, f := range sc.mi.m.fsms {
			out = append(out, StateMachine{Path: joinPath(sc.path, f.reg.name), Width: f.reg.width, States: f.States()})
		}
	}
	return out
}

// GTKWaveFilter is GTKWave's translate filter file for the machine: each
// encoding as GTKWave prints a value in hexadecimal, then the state name.
func (sm StateMachine) GTKWaveFilter() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# GTKWave translate filter for state machine %s (hex values)\n", sm.Path)
	digits := (sm.Width + 3) / 4
	for i, st := range sm.States {
		fmt.Fprintf(&b, "%0*X %s\n", digits, i, st)
	}
	return []byte(b.String())
}

// WriteGTKWave writes, beside vcdPath (a waveform of this design from
// Sim.TraceVCD), one GTKWave translate filter per state machine,
// <base>.<register path>.filter, and a save file <base>.gtkw that opens the
// waveform with every state register shown by state name (gtkwave
// <base>.gtkw). base is vcdPath without its .vcd extension. It returns the
// files written: none for a design without state machines.
func (d *Design) WriteGTKWave(vcdPath string) ([]string, error) {
	sms := d.StateMachines()
	if len(sms) == 0 {
		return nil, nil
	}
	abs, err := filepath.Abs(vcdPath)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(abs, ".vcd")
	save := base + ".gtkw"
	var b strings.Builder
	fmt.Fprintf(&b, "[*] parmem: the state machines of %s, shown by state name\n", d.top.m.name)
	fmt.Fprintf(&b, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n", abs, save)
	written := []string{}
	top := d.top.m.name
	for i, sm := range sms {
		filter := fmt.Sprintf("%s.%s.filter", base, sm.Path)
		if err := os.WriteFile(filter, sm.GTKWaveFilter(), 0o644); err != nil {
			return written, err
		}
		written = append(written, filter)
		rng := ""
		if sm.Width > 1 {
			rng = fmt.Sprintf("[%d:0]", sm.Width-1)
		}
		// Flags 0x2022: hexadecimal, right-justified, translated by
		// filter file ^<i>.
		fmt.Fprintf(&b, "@2022\n^%d %s\n%s.%s%s\n", i+1, filter, top, sm.Path, rng)
	}
	if err := os.WriteFile(save, []byte(b.String()), 0o644); err != nil {
		return written, err
	}
	return append(written, save), nil
}
