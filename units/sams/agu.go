package sams

import "github.com/parmem/parmem/hdl"

// AGU is the address generation unit (thesis section 4.4.1, Table 4.1):
// the 2^q addresses of a vector access and its stride family; AGUPorts
// are its ports.
//
//	mode 00  addr_i = base + i           NaS layout
//	mode 01  addr_i = base + i           wide-port access
//	mode 10  addr_i = base + i           family fam(stride) (AoS view)
//	mode 11  addr_i = base + i*stride    family fam(stride) (SoA view)
type AGU struct {
	Q, N int
}

// famLogic computes fam(stride) = min(trailing zeros, n-q), fam(0) = n-q,
// as a parallel priority encoder: isolate the lowest set bit (x & -x), then
// OR together the positions where each bit of the result is 1.
func famLogic(m *hdl.Module, stride *hdl.Signal, n, q int) *hdl.Signal {
	fw := FamilyWidth(n, q)
	x := stride.Trunc(n - q)
	lowest := x.And(m.ConstU(n-q, 0).Sub(x))
	enc := make([]*hdl.Signal, fw)
	for t := range fw {
		var ones []*hdl.Signal
		for j := range n - q {
			if j>>uint(t)&1 == 1 {
				ones = append(ones, lowest.Bit(j))
			}
		}
		if len(ones) == 0 {
			enc[fw-1-t] = m.ConstU(1, 0)
		} else {
			enc[fw-1-t] = hdl.Concat(ones...).RedOr()
		}
	}
	return hdl.Mux(x.RedOr(), hdl.Concat(enc...), m.ConstU(fw, uint64(n-q)))
}

// generate builds the AGU's logic in m on the given inputs.
func (p AGU) generate(m *hdl.Module, base, stride, mode *hdl.Signal) (addrs []*hdl.Signal, family, nas, wide *hdl.Signal) {
	q, n := p.Q, p.N
	useStride, useFamily := mode.Bit(0), mode.Bit(1)
	nas = useFamily.Or(useStride).Not()
	wide = useStride.And(useFamily.Not())
	family = hdl.Mux(useFamily, famLogic(m, stride, n, q), m.ConstU(FamilyWidth(n, q), 0))
	strided := useStride.And(useFamily)
	addrs = append(addrs, base)
	for i := 1; i < 1<<uint(q); i++ {
		step := hdl.Mux(strided, stride.MulConst(uint64(i)).Trunc(n), m.ConstU(n, uint64(i)&mask(n)))
		addrs = append(addrs, base.Add(step))
	}
	return addrs, family, nas, wide
}

// AGUPorts are the AGU's ports (DESIGN.md, sams-agu).
type AGUPorts struct {
	// Base, Stride and Mode are the vector access of Table 4.1.
	Base   *hdl.Signal `doc:"[n-1:0] base address"`
	Stride *hdl.Signal `doc:"[n-1:0] stride"`
	Mode   *hdl.Signal `doc:"[1:0] {use_stride_family, use_stride} (Table 4.1)"`
	// Addr are the 2^q addresses.
	Addr []*hdl.Signal `doc:"[n-1:0] address of lane i"`
	// Family is fam(stride) in modes 1x, else 0; NaS and Wide are modes
	// 00 and 01.
	Family *hdl.Signal `doc:"[FW-1:0] layout family: fam(stride) in modes 1x, else 0"`
	NaS    *hdl.Signal `doc:"1 in mode 00: the NaS layout"`
	Wide   *hdl.Signal `doc:"1 in mode 01: a wide-port access"`
}

// Build makes the AGU module called name.
func (p AGU) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the AGU module called name and returns its ports.
func (p AGU) WithPorts(name string) (*hdl.Module, AGUPorts) {
	m := hdl.NewModule(name)
	in := m.InputFields("")
	ports := AGUPorts{Base: in("base", p.N), Stride: in("stride", p.N), Mode: in("mode", 2)}
	addrs, family, nas, wide := p.generate(m, ports.Base, ports.Stride, ports.Mode)
	out := m.OutputFields("")
	ports.Addr = out.Vec("addr", len(addrs), p.N)
	ports.Family, ports.NaS, ports.Wide = out("family", FamilyWidth(p.N, p.Q)), out("nas", 1), out("wide", 1)
	hdl.DriveRecord(ports.Addr, addrs)
	hdl.DriveRecord([]*hdl.Signal{ports.Family, ports.NaS, ports.Wide}, []*hdl.Signal{family, nas, wide})
	p.properties(m, ports, family, nas, wide)
	return m, ports
}

// properties states the family of modes 1x, fam(stride) = min(trailing
// zeros, n-q) (section 4.4.1), in other words than famLogic's priority
// encoder: the stride's bits below it are 0, and it is n-q or the
// stride's bit there is 1; in modes 0x it is 0. NaS and Wide are modes 00
// and 01 (Table 4.1).
func (p AGU) properties(m *hdl.Module, ports AGUPorts, family, nas, wide *hdl.Signal) {
	n, mode, stride := p.N, ports.Mode, ports.Stride
	top := m.ConstU(family.Width(), uint64(n-p.Q))
	below := m.ConstU(n, 1).ShlBy(family).Sub(m.ConstU(n, 1))
	fam := family.Le(top).And(stride.And(below).EqConst(0)).And(family.Eq(top).Or(stride.ShrBy(family).Bit(0)))
	m.Assert(hdl.Mux(mode.Bit(1), fam, family.EqConst(0)), "family_is_fam_stride", "the family is not fam(stride) in modes 1x, 0 otherwise (section 4.4.1)")
	m.Assert(nas.Eq(mode.EqConst(0)).And(wide.Eq(mode.EqConst(1))), "mode_decode", "NaS is not mode 00 or Wide not mode 01 (Table 4.1)")
}
