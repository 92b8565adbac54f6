package smm2d

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// Route is the address and data routing unit (thesis section 3.4.2,
// Figures 3.14-3.16): two stages of small crossbars instead of a full L x L
// one; RoutePorts are its ports: inward lanes' data in and banks' out,
// outward (Out) the reverse.
//
// Lane k sits at (a, c) of the 2^p x 2^q access array (Theorem 7). The
// column path (crow = 0) first moves each lane along its access row to
// column m_h (a 2^q-input AND-OR per place), then along that column to row
// m_v (2^p inputs); the row path (crow = 1, the continuous row) moves
// along the access column to row m_v first, then along the row to column
// m_h; a 2-input multiplexer picks the path. Each lane carries its own m_v
// (m_h on the row path) into the second stage, so the router also serves
// any subset of lanes of which no two meet in a stage (the memory's
// sub-accesses, model.go); under Theorem 7's grouping (ok) that is every
// lane. The outward path is the inverse: the lane's second-stage place
// reads the bank, the lane reads its place.
type Route struct {
	Geometry
	W   int
	Out bool // outward: banks to lanes
}

// laneInfo is what the router knows of each lane: its module indices and
// whether it takes part (nil: every lane does).
type laneInfo struct {
	MV, MH []*hdl.Signal
	En     []*hdl.Signal
}

// enabled is lane k's data, or 0 when the lane is not enabled.
func (li laneInfo) enabled(k int, x *hdl.Signal) *hdl.Signal {
	if li.En == nil {
		return x
	}
	return x.And(li.En[k].Repl(x.Width()))
}

// paths holds the decoded module indices of every lane: mvIs[k][v] is 1
// when lane k's m_v is v (and the lane is enabled), mhIs likewise.
type paths struct {
	Geometry
	mvIs, mhIs [][]*hdl.Signal
}

func (r Route) decode(li laneInfo) paths {
	ps := paths{Geometry: r.Geometry}
	for k := range r.Lanes() {
		mv, mh := lib.Split(lib.BinaryToOneHot(li.MV[k], 1<<uint(r.P))), lib.Split(lib.BinaryToOneHot(li.MH[k], 1<<uint(r.Q)))
		if li.En != nil {
			for v := range mv {
				mv[v] = mv[v].And(li.En[k])
			}
			for h := range mh {
				mh[h] = mh[h].And(li.En[k])
			}
		}
		ps.mvIs, ps.mhIs = append(ps.mvIs, mv), append(ps.mhIs, mh)
	}
	return ps
}

// stage is one crossbar stage on the 2^p x 2^q array: each place
// (a, c) of the output ORs the inputs of its line whose destination
// select is 1. byRow moves along access rows (to column dest), else along
// columns (to row dest). sel(k, x) is 1 when input k goes to x.
func (ps paths) stage(in []*hdl.Signal, byRow bool, sel func(k, x int) *hdl.Signal) []*hdl.Signal {
	rows, cols := 1<<uint(ps.P), 1<<uint(ps.Q)
	out := make([]*hdl.Signal, len(in))
	for a := range rows {
		for c := range cols {
			var from []int // the inputs on the line of (a, c)
			if byRow {
				for c2 := range cols {
					from = append(from, a*cols+c2)
				}
			} else {
				for a2 := range rows {
					from = append(from, a2*cols+c)
				}
			}
			dest := c
			if !byRow {
				dest = a
			}
			sels, data := make([]*hdl.Signal, len(from)), make([]*hdl.Signal, len(from))
			for i, k := range from {
				sels[i], data[i] = sel(k, dest), in[k]
			}
			out[a*cols+c] = hdl.OneHotSelect(lib.Bus(sels), data...)
		}
	}
	return out
}

// inward routes lane data to banks. Disabled lanes carry 0 into the OR
// planes.
func (r Route) inward(crow *hdl.Signal, li laneInfo, d []*hdl.Signal) []*hdl.Signal {
	return r.bothPaths(crow, li, d, r.twoStage)
}

// outward routes bank data to lanes: lane k reads bank (m_v, m_h) of its
// own.
func (r Route) outward(crow *hdl.Signal, li laneInfo, d []*hdl.Signal) []*hdl.Signal {
	return r.bothPaths(crow, li, d, r.backTwoStage)
}

// bothPaths builds a direction's column path and row path and picks one
// by crow (the third 2-input multiplexer of Table 3.2's critical path).
func (r Route) bothPaths(crow *hdl.Signal, li laneInfo, d []*hdl.Signal, path func(ps paths, li laneInfo, d []*hdl.Signal, rowFirst bool) []*hdl.Signal) []*hdl.Signal {
	ps := r.decode(li)
	column, row := path(ps, li, d, false), path(ps, li, d, true)
	out := make([]*hdl.Signal, len(d))
	for x := range out {
		out[x] = hdl.Mux(crow, row[x], column[x])
	}
	return out
}

// twoStage is one path of the inward router. The column path (rowFirst
// false) moves along access rows by m_h, carrying m_v, then along columns
// by the carried m_v; the row path the other way round.
func (r Route) twoStage(ps paths, li laneInfo, d []*hdl.Signal, rowFirst bool) []*hdl.Signal {
	firstIs, carried, carriedWidth := ps.mhIs, li.MV, r.P
	if rowFirst {
		firstIs, carried, carriedWidth = ps.mvIs, li.MH, r.Q
	}
	packets := make([]*hdl.Signal, len(d))
	for k := range d {
		packets[k] = li.enabled(k, hdl.Concat(carried[k], d[k]))
	}
	placed := ps.stage(packets, !rowFirst, func(k, x int) *hdl.Signal { return firstIs[k][x] })
	w := d[0].Width()
	index := make([][]*hdl.Signal, len(placed)) // the carried index decoded at each place
	data := make([]*hdl.Signal, len(placed))
	for k, pk := range placed {
		index[k] = lib.Split(lib.BinaryToOneHot(pk.Slice(w+carriedWidth-1, w), 1<<uint(carriedWidth)))
		data[k] = pk.Slice(w-1, 0)
	}
	return ps.stage(data, rowFirst, func(k, x int) *hdl.Signal { return index[k][x] })
}

// backTwoStage inverts twoStage: each first-stage place learns the index
// its lane carried (an OR plane of p or q bits), reads its bank by it, and
// each lane reads its place.
func (r Route) backTwoStage(ps paths, li laneInfo, d []*hdl.Signal, rowFirst bool) []*hdl.Signal {
	rows, cols := 1<<uint(r.P), 1<<uint(r.Q)
	firstIs, carried, own := ps.mhIs, li.MV, li.MH
	if rowFirst {
		firstIs, carried, own = ps.mvIs, li.MH, li.MV
	}
	carriedAt := ps.stage(carried, !rowFirst, func(k, x int) *hdl.Signal { return firstIs[k][x] })
	placeData := make([]*hdl.Signal, len(d))
	for a := range rows {
		for c := range cols {
			var banks []*hdl.Signal // the line the second stage moved along
			if rowFirst {
				for c2 := range cols {
					banks = append(banks, d[a*cols+c2])
				}
			} else {
				for a2 := range rows {
					banks = append(banks, d[a2*cols+c])
				}
			}
			placeData[a*cols+c] = hdl.Select(carriedAt[a*cols+c], banks...)
		}
	}
	out := make([]*hdl.Signal, len(d))
	for k := range out {
		a, c := r.LaneAt(k)
		var places []*hdl.Signal // the line the first stage moved along
		if rowFirst {
			for a2 := range rows {
				places = append(places, placeData[a2*cols+c])
			}
		} else {
			for c2 := range cols {
				places = append(places, placeData[a*cols+c2])
			}
		}
		out[k] = hdl.Select(own[k], places...)
	}
	return out
}

// grouping is Theorem 7's condition, smm2d-route's ok: on the column path
// every access column shares its top lane's m_h with distinct m_v and the
// top row's m_h are distinct; on the row path every access row shares its
// first lane's m_v with distinct m_h and those m_v are distinct.
func (r Route) grouping(crow *hdl.Signal, li laneInfo) *hdl.Signal {
	rows, cols := 1<<uint(r.P), 1<<uint(r.Q)
	at := func(a, c int) int { return a*cols + c }
	var column, row []*hdl.Signal
	distinct := func(into *[]*hdl.Signal, xs []*hdl.Signal) {
		for i := range xs {
			for j := i + 1; j < len(xs); j++ {
				*into = append(*into, xs[i].Ne(xs[j]))
			}
		}
	}
	var leadMH, leadMV []*hdl.Signal
	for c := range cols {
		leadMH = append(leadMH, li.MH[c])
		var mvs []*hdl.Signal
		for a := range rows {
			if a > 0 {
				column = append(column, li.MH[at(a, c)].Eq(li.MH[c]))
			}
			mvs = append(mvs, li.MV[at(a, c)])
		}
		distinct(&column, mvs)
	}
	distinct(&column, leadMH)
	for a := range rows {
		leadMV = append(leadMV, li.MV[at(a, 0)])
		var mhs []*hdl.Signal
		for c := range cols {
			if c > 0 {
				row = append(row, li.MV[at(a, c)].Eq(li.MV[at(a, 0)]))
			}
			mhs = append(mhs, li.MH[at(a, c)])
		}
		distinct(&row, mhs)
	}
	distinct(&row, leadMV)
	return hdl.Mux(crow, lib.Bus(row).RedAnd(), lib.Bus(column).RedAnd())
}

// RoutePorts are smm2d-route's ports (DESIGN.md, smm2d-route).
type RoutePorts struct {
	// Crow picks the row path (the continuous row, Figure 3.16).
	Crow *hdl.Signal `doc:"1: continuous-row grouping (Fig. 3.16)"`
	// Lanes are each lane's bank (m_v, m_h).
	Lanes []RouteLane `doc:"lane i"`
	// D is the data in (lanes inward, banks outward), Q the data out
	// (banks inward, lanes outward).
	D []*hdl.Signal `doc:"[w-1:0] lane i's data (with out: bank i's)"`
	Q []*hdl.Signal `doc:"[w-1:0] bank i's data (with out: lane i's)"`
	// OK is Theorem 7's grouping: every lane served in one pass.
	OK *hdl.Signal `doc:"Theorem 7's grouping holds: one pass serves all"`
}

// RouteLane is one lane's bank: m_v and m_h.
type RouteLane struct {
	MV *hdl.Signal `doc:"[p-1:0] m_v of its bank"`
	MH *hdl.Signal `doc:"[q-1:0] m_h of its bank"`
}

// Build makes the router module called name.
func (r Route) Build(name string) *hdl.Module { return hdl.ModuleOf(r.WithPorts(name)) }

// WithPorts makes the router module called name and returns its ports.
func (r Route) WithPorts(name string) (*hdl.Module, RoutePorts) {
	m := hdl.NewModule(name)
	ps := RoutePorts{Crow: m.Input("crow", 1)}
	var li laneInfo
	for k := range r.Lanes() {
		in := m.InputFields("", k)
		lane := RouteLane{MV: in("mv", r.P), MH: in("mh", r.Q)}
		li.MV, li.MH = append(li.MV, lane.MV), append(li.MH, lane.MH)
		ps.Lanes = append(ps.Lanes, lane)
	}
	ps.D = m.InputFields("").Vec("d", r.Lanes(), r.W)
	route := r.inward
	if r.Out {
		route = r.outward
	}
	q := route(ps.Crow, li, ps.D)
	ps.Q = m.OutputFields("").Vec("q", r.Lanes(), r.W)
	for x, qx := range q {
		ps.Q[x].Drive(qx)
	}
	ps.OK = m.Output("ok", 1)
	ps.OK.Drive(r.grouping(ps.Crow, li))
	return m, ps
}
