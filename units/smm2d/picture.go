package smm2d

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/parmem/parmem/units"
)

// The layout picture (gen -layout -unit smm2d): the M x N array with each
// element's bank "m_v,m_h" (thesis Figure 3.6), and with -pattern the
// lanes of one access marked on the elements they touch (Figures 3.7,
// 3.13), with whether the access is conflict-free and routable.

// maxPictureBits bounds pictures to 2^8 x 2^8 elements.
const maxPictureBits = 8

var layoutView = &units.Picture{
	Kind: "layout", Unit: "smm2d",
	Doc: "each element's bank m_v,m_h (thesis Fig. 3.6); with -pattern, an access's lanes (Figs. 3.7, 3.13)",
	Params: units.Params{
		paramP,
		paramQ,
		{Name: "mb", Doc: "M = 2^mb rows (default p+2)", Default: func(v units.Values) int { return v["p"] + 2 },
			Range: func(v units.Values) (int, int) { return v["p"] + 1, maxPictureBits }},
		{Name: "nb", Doc: "N = 2^nb columns (default q+2)", Default: func(v units.Values) int { return v["q"] + 2 },
			Range: func(v units.Values) (int, int) { return v["p"] + v["q"], maxPictureBits }},
		{Name: "vs", Doc: "vertical stride exponent: VS = sigma*2^vs", Default: units.Const(1),
			Range: func(v units.Values) (int, int) { return 0, v["mb"] - v["p"] }},
		{Name: "hs", Doc: "horizontal stride exponent: HS = sigma*2^hs", Default: units.Const(1),
			Range: func(v units.Values) (int, int) { return 0, v["nb"] - v["q"] }},
		paramPost,
		{Name: "pattern", Doc: "mark the access of this pattern (0-5, Fig. 3.10; 6, 7 as 0)", Optional: true, Range: units.Fixed(0, 7)},
		{Name: "bi", Doc: "base row i of the access (default 0)", Optional: true,
			Range: func(v units.Values) (int, int) { return 0, 1<<uint(v["mb"]) - 1 }},
		{Name: "bj", Doc: "base column j of the access (default 0)", Optional: true,
			Range: func(v units.Values) (int, int) { return 0, 1<<uint(v["nb"]) - 1 }},
		{Name: "vstride", Doc: "vertical stride VS of the access (default 2^vs)", Optional: true,
			Range: func(v units.Values) (int, int) { return 0, 1<<uint(v["mb"]) - 1 }},
		{Name: "hstride", Doc: "horizontal stride HS of the access (default 2^hs)", Optional: true,
			Range: func(v units.Values) (int, int) { return 0, 1<<uint(v["nb"]) - 1 }},
	},
	Formats: []string{"text", "svg"},
	Draw:    drawLayout,
}

// picture is what one drawing shows: the scheme, and the access with the
// lanes touching each element when there is one.
type picture struct {
	s      Scheme
	access *Access
	lanes  map[[2]uint64][]int // (i, j) -> lanes that touch it
	status string
}

func drawLayout(v units.Values, format string) ([]byte, error) {
	pic := picture{s: Scheme{geometry(v), v["vs"], v["hs"], v["post"] == 1}}
	_, hasPattern := v["pattern"]
	for _, f := range []string{"bi", "bj", "vstride", "hstride"} {
		if _, given := v[f]; given && !hasPattern {
			return nil, units.Inputf("-bi, -bj, -vstride and -hstride mark an access only with -pattern (0..7)")
		}
	}
	if hasPattern {
		pic.mark(v)
	}
	if format == "svg" {
		return pic.svg(), nil
	}
	return pic.text(), nil
}

// mark places the access's lanes and says what the scheme makes of it.
func (pic *picture) mark(v units.Values) {
	s := pic.s
	a := Access{Pattern: Pattern(v["pattern"]), BI: uint64(v["bi"]), BJ: uint64(v["bj"]),
		VStride: 1 << uint(s.VS) & mask(s.MB), HStride: 1 << uint(s.HS) & mask(s.NB)}
	if x, ok := v["vstride"]; ok {
		a.VStride = uint64(x)
	}
	if x, ok := v["hstride"]; ok {
		a.HStride = uint64(x)
	}
	pic.access, pic.lanes = &a, map[[2]uint64][]int{}
	is, js := s.Addresses(a)
	for k := range is {
		at := [2]uint64{is[k], js[k]}
		pic.lanes[at] = append(pic.lanes[at], k)
	}
	mv, mh, _ := s.Place(is, js)
	free, routable := s.ConflictFree(is, js), s.Routable(mv, mh, a.Pattern.Crow())
	supported, why := s.Supported(a)
	verdict := map[bool]string{true: "conflict-free", false: "conflicting (two lanes share a bank)"}[free]
	verdict += map[bool]string{true: ", routable (Theorem 7's grouping)", false: ", not routable in one pass"}[routable]
	if supported {
		verdict += "; supported by appendix B"
	} else {
		verdict += "; not supported: " + why
	}
	_, subs := s.SubAccesses(a, nil)
	pic.status = fmt.Sprintf("%v from (%d,%d), VS=%d HS=%d: %s; the memory serves it in %d cycle(s)",
		a.Pattern, a.BI, a.BJ, a.VStride, a.HStride, verdict, subs)
}

func (pic picture) title() string {
	s := pic.s
	form := "pre-add"
	if s.Post {
		form = "post-add"
	}
	return fmt.Sprintf("2DSMM layout, p=%d q=%d (%dx%d banks), M=%d N=%d, vs=%d hs=%d, %s m_v",
		s.P, s.Q, 1<<uint(s.P), 1<<uint(s.Q), 1<<uint(s.MB), 1<<uint(s.NB), s.VS, s.HS, form)
}

// cell is element (i, j)'s text: "mv,mh", and the lanes touching it.
func (pic picture) cell(i, j uint64) (bank, lanes string) {
	bank = fmt.Sprintf("%d,%d", pic.s.Mv(i, j), pic.s.Mh(j))
	var ks []string
	for _, k := range pic.lanes[[2]uint64{i, j}] {
		ks = append(ks, fmt.Sprint(k))
	}
	return bank, strings.Join(ks, "+")
}

func (pic picture) text() []byte {
	var b bytes.Buffer
	s := pic.s
	fmt.Fprintln(&b, pic.title())
	width := 0 // of a cell's lane mark
	for at := range pic.lanes {
		_, lanes := pic.cell(at[0], at[1])
		width = max(width, len(lanes))
	}
	cellWidth := len(fmt.Sprintf("%d,%d", 1<<uint(s.P)-1, 1<<uint(s.Q)-1))
	if width > 0 {
		cellWidth += 1 + width // "*" and the lanes
	}
	fmt.Fprintf(&b, "%4s |", "i\\j")
	for j := range 1 << uint(s.NB) {
		fmt.Fprintf(&b, " %-*d", cellWidth, j)
	}
	b.Truncate(len(bytes.TrimRight(b.Bytes(), " ")))
	b.WriteString("\n")
	for i := range uint64(1) << uint(s.MB) {
		fmt.Fprintf(&b, "%4d |", i)
		for j := range uint64(1) << uint(s.NB) {
			bank, lanes := pic.cell(i, j)
			if lanes != "" {
				bank += "*" + lanes
			}
			fmt.Fprintf(&b, " %-*s", cellWidth, bank)
		}
		b.Truncate(len(bytes.TrimRight(b.Bytes(), " ")))
		b.WriteString("\n")
	}
	if pic.access != nil {
		b.WriteString("mv,mh*k: lane k touches the element (lanes joined by + touch one element)\n")
		fmt.Fprintln(&b, pic.status)
	}
	return b.Bytes()
}

// bankColors tell banks apart in the svg; marked elements get a heavy
// border and their lane numbers.
var bankColors = []string{"#fdd49e", "#a6d96a", "#74add1", "#f46d43", "#c2a5cf", "#fee08b", "#66c2a5", "#d53e4f"}

func (pic picture) svg() []byte {
	s := pic.s
	const cw, ch, left, top = 40, 30, 40, 50
	cols, rows := 1<<uint(s.NB), 1<<uint(s.MB)
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="11">`+"\n",
		left+cols*cw+10, top+rows*ch+50)
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="14">%s</text>`+"\n", html.EscapeString(pic.title()))
	for j := range cols {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%d</text>`+"\n", left+j*cw+cw/2, top-6, j)
	}
	for i := range rows {
		y := top + i*ch
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%d</text>`+"\n", left-6, y+19, i)
		for j := range cols {
			x := left + j*cw
			bank, lanes := pic.cell(uint64(i), uint64(j))
			color := bankColors[s.Bank(uint64(i), uint64(j))%len(bankColors)]
			stroke, sw := "#888", 1
			if lanes != "" {
				stroke, sw = "#000", 3
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="%s" stroke-width="%d"/>`, x, y, cw, ch, color, stroke, sw)
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, x+cw/2, y+13, bank)
			if lanes != "" {
				fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text>`, x+cw/2, y+26, lanes)
			}
			b.WriteString("\n")
		}
	}
	if pic.access != nil {
		fmt.Fprintf(&b, `<text x="10" y="%d">%s</text>`+"\n", top+rows*ch+25, html.EscapeString(pic.status))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
