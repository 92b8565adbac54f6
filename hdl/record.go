package hdl

import (
	"fmt"
	"reflect"
	"strings"
)

// Records (bundles): a Go struct whose exported fields are signals, used as
// a port group, a channel or a register set. A record type lists its fields
// once, in a function that makes each field with a Fields maker:
//
//	type Req struct{ Write, Addr, Data *hdl.Signal }
//
//	func (p Mem) req(f hdl.Fields) Req {
//		return Req{Write: f("write", 1), Addr: f("addr", p.N), Data: f("data", p.W)}
//	}
//
//	in := p.req(m.InputFields("req"))     // ports req_write, req_addr, req_data
//	r1 := p.req(m.RegFields("r1"))        // registers r1_write, r1_addr, r1_data
//	lane := p.req(m.InputFields("req", 3)) // ports req_write_3, ... (lane 3)
//
// Names follow one rule: <prefix>_<field>, and <prefix>_<field>_<i> for lane
// i; an empty prefix or field drops its part ("addr_3", "tag_0").
//
// The record functions below (Signals, MapRecord, Select, Mux, SetRecord,
// DriveRecord, Use, Pack, Unpack; Connect for streams) walk a record's exported fields in
// declaration order. A field may be a *Signal, a []*Signal, a nested record
// (struct or pointer to struct), or a slice or array of records; a plain
// *Signal is a record of one field. Any other exported field is a mistake,
// reported like every other construction error. Unexported fields are
// ignored, so a record may carry its own parameters.

// Fields makes one field of a record: a signal called name (joined to the
// maker's prefix and lane) of the given width.
type Fields func(name string, width int) *Signal

// Vec makes a vector field: n signals of one width, the lanes of one
// port or register, named as the lanes of a record are:
// <prefix>_<name>_<i> (<name>_<i> without a prefix), for i from 0.
func (f Fields) Vec(name string, n, width int) []*Signal {
	v := make([]*Signal, n)
	for i := range v {
		v[i] = f(fmt.Sprintf("%s_%d", name, i), width)
	}
	return v
}

// fieldName joins a prefix, a field name and an optional lane index.
func fieldName(prefix, field string, lane []int) string {
	parts := make([]string, 0, 3)
	for _, p := range []string{prefix, field} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(lane) > 0 {
		parts = append(parts, fmt.Sprint(lane[0]))
	}
	return strings.Join(parts, "_")
}

// fields builds a Fields maker from a signal constructor; a second lane
// index is an error at the caller's line.
func (m *Module) fields(what, prefix string, lane []int, make func(name string, width int, pos Pos) *Signal) Fields {
	pos := callerPos()
	if len(lane) > 1 {
		m.errorf(pos, "%s %q: one lane index at most, got %v", what, prefix, lane)
		lane = lane[:1]
	}
	return func(name string, width int) *Signal {
		return make(fieldName(prefix, name, lane), width, callerPos())
	}
}

// InputFields makes record fields as input ports <prefix>_<field>[_<lane>].
func (m *Module) InputFields(prefix string, lane ...int) Fields {
	return m.fields("InputFields", prefix, lane, func(name string, width int, pos Pos) *Signal {
		s := m.add(pos, OpInput, width, name)
		m.inputs = append(m.inputs, s)
		return s
	})
}

// OutputFields makes record fields as output ports; drive each (or the
// whole record with DriveRecord or SetRecord).
func (m *Module) OutputFields(prefix string, lane ...int) Fields {
	return m.fields("OutputFields", prefix, lane, func(name string, width int, pos Pos) *Signal {
		s := m.add(pos, OpOutput, width, name, nil)
		m.outputs = append(m.outputs, s)
		return s
	})
}

// RegFields makes record fields as registers that reset to zero.
func (m *Module) RegFields(prefix string, lane ...int) Fields {
	return m.fields("RegFields", prefix, lane, func(name string, width int, pos Pos) *Signal {
		s := m.add(pos, OpReg, width, name, nil, nil)
		s.val = Zero(s.width)
		return s
	})
}

// RegInitFields makes record fields as registers, each with its own reset
// value (its width is the value's): the lanes of a table that resets to
// its index, say.
func (m *Module) RegInitFields(prefix string, lane ...int) func(name string, init Bits) *Signal {
	pos := callerPos()
	if len(lane) > 1 {
		m.errorf(pos, "RegInitFields %q: one lane index at most, got %v", prefix, lane)
		lane = lane[:1]
	}
	return func(name string, init Bits) *Signal {
		return m.regInit(callerPos(), fieldName(prefix, name, lane), init)
	}
}

// WireFields makes record fields as wires.
func (m *Module) WireFields(prefix string, lane ...int) Fields {
	return m.fields("WireFields", prefix, lane, func(name string, width int, pos Pos) *Signal {
		return m.add(pos, OpWire, width, name, nil)
	})
}

var signalType = reflect.TypeOf((*Signal)(nil))

// recordWalker flattens records to their signals and rebuilds records from
// signal lists. The first problem found is kept in err.
type recordWalker struct {
	err error
}

func (w *recordWalker) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf(format, args...)
	}
}

// flatten appends the signals of v, a record value, in field order.
func (w *recordWalker) flatten(v reflect.Value, path string, out []*Signal) []*Signal {
	switch {
	case v.Type() == signalType:
		return append(out, v.Interface().(*Signal))
	case v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct:
		if v.IsNil() {
			w.fail("record field %s is a nil pointer", path)
			return out
		}
		return w.flatten(v.Elem(), path, out)
	case v.Kind() == reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if f.IsExported() {
				out = w.flatten(v.Field(i), joinPath(path, f.Name), out)
			}
		}
		return out
	case v.Kind() == reflect.Slice || v.Kind() == reflect.Array:
		for i := range v.Len() {
			out = w.flatten(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
		return out
	}
	w.fail("record field %s is a %s; records hold *hdl.Signal, []*hdl.Signal and nested records", path, v.Type())
	return out
}

// rebuild returns a copy of template (a record value) whose signals are
// taken, in field order, from sigs.
func (w *recordWalker) rebuild(template reflect.Value, sigs *[]*Signal) reflect.Value {
	t := template.Type()
	switch {
	case t == signalType:
		s := (*sigs)[0]
		*sigs = (*sigs)[1:]
		return reflect.ValueOf(s)
	case t.Kind() == reflect.Pointer:
		if template.IsNil() {
			return template
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(w.rebuild(template.Elem(), sigs))
		return p
	case t.Kind() == reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(template) // unexported fields keep their values
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				out.Field(i).Set(w.rebuild(template.Field(i), sigs))
			}
		}
		return out
	case t.Kind() == reflect.Slice:
		if template.IsNil() {
			return template
		}
		out := reflect.MakeSlice(t, template.Len(), template.Len())
		for i := range template.Len() {
			out.Index(i).Set(w.rebuild(template.Index(i), sigs))
		}
		return out
	case t.Kind() == reflect.Array:
		out := reflect.New(t).Elem()
		for i := range template.Len() {
			out.Index(i).Set(w.rebuild(template.Index(i), sigs))
		}
		return out
	}
	return template // unreachable for a template flatten accepted
}

// signalsOf flattens rec and reports a bad record at pos in the module of
// its first signal; without any signal to blame it panics, since there is
// no module to record the problem in.
func signalsOf(pos Pos, op string, rec any) ([]*Signal, bool) {
	if rec == nil {
		panic(fmt.Sprintf("hdl: %s at %s: the record is nil", op, pos))
	}
	var w recordWalker
	sigs := w.flatten(reflect.ValueOf(rec), reflect.TypeOf(rec).String(), nil)
	if w.err == nil {
		for i, s := range sigs {
			if s == nil {
				w.fail("signal %d of the record is nil", i+1)
				break
			}
		}
	}
	if w.err != nil {
		for _, s := range sigs {
			if s != nil {
				s.mod.errorf(pos, "%s: %v", op, w.err)
				return nil, false
			}
		}
		panic(fmt.Sprintf("hdl: %s at %s: %v", op, pos, w.err))
	}
	return sigs, true
}

// Signals returns the signals of a record in field order.
func Signals(rec any) []*Signal {
	sigs, _ := signalsOf(callerPos(), "Signals", rec)
	return sigs
}

// MapRecord returns a record of the same type whose every signal is f of
// the corresponding signal of rec.
func MapRecord[T any](rec T, f func(*Signal) *Signal) T {
	pos := callerPos()
	sigs, ok := signalsOf(pos, "MapRecord", rec)
	if !ok {
		return rec
	}
	out := make([]*Signal, len(sigs))
	for i, s := range sigs {
		out[i] = f(s)
	}
	return withSignals(pos, "MapRecord", rec, out)
}

// withSignals rebuilds rec with sigs in place of its signals. A nil result
// of a record function is recorded as an error and keeps the old signal.
func withSignals[T any](pos Pos, op string, rec T, sigs []*Signal) T {
	old, _ := signalsOf(pos, op, rec)
	for i, s := range sigs {
		if s == nil {
			old[i].mod.errorf(pos, "%s: the result for %s is nil", op, old[i].describe())
			sigs[i] = old[i]
		}
	}
	var w recordWalker
	return w.rebuild(reflect.ValueOf(rec), &sigs).Interface().(T)
}

// zipRecords flattens records that must have the same shape: the same
// number of signals with equal widths.
func zipRecords(pos Pos, op string, recs ...any) ([][]*Signal, bool) {
	flat := make([][]*Signal, len(recs))
	for i, r := range recs {
		sigs, ok := signalsOf(pos, op, r)
		if !ok {
			return nil, false
		}
		flat[i] = sigs
	}
	for i := 1; i < len(flat); i++ {
		if len(flat[i]) != len(flat[0]) {
			m := flat[0][0].mod
			m.errorf(pos, "%s: records differ in shape (%d and %d signals)", op, len(flat[0]), len(flat[i]))
			return nil, false
		}
		for j, s := range flat[i] {
			if s.width != flat[0][j].width {
				s.mod.errorf(pos, "%s: field %d is %d bits in one record and %d in the other (%s, %s)", op, j+1, flat[0][j].width, s.width, flat[0][j].describe(), s.describe())
				return nil, false
			}
		}
	}
	return flat, true
}

// MuxRecord is ifTrue when the one-bit sel is 1, else ifFalse, field by field.
func MuxRecord[T any](sel *Signal, ifTrue, ifFalse T) T {
	pos := callerPos()
	flat, ok := zipRecords(pos, "MuxRecord", ifTrue, ifFalse)
	if !ok {
		return ifTrue
	}
	out := make([]*Signal, len(flat[0]))
	for i := range out {
		out[i] = muxAt(pos, sel, flat[0][i], flat[1][i])
	}
	return withSignals(pos, "MuxRecord", ifTrue, out)
}

// SelectRecord returns choices[index], field by field; an index beyond the
// choices gives zeros.
func SelectRecord[T any](index *Signal, choices ...T) T {
	pos := callerPos()
	if len(choices) == 0 {
		if index != nil {
			index.mod.errorf(pos, "SelectRecord: no choices")
		}
		var zero T
		return zero
	}
	recs := make([]any, len(choices))
	for i, c := range choices {
		recs[i] = c
	}
	flat, ok := zipRecords(pos, "SelectRecord", recs...)
	if !ok {
		return choices[0]
	}
	out := make([]*Signal, len(flat[0]))
	for i := range out {
		col := make([]*Signal, len(flat))
		for j := range flat {
			col[j] = flat[j][i]
		}
		out[i] = nway(pos, "SelectRecord", OpSelect, index, col)
	}
	return withSignals(pos, "SelectRecord", choices[0], out)
}

// DriveRecord drives every field of dst (wires, outputs or registers) with
// the corresponding field of src.
func DriveRecord[T any](dst, src T) {
	pos := callerPos()
	pairwise(pos, "DriveRecord", dst, src, func(d, s *Signal) { d.drive(pos, s) })
}

// pairwise calls f on each pair of corresponding fields of a and b.
func pairwise[T any](pos Pos, op string, a, b T, f func(x, y *Signal)) {
	flat, ok := zipRecords(pos, op, a, b)
	if !ok {
		return
	}
	for i, x := range flat[0] {
		f(x, flat[1][i])
	}
}

// SetRecord assigns every field of src to the corresponding field of dst
// under the current condition (see Module.If).
func SetRecord[T any](dst, src T) {
	pos := callerPos()
	pairwise(pos, "SetRecord", dst, src, func(d, s *Signal) { d.set(pos, s) })
}

// Use places an instance of sub called name in m and returns its ports as
// a record of m's signals, of the same type as ports (sub's own port
// record): each input of sub becomes a wire of m named <name>_<port>, to be
// driven (Drive, Set, DriveRecord, Connect), and each output a signal of m named
// <name>_<port> that reads it.
func Use[T any](m *Module, name string, sub *Module, ports T) T {
	pos := callerPos()
	inst := m.instance(pos, name, sub)
	sigs, ok := signalsOf(pos, "Use", ports)
	if !ok {
		return ports
	}
	out := make([]*Signal, len(sigs))
	for i, p := range sigs {
		local := fieldName(name, p.name, nil)
		switch {
		case p.mod != sub:
			m.errorf(pos, "Use %s: %s is not a port of module %s", name, p.describe(), sub.name)
			out[i] = placeholder(m, pos, p.width)
		case p.kind == OpInput:
			w := m.add(pos, OpWire, p.width, local, nil)
			inst.conns = append(inst.conns, conn{port: p.name, sig: w, pos: pos})
			out[i] = w
		case p.kind == OpOutput:
			o := inst.out(pos, p.name)
			out[i] = o.Named(local)
		default:
			m.errorf(pos, "Use %s: %s is not a port of module %s", name, p.describe(), sub.name)
			out[i] = placeholder(m, pos, p.width)
		}
	}
	return withSignals(pos, "Use", ports, out)
}

// ModuleOf is the module of a block's WithPorts(name) (a module and its
// port record), for a Build that returns the module alone:
//
//	func (b Block) Build(name string) *hdl.Module { return hdl.ModuleOf(b.WithPorts(name)) }
//
// It also gives m's ports the docs of the record's fields (see DocPorts).
func ModuleOf[P any](m *Module, ports P) *Module {
	DocPorts(m, ports)
	return m
}

// DocPorts gives the ports of m in the record ports the text of their
// fields' `doc` tags, which Signal.Doc returns and gen -portlist prints. A
// nested record's tag leads its fields' ("request: valid"); the lanes of a
// vector field share its doc. A port keeps the first doc it is given.
//
//	type Ports struct {
//		Addr []*hdl.Signal `doc:"[n-1:0] address of lane i (Eq. 3.1)"`
//		Req  hdl.Stream[Req] `doc:"request"`
//	}
func DocPorts[P any](m *Module, ports P) {
	var walk func(v reflect.Value, doc string)
	walk = func(v reflect.Value, doc string) {
		switch {
		case v.Type() == signalType:
			if s := v.Interface().(*Signal); s != nil && s.mod == m && s.doc == "" && (s.kind == OpInput || s.kind == OpOutput) {
				s.doc = doc
			}
		case v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct && !v.IsNil():
			walk(v.Elem(), doc)
		case v.Kind() == reflect.Struct:
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() {
					walk(v.Field(i), joinDoc(doc, f.Tag.Get("doc")))
				}
			}
		case v.Kind() == reflect.Slice || v.Kind() == reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), doc)
			}
		}
	}
	walk(reflect.ValueOf(ports), "")
}

// joinDoc puts a field's doc after its record's.
func joinDoc(outer, inner string) string {
	switch {
	case outer == "":
		return inner
	case inner == "":
		return outer
	}
	return outer + ": " + inner
}

// ConnectRecord connects the inputs of an instance given as a record of
// the sub-module's input ports (ports) to the parent's signals of the same
// record type (from): one call instead of one Connect per field.
func ConnectRecord[T any](inst *Instance, ports, from T) {
	pos := callerPos()
	if inst == nil {
		return
	}
	subs, ok := signalsOf(pos, "ConnectRecord", ports)
	if !ok {
		return
	}
	srcs, ok := signalsOf(pos, "ConnectRecord", from)
	if !ok {
		return
	}
	m := inst.parent
	if len(subs) != len(srcs) {
		m.errorf(pos, "ConnectRecord %s: the records differ in shape (%d and %d signals)", inst.name, len(subs), len(srcs))
		return
	}
	for i, p := range subs {
		switch {
		case p.mod != inst.sub || p.kind != OpInput:
			m.errorf(pos, "ConnectRecord %s: %s is not an input of module %s", inst.name, p.describe(), inst.sub.name)
		case srcs[i].mod != m:
			m.errorf(pos, "ConnectRecord %s: input %q connected to a signal of module %s", inst.name, p.name, srcs[i].mod.name)
		default:
			inst.conns = append(inst.conns, conn{port: p.name, sig: srcs[i], pos: pos})
		}
	}
}

// OutRecord reads the outputs of an instance given as a record of the
// sub-module's output ports, and returns them as the parent's signals in a
// record of the same type.
func OutRecord[T any](inst *Instance, ports T) T {
	pos := callerPos()
	subs, ok := signalsOf(pos, "OutRecord", ports)
	if !ok || inst == nil {
		return ports
	}
	out := make([]*Signal, len(subs))
	for i, p := range subs {
		if p.mod != inst.sub || p.kind != OpOutput {
			inst.parent.errorf(pos, "OutRecord %s: %s is not an output of module %s", inst.name, p.describe(), inst.sub.name)
			out[i] = placeholder(inst.parent, pos, p.width)
			continue
		}
		out[i] = inst.out(pos, p.name)
	}
	return withSignals(pos, "OutRecord", ports, out)
}

// Pack concatenates the fields of a record into one signal, the first
// field in the most significant bits (as Concat).
func Pack(rec any) *Signal {
	pos := callerPos()
	sigs, ok := signalsOf(pos, "Pack", rec)
	if !ok || len(sigs) == 0 {
		return nil
	}
	return concatAt(pos, sigs)
}

// Unpack splits s into a record shaped like shape (the same type and
// widths), the inverse of Pack.
func Unpack[T any](s *Signal, shape T) T {
	pos := callerPos()
	sigs, ok := signalsOf(pos, "Unpack", shape)
	if !ok || s == nil {
		return shape
	}
	total := 0
	for _, f := range sigs {
		total += f.width
	}
	if total != s.width {
		s.mod.errorf(pos, "Unpack: the record has %d bits but the signal %d", total, s.width)
		return shape
	}
	out := make([]*Signal, len(sigs))
	hi := s.width - 1
	for i, f := range sigs {
		out[i] = slice(s.mod, pos, s, hi, hi-f.width+1)
		hi -= f.width
	}
	return withSignals(pos, "Unpack", shape, out)
}

// RecordWidth is the total width of a record's signals.
func RecordWidth(rec any) int {
	sigs, _ := signalsOf(callerPos(), "RecordWidth", rec)
	w := 0
	for _, s := range sigs {
		w += s.width
	}
	return w
}
