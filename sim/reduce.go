package sim

import "github.com/parmem/parmem/hdl"

// reduction is a reduction (an AND, OR or XOR of all bits) of a
// concatenation that nothing else reads: "any of these conditions", "all
// of these lanes" over a bus of per-entry bits (elastic-warpmask's history
// cache ORs buses of 256 and 512 bits, sams's ATU at q = 4 ANDs one of
// 120). The simulators reduce the
// concatenation's operands with a tree of bitwise operations instead (the
// bits of a concatenation's operands are its bits), then reduce the
// tree's result where the operands are wider than a bit: no word of the
// concatenation is built, and no value is wider than its widest operand
// (the compiled streams keep sixteen lanes a vector where every value
// fits 32 bits).
type reduction struct {
	parts []int32 // the concatenation's operands
	inner int32   // the first of the len(parts)-1 state words the tree's results take
}

// treeOp is the bitwise operation whose tree reduces a concatenation's
// operands as reduction k reduces its bits.
var treeOp = map[hdl.Op]hdl.Op{hdl.OpRedOr: hdl.OpOr, hdl.OpRedAnd: hdl.OpAnd, hdl.OpRedXor: hdl.OpXor}

// reductions finds the reductions to compute as trees: of a concatenation
// of more than 32 bits (a narrower one costs the interpreter one operation
// and fits a 32-bit lane as it is; compiled Go reads the bits of a bus of
// single bits anyway, gosrc.fuseSelects), read by reductions only,
// neither named nor an output, of operands of at most 64 bits (the narrow
// path's), where an operand that is itself such a concatenation, read by
// this one only, gives its operands; for an AND, operands of one width
// (zero-extending a narrower one would clear the AND of the bits it
// lacks).
func reductions(nl *hdl.Netlist) map[int32]*reduction {
	readers := make([]int, len(nl.Nodes))  // every read of a node
	reducers := make([]int, len(nl.Nodes)) // reads by a reduction
	for _, n := range nl.Nodes {
		for _, a := range n.Args {
			if a < 0 { // (a register without an enable)
				continue
			}
			readers[a]++
			if _, ok := treeOp[n.Op]; ok {
				reducers[a]++
			}
		}
		if n.Alias >= 0 {
			readers[n.Alias]++
		}
	}
	for _, p := range nl.Properties {
		readers[p.Node]++
	}
	for _, fm := range nl.Mems {
		for _, w := range fm.Writes {
			for _, x := range w {
				if x >= 0 {
					readers[x]++
				}
			}
		}
	}
	unseen := func(i int32) bool { return !nl.Nodes[i].Named && !nl.Nodes[i].TopOutput }
	// operands lists concatenation c's operands, and in place of one that
	// is a concatenation only c reads, that one's.
	var operands func(c int32) []int32
	operands = func(c int32) (parts []int32) {
		for _, a := range nl.Nodes[c].Args {
			if nl.Nodes[a].Op == hdl.OpConcat && unseen(a) && readers[a] == 1 {
				parts = append(parts, operands(a)...)
			} else {
				parts = append(parts, a)
			}
		}
		return parts
	}
	found := map[int32]*reduction{}
	for i, n := range nl.Nodes {
		c := n.Args
		if _, ok := treeOp[n.Op]; !ok || nl.Nodes[c[0]].Op != hdl.OpConcat || nl.Nodes[c[0]].Width <= 32 || !unseen(c[0]) || readers[c[0]] != reducers[c[0]] {
			continue
		}
		parts := operands(c[0])
		fits := len(parts) > 1
		for _, p := range parts {
			w := nl.Nodes[p].Width
			fits = fits && w <= 64 && (n.Op != hdl.OpRedAnd || w == nl.Nodes[parts[0]].Width)
		}
		if fits {
			found[int32(i)] = &reduction{parts: parts}
		}
	}
	return found
}

// reduceTree computes reduction k of r's operands into slot dst: a
// balanced tree of its bitwise operation over the operands, each result
// of at most its operands' width, in r's inner slots; then reduction k of
// the tree's result where it is wider than a bit. narrow computes an
// operation (compile's), resolve gives the slot a merged result reads.
func (s *Sim) reduceTree(k hdl.Op, dst int32, r *reduction, narrow func(k hdl.Op, dst int32, args []int32, aw []int, width, n int, mem int32), resolve func(int32) int32) {
	terms, widths := make([]int32, len(r.parts)), make([]int, len(r.parts))
	for j, p := range r.parts {
		terms[j], widths[j] = resolve(s.slot[p]), s.nl.Nodes[p].Width
	}
	widest := 0
	for _, w := range widths {
		widest = max(widest, w)
	}
	inner := r.inner
	for len(terms) > 1 {
		var next []int32
		var nextWidths []int
		for j := 0; j < len(terms); j += 2 {
			if j+1 == len(terms) {
				next, nextWidths = append(next, terms[j]), append(nextWidths, widths[j])
				continue
			}
			to, w := inner, max(widths[j], widths[j+1])
			if len(terms) == 2 && widest == 1 {
				to = dst // the tree's root is the reduction
			} else {
				inner++
			}
			narrow(treeOp[k], to, terms[j:j+2], widths[j:j+2], w, 0, -1)
			next, nextWidths = append(next, resolve(to)), append(nextWidths, w)
		}
		terms, widths = next, nextWidths
	}
	if widest > 1 {
		narrow(k, dst, terms, widths, 1, 0, -1)
	}
}
