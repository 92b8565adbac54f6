package main

import (
	"bytes"
	"fmt"
	"html"

	"github.com/parmem/parmem/units/sams"
)

// The layout picture: a SAMS memory's banks as columns and its rows as
// rows, each slot showing the linear address stored there (thesis Figs.
// 3.3 and 3.4), with the elements of one vector access marked by the
// sub-access that serves them.

// maxLayoutN bounds pictures to 2^10 addresses.
const maxLayoutN = 10

type layoutSpec struct {
	q, n, family int
	nas, matched bool
	base, stride uint64
	mode         int // -1: no access
	format       string
}

// cell is one slot of the picture.
type cell struct {
	addr  uint64
	round int // sub-access that touches it, 0 for none
}

func (s layoutSpec) validate(given map[string]bool) error {
	switch {
	case s.q < 1 || s.q > 6:
		return badf("-q=%d is out of range for -layout: valid 1..6", s.q)
	case s.n < s.q+2 || s.n > maxLayoutN:
		return badf("-n=%d is out of range for -layout with q=%d: valid %d..%d", s.n, s.q, s.q+2, maxLayoutN)
	case given["nas"] && (given["family"] || given["matched"]), given["family"] && given["matched"]:
		return badf("-family, -nas and -matched each choose the layout; give one")
	case s.family < 0 || s.family > s.n-s.q:
		return badf("-family=%d is out of range for q=%d n=%d: valid 0..%d", s.family, s.q, s.n, s.n-s.q)
	case s.mode < -1 || s.mode > 3:
		return badf("-mode=%d is out of range: valid 0..3 ({use_stride_family, use_stride})", s.mode)
	case s.base >= 1<<uint(s.n):
		return badf("-base=%d is out of range for n=%d: valid 0..%d", s.base, s.n, 1<<uint(s.n)-1)
	case s.stride >= 1<<uint(s.n):
		return badf("-stride=%d is out of range for n=%d: valid 0..%d", s.stride, s.n, 1<<uint(s.n)-1)
	case s.format != "text" && s.format != "svg":
		return badf("-format=%q is not one of text, svg", s.format)
	case (given["base"] || given["stride"]) && !given["mode"]:
		return badf("-base and -stride mark an access only with -mode (0..3)")
	}
	return nil
}

func (s layoutSpec) layout() sams.Layout {
	l := sams.Layout{Q: s.q, N: s.n, Family: s.family, NaS: s.nas}
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
func (s layoutSpec) grid() (cells [][]cell, access string, rounds int) {
	l := s.layout()
	banks, rows := 1<<uint(s.q), 1<<uint(s.n-s.q-1)
	cells = make([][]cell, rows)
	for r := range cells {
		cells[r] = make([]cell, 2*banks)
	}
	for a := range uint64(1) << uint(s.n) {
		p := l.Place(a)
		cells[p.Row][2*p.Module+p.Offset] = cell{addr: a}
	}
	if s.mode < 0 {
		return cells, "", 0
	}
	step := uint64(1)
	if s.mode == 3 {
		step = s.stride
	}
	addrs := sams.Addresses(s.base, step, s.q, s.n)
	plan := l.SubAccessPlan(addrs, nil)
	for i, a := range addrs {
		p := l.Place(a)
		c := &cells[p.Row][2*p.Module+p.Offset]
		c.round = plan[i]
		rounds = max(rounds, plan[i])
	}
	access = fmt.Sprintf("access mode %02b, base %d, stride %d: addresses %v", s.mode, s.base, step, addrs)
	if fam := sams.Fam(s.stride, s.n, s.q); s.mode >= 2 && !s.matched && !s.nas && fam != s.family {
		access += fmt.Sprintf(" (the memory would use family %d for this stride)", fam)
	}
	return cells, access, rounds
}

func (s layoutSpec) draw(given map[string]bool) ([]byte, error) {
	if err := s.validate(given); err != nil {
		return nil, err
	}
	cells, access, rounds := s.grid()
	if s.format == "svg" {
		return s.svg(cells, access, rounds), nil
	}
	return s.text(cells, access, rounds), nil
}

func (s layoutSpec) text(cells [][]cell, access string, rounds int) []byte {
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

func (s layoutSpec) svg(cells [][]cell, access string, rounds int) []byte {
	banks := 1 << uint(s.q)
	const cw, ch, left, top = 44, 22, 50, 60
	width := left + banks*(2*cw+10) + 10
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
