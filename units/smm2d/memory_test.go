package smm2d

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The memory without its banks (Memory.NoBanks, what the area reports
// synthesize), its bank ports served by a model of a synchronous SRAM,
// answers cycle for cycle as the memory with its banks: random
// configurations and requests on both, every output of the memory
// compared each cycle.
func TestNoBanksMatchesTheBanks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, g := range []Geometry{{1, 2, 3, 4}, {2, 2, 4, 4}} {
		p := Memory{Geometry: g, W: 8}
		banked := simOf(t, p.Build("dut"))
		p.NoBanks = true
		bare := simOf(t, p.Build("dut"))
		top := banked.Design().Top()
		rows := 1 << uint(g.RW())
		srams := make([][]uint64, g.Lanes()) // per bank: its words
		reads := make([]uint64, g.Lanes())   // per bank: the word it read at the last edge
		for b := range srams {
			srams[b] = make([]uint64, rows)
		}
		writes, answers := 0, 0
		for cycle := range 3000 {
			for _, in := range top.Inputs() {
				v := r.Uint64() & mask(in.Width())
				switch in.Name() {
				case "cfg_valid":
					v &= uint64(r.IntN(8) / 7) // a configuration now and then
				case "req_valid", "req_write":
					v = uint64(r.IntN(2))
				}
				set(t, banked, in.Name(), v)
				set(t, bare, in.Name(), v)
			}
			for b, v := range reads {
				set(t, bare, fmt.Sprintf("bank%d_rdata", b), v)
			}
			banked.Eval()
			bare.Eval()
			for _, out := range top.Outputs() {
				require.Equal(t, get(t, banked, out.Name()), get(t, bare, out.Name()), "%+v cycle %d: %s", g, cycle, out.Name())
			}
			if get(t, bare, "resp_valid") == 1 && get(t, bare, "resp_rdata_0") != 0 {
				answers++
			}
			for b, sram := range srams { // the edge: read the old word, then write
				row := get(t, bare, fmt.Sprintf("bank%d_row", b))
				reads[b] = sram[row]
				if get(t, bare, fmt.Sprintf("bank%d_we", b)) == 1 {
					sram[row] = get(t, bare, fmt.Sprintf("bank%d_wdata", b))
					writes++
				}
			}
			banked.Step()
			bare.Step()
		}
		require.Greater(t, writes, 1000, "%+v: the banks were written", g)
		require.Greater(t, answers, 100, "%+v: reads answered with written data", g)
	}
}
