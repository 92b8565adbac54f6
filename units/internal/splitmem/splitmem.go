// Package splitmem is the pipeline the SAMS multi-layout memory
// (units/sams, thesis Fig. 4.5b) and the 2DSMM memory (units/smm2d,
// thesis section 3.4.2) share around their banks, for a request whose
// lanes conflict in the banks and is served in conflict-free sub-accesses
// (DESIGN.md, sams and smm2d: "timing"):
//
//	handshake  a channel is ready while stage 1 does not stall
//	stage 1    the request being served: r1_valid, r1_write, the lanes
//	           still waiting for a sub-access (pending) and whether this
//	           is its first sub-access (first); it stays while lanes wait
//	           after this cycle's sub-access (conflict_stall)
//	stage 2    the sub-access one cycle on, as its read data leaves the
//	           banks: s2_read, s2_first, s2_last, s2_served
//	responses  a read collects its lanes over its sub-accesses and answers
//	           after the last (resp_valid, resp_rdata_<k>); masked lanes
//	           read 0
//
// It is built into the memory's own module, between the memory's parts:
// each memory adds what differs (its request's other fields, the address
// transformation, the choice of a sub-access's lanes, the banks and the
// routing of lanes to banks and back). A read accepted at a clock edge is
// answered three edges later (stage 1, stage 2, the response registers).
package splitmem

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// Pipeline is a split-access memory's stage 1 and this cycle's
// sub-access. Valid, Write, Pending and First are stage 1's registers,
// loaded by Accept; Served, Remaining and Stall are set by Split.
type Pipeline struct {
	m *hdl.Module
	// take and write are Accept's, answered is the response port's valid
	// (Respond): what the properties count.
	take, write, answered *hdl.Signal

	Valid, Write, Pending, First *hdl.Signal
	// Served[L-1:0] are the lanes this cycle's sub-access serves,
	// Remaining those still waiting after it; Stall (conflict_stall) is 1
	// while any is, and holds the request in stage 1.
	Served, Remaining, Stall *hdl.Signal
}

// Stage2 is a sub-access one cycle after stage 1: whether its request
// reads, whether it is the request's first and last sub-access, and the
// lanes it served.
type Stage2 struct {
	Read, First, Last, Served *hdl.Signal
}

// New declares stage 1 of a memory of lanes lanes in m, and
// conflict_stall, which the memory may read before Split drives it.
func New(m *hdl.Module, lanes int) *Pipeline {
	return &Pipeline{
		m:     m,
		Valid: m.Reg("r1_valid", 1), Write: m.Reg("r1_write", 1),
		Pending: m.Reg("pending", lanes), First: m.Reg("first", 1),
		Stall: m.Wire("conflict_stall", 1),
	}
}

// Split takes served, the lanes of Pending this cycle's sub-access serves
// (one bit each); the lanes left wait for the next cycle. Pending is 0
// unless stage 1 holds a request with lanes waiting, so no other term
// decides the stall.
func (p *Pipeline) Split(served []*hdl.Signal) {
	p.Served = lib.Bus(served).Named("served")
	p.Remaining = p.Pending.And(p.Served.Not())
	p.Stall.Drive(p.Remaining.RedOr())
}

// Offer is the handshake of the channel called name: it is ready while
// stage 1 does not stall and yield (a channel that goes first; nil for
// none) is 0. It returns the take, valid and ready both 1, and the
// output port name_ready.
func (p *Pipeline) Offer(name string, valid, yield *hdl.Signal) (take, ready *hdl.Signal) {
	r := p.Stall.Not()
	if yield != nil {
		r = p.Stall.Or(yield).Not()
	}
	ready = p.m.OutputFields(name)("ready", 1)
	ready.Drive(r)
	return valid.And(r), ready
}

// Accept loads stage 1: a stalled request stays with its remaining
// lanes; otherwise take (a request accepted) brings a new one whose
// req_write is write and whose lanes waiting is waiting (0 when none is
// taken or the request has no sub-accesses). The memory loads its own
// fields of the request under take.
func (p *Pipeline) Accept(take, write, waiting *hdl.Signal) {
	p.take, p.write = take, write
	p.Valid.Drive(p.Stall.Or(take))
	p.m.If(take, func() { p.Write.Set(write) })
	p.m.If(p.Stall, func() {
		p.Pending.Set(p.Remaining)
	}).Else(func() {
		p.Pending.Set(waiting)
	})
	p.First.Drive(p.Stall.Not())
}

// Stage2 registers the sub-access for the cycle its read data leaves the
// banks.
func (p *Pipeline) Stage2() Stage2 {
	m := p.m
	s2 := Stage2{Read: m.Reg("s2_read", 1), First: m.Reg("s2_first", 1), Last: m.Reg("s2_last", 1), Served: m.Reg("s2_served", p.Pending.Width())}
	s2.Read.Drive(p.Valid.And(p.Write.Not()))
	s2.First.Drive(p.First)
	s2.Last.Drive(p.Stall.Not())
	s2.Served.Drive(p.Served)
	return s2
}

// Respond is the responses: in a cycle where read (the stage-2 sub-access
// is one of a read the response port answers) is 1, each lane the
// sub-access served takes its read data (data[k], lane k's, from the
// outbound path) and the first sub-access clears the others, so that
// masked lanes read 0; the last sub-access answers. A lane's register
// holds otherwise. It returns the response ports, resp_valid and
// resp_rdata_<k>.
func (p *Pipeline) Respond(s2 Stage2, read *hdl.Signal, data []*hdl.Signal) Response {
	m := p.m
	valid := m.Reg("resp_valid_q", 1)
	valid.Drive(read.And(s2.Last))
	resp := Response{Valid: m.OutputFields("resp")("valid", 1)}
	resp.Valid.Drive(valid)
	p.answered = valid
	w := data[0].Width()
	zero := m.ConstU(w, 0)
	for k, d := range data {
		coll := m.RegFields("resp", k)("rdata_q", w)
		m.If(read, func() {
			m.If(s2.Served.Bit(k), func() {
				coll.Set(d)
			}).Elif(s2.First, func() {
				coll.Set(zero)
			})
		})
		resp.Rdata = append(resp.Rdata, m.OutputFields("resp", k)("rdata", w))
		resp.Rdata[k].Drive(coll)
	}
	return resp
}

// depth is the reads the pipeline holds at most: one in stage 1, one in
// stage 2 and one in the response registers.
const depth = 3

// Properties states what the pipeline promises (DESIGN.md, sams and
// smm2d: "timing") and covers its cases; call it after Accept and
// Respond. s2 is Stage2's registers; others are the valid registers of
// the memory's other response ports (the SAMS wide port's), each 1 in a
// cycle it shows a response to a read the pipeline carried.
//
// A ghost counter keeps the reads accepted minus the responses shown: no
// response is shown without a read outstanding, at most depth reads are
// outstanding, and they are exactly the reads the stages hold (which
// makes the count inductive). Lanes wait only in a request stage 1 holds;
// a sub-access serves only waiting lanes and, while any wait, at least
// one, so a conflicting access ends.
func (p *Pipeline) Properties(s2 Stage2, others ...*hdl.Signal) {
	m := p.m
	const cw = 3 // holds depth and one more
	one := func(b *hdl.Signal) *hdl.Signal { return b.Zext(cw) }
	shown := one(p.answered)
	for _, o := range others {
		shown = shown.Add(one(o))
	}
	ghost := m.Reg("ghost_reads", cw)
	ghost.Drive(ghost.Add(one(p.take.And(p.write.Not()))).Sub(shown))
	held := one(p.Valid.And(p.Write.Not())).Add(one(s2.Read.And(s2.Last))).Add(shown)
	m.Assert(ghost.Ge(shown), "response_answers_a_read", "a response is shown only for a read accepted and not yet answered")
	m.Assert(ghost.Le(m.ConstU(cw, depth)), "at_most_depth_reads", "at most three reads (stage 1, stage 2, the response registers) are outstanding")
	m.Assert(ghost.Eq(held), "reads_in_flight", "the reads outstanding are the reads stage 1, stage 2 and the response registers hold")
	m.Assert(p.Pending.RedOr().Not().Or(p.Valid), "lanes_wait_in_stage1", "lanes wait only in a request stage 1 holds")
	m.Assert(p.Served.And(p.Pending.Not()).RedOr().Not(), "serves_waiting_lanes", "a sub-access serves only lanes still waiting")
	m.Assert(p.Pending.RedOr().Not().Or(p.Served.RedOr()), "sub_access_progresses", "while lanes wait, a sub-access serves at least one")
	m.Cover(p.answered, "response")
}

// CoverConflicts covers the splitter's stall, for a memory whose accesses
// can conflict: a request's first sub-access leaves lanes waiting
// (conflict), and a later one does too (long_conflict: three sub-accesses
// or more).
func (p *Pipeline) CoverConflicts() {
	p.m.Cover(p.Stall.And(p.First), "conflict")
	p.m.Cover(p.Stall.And(p.First.Not()), "long_conflict")
}

// Response is the response channel's ports: valid, and each lane's read
// data (no back-pressure).
type Response struct {
	Valid *hdl.Signal   `doc:"valid"`
	Rdata []*hdl.Signal `doc:"[w-1:0] read data of lane i"`
}
