package sams

import (
	"bytes"
	"fmt"
	"html"

	"github.com/parmem/parmem/units"
)

// The layout picture (gen -layout): a SAMS memory's banks as columns and
// its rows as rows, each slot showing the linear address stored there
// (thesis Figs. 3.3 and 3.4), with the elements of one vector access
// marked by the sub-access that serves them.

// maxLayoutN bounds pictures to 2^10 addresses.
const maxLayoutN = 10

var layoutPicture = &units.Picture{
	Kind: "layout", Unit: "sams", Default: true,
	Doc: "the address in each bank slot (thesis Figs. 3.3, 3.4); with -mode, an access's sub-accesses",
	Params: units.Params{
		{Name: "q", Doc: "2^q memory modules (banks)", Default: units.Const(3), Range: units.Fixed(1, 6)},
		{Name: "n", Doc: "address bits: 2^n elements (default q+3)", Default: func(v units.Values) int { return v["q"] + 3 },
			Range: func(v units.Values) (int, int) { return v["q"] + 2, maxLayoutN }},
		{Name: "family", Doc: "the layout: stride family s (default 0)", Optional: true,
			Range: func(v units.Values) (int, int) { return 0, v["n"] - v["q"] }},
		{Name: "nas", Doc: "the layout: NaS (thesis 4.3.2)", Kind: units.Bool},
		{Name: "matched", Doc: "the layout: Matched SAMS, family q (thesis 3.2.4)", Kind: units.Bool},
		{Name: "base", Doc: "base address of the access to mark (default 0)", Optional: true,
			Range: func(v units.Values) (int, int) { return 0, 1<<uint(v["n"]) - 1 }},
		{Name: "stride", Doc: "stride of the access to mark (default 1)", Optional: true,
			Range: func(v units.Values) (int, int) { return 0, 1<<uint(v["n"]) - 1 }},
		{Name: "mode", Doc: "mark the access of this AGU mode, {use_stride_family, use_stride} (default: none)", Optional: true,
			Range: units.Fixed(0, 3)},
	},
	Formats: []string{"text", "svg"},
	Draw:    drawLayout,
}

// layoutSpec is what a picture shows.
type layoutSpec struct {
	q, n, family int
	nas, matched bool
	base, stride uint64
	mode         int // -1: no access
}

// layoutCell is one slot of the picture.
type layoutCell struct {
	addr  uint64
	round int // sub-access that touches it, 0 for none
}

func drawLayout(v units.Values, format string) ([]byte, error) {
	family, hasFamily := v["family"]
	base, hasBase := v["base"]
	stride, hasStride := v["stride"]
	mode, hasMode := v["mode"]
	s := layoutSpec{q: v["q"], n: v["n"], family: family, nas: v["nas"] == 1, matched: v["matched"] == 1,
		base: uint64(base), stride: 1, mode: -1}
	if hasStride {
		s.stride = uint64(stride)
	}
	if hasMode {
		s.mode = mode
	}
	switch {
	case s.nas && (hasFamily || s.matched), hasFamily && s.matched:
		return nil, units.Inputf("-family, -nas and -matched each choose the layout; give one")
	case (hasBase || hasStride) && !hasMode:
		return nil, units.Inputf("-base and -stride mark an access only with -mode (0..3)")
	}
	cells, access, rounds := s.grid()
	if format == "svg" {
		return s.svg(cells, access, rounds), nil
	}
	return s.text(cells, access, rounds), nil
}

func (s layoutSpec) layout() Layout {
	l := Layout{Q: s.q, N: s.n, Family: s.family, NaS: s.nas}
	if s.matched {
		l.Family = s.q
	}
	return l
}

func (s layoutSpec) title() string {
	l := s.layout()
	name := fmt.Sprintf("family %d", l.Family)
	switch {
	case s.nas:
		name = "NaS"
	case s.matched:
		name = fmt.Sprintf("Matched SAMS (family %d)", s.q)
	}
	return fmt.Sprintf("SAMS layout, q=%d (%d banks), n=%d, %s", s.q, 1<<uint(s.q), s.n, name)
}

// grid places every address and marks the access.
func (s layoutSpec) grid() (cells [][]layoutCell, access string, rounds int) {
	l := s.layout()
	banks, rows := 1<<uint(s.q), 1<<uint(s.n-s.q-1)
	cells = make([][]layoutCell, rows)
	for r := range cells {
		cells[r] = make([]layoutCell, 2*banks)
	}
	for a := range uint64(1) << uint(s.n) {
		p := l.Place(a)
		cells[p.Row][2*p.Module+p.Offset] = layoutCell{addr: a}
	}
	if s.mode < 0 {
		return cells, "", 0
	}
	step := uint64(1)
	if s.mode == 3 {
		step = s.stride
	}
	addrs := Addresses(s.base, step, s.q, s.n)
	plan := l.SubAccessPlan(addrs, nil)
	for i, a := range addrs {
		p := l.Place(a)
		c := &cells[p.Row][2*p.Module+p.Offset]
		c.round = plan[i]
		rounds = max(rounds, plan[i])
	}
	access = fmt.Sprintf("access mode %02b, base %d, stride %d: addresses %v", s.mode, s.base, step, addrs)
	if fam := Fam(s.stride, s.n, s.q); s.mode >= 2 && !s.matched && !s.nas && fam != s.family {
		access += fmt.Sprintf(" (the memory would use family %d for this stride)", fam)
	}
	return cells, access, rounds
}

func (s layoutSpec) text(cells [][]layoutCell, access string, rounds int) []byte {
	var b bytes.Buffer
	banks := 1 << uint(s.q)
	wd := len(fmt.Sprint(uint64(1)<<uint(s.n)-1)) + 2 // room for a mark
	fmt.Fprintf(&b, "%s\n", s.title())
	fmt.Fprintf(&b, "%5s |", "row")
	for m := range banks {
		fmt.Fprintf(&b, " %-*s |", 2*wd+1, fmt.Sprintf("bank %d", m))
	}
	b.WriteString("\n")
	for r, row := range cells {
		fmt.Fprintf(&b, "%5d |", r)
		for m := range banks {
			for o := range 2 {
				c := row[2*m+o]
				mark := ""
				if c.round > 0 {
					mark = "*" + fmt.Sprint(c.round)
				}
				fmt.Fprintf(&b, " %*s", wd, fmt.Sprint(c.addr)+mark)
			}
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	if access != "" {
		fmt.Fprintf(&b, "%s\n", access)
		if rounds <= 1 {
			b.WriteString("*1 marks its elements: conflict-free, one access\n")
		} else {
			fmt.Fprintf(&b, "*k marks its elements by sub-access: a conflict, split into %d conflict-free sub-accesses\n", rounds)
		}
	}
	return b.Bytes()
}

var roundColors = []string{"#fdd49e", "#a6d96a", "#74add1", "#f46d43", "#c2a5cf", "#fee08b", "#66c2a5", "#d53e4f"}

func (s layoutSpec) svg(cells [][]layoutCell, access string, rounds int) []byte {
	banks := 1 << uint(s.q)
	// charW is a monospace character's advance at font-size 12 (0.6 em),
	// rounded up: the lines of text set the width where they are longer
	// than the banks.
	const cw, ch, left, top, charW = 44, 22, 50, 60, 8
	width := max(left+banks*(2*cw+10)+10, 20+charW*max(len(access), len(s.title())*14/12))
	height := top + len(cells)*ch + 60
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="14">%s</text>`+"\n", html.EscapeString(s.title()))
	for m := range banks {
		x := left + m*(2*cw+10)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">bank %d</text>`+"\n", x+cw, top-8, m)
	}
	for r, row := range cells {
		y := top + r*ch
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%d</text>`+"\n", left-8, y+15, r)
		for j, c := range row {
			x := left + (j/2)*(2*cw+10) + (j%2)*cw
			fill := "#ffffff"
			if c.round > 0 {
				fill = roundColors[(c.round-1)%len(roundColors)]
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#444"/>`, x, y, cw, ch, fill)
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%d</text>`+"\n", x+cw/2, y+15, c.addr)
		}
	}
	if access != "" {
		y := top + len(cells)*ch + 20
		fmt.Fprintf(&b, `<text x="10" y="%d">%s</text>`+"\n", y, html.EscapeString(access))
		for k := 1; k <= rounds; k++ {
			x := 10 + (k-1)*120
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="14" height="14" fill="%s" stroke="#444"/><text x="%d" y="%d">sub-access %d</text>`+"\n", x, y+12, roundColors[(k-1)%len(roundColors)], x+18, y+24, k)
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
