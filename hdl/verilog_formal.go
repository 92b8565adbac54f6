package hdl

import "fmt"

// The properties' section of a module's Verilog (property.go). Without
// FORMAL defined a module is the hardware alone, as if it had no
// properties; under `ifdef FORMAL it adds the logic that only properties
// read (ghost state, the path conditions of properties inside If bodies),
// one wire a property holding its condition as it applies (1 where an
// assertion or assumption holds, 1 where a cover point is reached; 0 in
// reset for both) and the immediate statements Yosys's read_verilog
// -formal turns into checks:
//
//	`ifdef FORMAL
//	  wire _assert_no_overflow = rst | ~full | ~push;
//	  always @* begin
//	    assert (_assert_no_overflow);
//	  end
//	`endif

// formalOnly marks the signals of m that only properties read: those the
// properties' conditions depend on and nothing else that is emitted does
// (ports, instances, memory writes, and every signal outside the
// properties' cone, which the Verilog declares whether or not it is read).
func formalOnly(m *Module) []bool {
	formal := make([]bool, len(m.signals))
	if len(m.props) == 0 {
		return formal
	}
	cone := func(roots []*Signal, in []bool) {
		stack := roots
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if s == nil || in[s.id] {
				continue
			}
			in[s.id] = true
			stack = append(stack, s.args...)
		}
	}
	props := make([]bool, len(m.signals))
	var roots []*Signal
	for _, p := range m.props {
		roots = append(roots, p.cond)
	}
	cone(roots, props)
	hardware := make([]bool, len(m.signals))
	roots = append(roots[:0], m.outputs...)
	for _, s := range m.signals {
		if !props[s.id] || s.kind == OpInput || s.kind == OpInstOut {
			roots = append(roots, s)
		}
	}
	for _, inst := range m.insts {
		for _, c := range inst.conns {
			roots = append(roots, c.sig)
		}
	}
	for _, mem := range m.mems {
		for _, w := range mem.writes {
			roots = append(roots, w.addr, w.data, w.en, w.mask)
		}
	}
	cone(roots, hardware)
	for i := range formal {
		formal[i] = props[i] && !hardware[i]
	}
	return formal
}

// properties writes the module's properties' section, if it has any.
func (v *vmod) properties() {
	m := v.mi.m
	if len(m.props) == 0 {
		return
	}
	v.printf("`ifdef FORMAL\n")
	for _, s := range m.signals {
		if v.formal[s.id] {
			v.declareSignal(s)
		}
	}
	for _, s := range m.signals {
		if v.formal[s.id] {
			v.logic(s)
		}
	}
	for i, p := range m.props {
		cond := v.ref(p.cond)
		switch {
		case !v.mi.seq:
		case p.kind == CoverPoint:
			cond = fmt.Sprintf("~%s & %s", ResetName, cond)
			v.rstUsed = true
		default:
			cond = fmt.Sprintf("%s | %s", ResetName, cond)
			v.rstUsed = true
		}
		comment := ""
		if p.message != "" {
			comment = " // " + p.message
		}
		v.printf("  wire %s = %s;%s\n", v.mi.propNames[i], cond, comment)
	}
	v.printf("  always @* begin\n")
	for i, p := range m.props {
		v.printf("    %s (%s);\n", p.kind, v.mi.propNames[i])
	}
	v.printf("  end\n")
	var unused []string
	for _, s := range m.signals {
		if v.formal[s.id] {
			unused = v.unusedBits(unused, s)
		}
	}
	v.sinkWire(v.mi.formalSinkName, unused)
	v.printf("`endif\n")
}
