package hdl

// Stream is a valid/ready channel whose direction is part of its type:
// Valid and Payload flow from the producer to the consumer, Ready flows
// back. One transfer happens at each rising clock edge where Valid and
// Ready are both 1 (Amaranth's lib.stream, Chisel's Decoupled). Payload is
// a record; a module's ports are named <prefix>_valid, <prefix>_ready and
// the payload's <prefix>_<field>.
type Stream[P any] struct {
	Valid   *Signal `doc:"valid: the payload is offered"`
	Ready   *Signal `doc:"ready: taken at an edge where valid"`
	Payload P
}

// Transfer is 1 in a cycle whose rising edge moves the payload: Valid and
// Ready both 1.
func (s Stream[P]) Transfer() *Signal { return s.Valid.And(s.Ready) }

// InStream makes m the consumer of a stream: inputs <prefix>_valid and the
// payload made by payload from m.InputFields(prefix), output
// <prefix>_ready, declared in the order valid, ready, payload.
func InStream[P any](m *Module, prefix string, payload func(Fields) P) Stream[P] {
	f := m.InputFields(prefix)
	s := Stream[P]{Valid: f("valid", 1), Ready: m.OutputFields(prefix)("ready", 1)}
	s.Payload = payload(f)
	return s
}

// OutStream makes m the producer of a stream: outputs <prefix>_valid and
// the payload made by payload from m.OutputFields(prefix), input
// <prefix>_ready, declared in the order valid, ready, payload. Drive (or
// Set) Valid and the payload; read Ready.
func OutStream[P any](m *Module, prefix string, payload func(Fields) P) Stream[P] {
	f := m.OutputFields(prefix)
	s := Stream[P]{Valid: f("valid", 1), Ready: m.InputFields(prefix)("ready", 1)}
	s.Payload = payload(f)
	return s
}

// Connect joins a producer's stream to a consumer's: to's Valid and
// payload are driven by from's, and from's Ready by to's. The driven
// signals must be wires or outputs that nothing drives yet (the inputs of
// an instance placed with Use, a module's own output ports); which ones
// they are follows from the type, never from what happens to be undriven.
func Connect[P any](from, to Stream[P]) {
	pos := callerPos()
	drive := func(dst, src *Signal) { driveOnce(pos, "Connect", dst, src) }
	pairwise(pos, "Connect", forward[P]{to.Valid, to.Payload}, forward[P]{from.Valid, from.Payload}, drive)
	pairwise(pos, "Connect", from.Ready, to.Ready, drive)
}

// forward is the part of a stream that flows from producer to consumer.
type forward[P any] struct {
	Valid   *Signal
	Payload P
}

// driveOnce drives dst with src where dst is an undriven wire or output,
// and records at pos why not otherwise.
func driveOnce(pos Pos, op string, dst, src *Signal) {
	if !dst.drivable() {
		dst.mod.errorf(pos, "%s: %s cannot be driven: it is not a wire or output that nothing drives yet", op, dst.describe())
		return
	}
	dst.drive(pos, src)
}

// drivable reports whether s is a wire or output that nothing drives yet.
func (s *Signal) drivable() bool {
	return (s.kind == OpWire || s.kind == OpOutput) && s.args[0] == nil && !s.mod.isSetTarget(s)
}
