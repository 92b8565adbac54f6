package chart

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is a named row of numbers: a bar per category, or a point per X.
type Series struct {
	Name   string
	Values []float64 // NaN: no value there
	// Paper marks the paper's numbers: drawn hollow and named "(paper)".
	Paper bool
	// Stack piles bars: series with the same non-empty Stack share one
	// bar per category; every other series has a bar of its own. Series
	// of one name share a fill and a legend entry across stacks.
	Stack string
}

// Ref is a value drawn as a line across a bar chart: a paper's mean that
// belongs to no category.
type Ref struct {
	Name  string
	Value float64
	Paper bool
}

// Bars is a bar chart: at each category a bar per stack side by side.
type Bars struct {
	Caption
	XLabel, YLabel string // the Y label with its unit: "speedup (%)"
	Categories     []string
	Series         []Series
	Refs           []Ref
	LogY           bool
	// StackLabels prints each stack's name on its bars (when the stacks
	// are kinds of bar, such as setups, that the fills do not name).
	StackLabels bool
	// FillOrder names series that take the fills in this order, before
	// the other names: the charts of one report then fill a name alike
	// whichever of the names each shows.
	FillOrder     []string
	Width, Height vg.Length // 0: the defaults
}

// stacks are the bar slots of a category in order: the series indices
// each holds.
func (b *Bars) stacks() [][]int {
	var out [][]int
	slot := map[string]int{}
	for i, s := range b.Series {
		if s.Stack == "" {
			out = append(out, []int{i})
			continue
		}
		k, ok := slot[s.Stack]
		if !ok {
			k = len(out)
			slot[s.Stack] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// boxes gives each series its fill: a paper's the paper's, the others'
// by name in order of first appearance.
func (b *Bars) boxes() []box {
	names := slices.Clone(b.FillOrder)
	out := make([]box, len(b.Series))
	for i, s := range b.Series {
		outline := draw.LineStyle{Color: black, Width: 0.5}
		if s.Paper {
			outline.Width = 1.2
			out[i] = box{paperFill.color, paperFill.hatch, outline}
			continue
		}
		k := slices.Index(names, s.Name)
		if k < 0 {
			k = len(names)
			names = append(names, s.Name)
		}
		f := fills[k%len(fills)]
		out[i] = box{f.color, f.hatch, outline}
	}
	return out
}

func (b *Bars) check() error {
	if len(b.Categories) == 0 || len(b.Series) == 0 {
		return errors.New("chart: bars without categories or series")
	}
	any := false
	for _, s := range b.Series {
		if len(s.Values) != len(b.Categories) {
			return fmt.Errorf("chart: series %q has %d values for %d categories", s.Name, len(s.Values), len(b.Categories))
		}
		any = any || finite(s.Values)
	}
	if !any {
		return errors.New("chart: bars without a value")
	}
	return nil
}

// SVG draws the chart.
func (b *Bars) SVG() ([]byte, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	b = b.withValues()
	p := newPlot(b.XLabel, b.YLabel)
	p.NominalX(b.Categories...)
	p.X.Tick.Label.Rotation, p.X.Tick.Label.XAlign = categoryRotation(b.Categories)
	bp := &barsPlotter{b: b, slots: b.stacks(), boxes: b.boxes()}
	p.Add(bp)
	if b.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	for i, r := range b.Refs {
		p.Add(refLine{r, i})
	}
	p.Add(zeroLine{})
	// The legend: each fill once, in series order, then the lines.
	seen := map[string]bool{}
	for i, s := range b.Series {
		name := legendName(s.Name, s.Paper)
		if seen[name] {
			continue
		}
		seen[name] = true
		p.Legend.Add(name, boxThumb(bp.boxes[i]))
	}
	for i, r := range b.Refs {
		p.Legend.Add(legendName(r.Name, r.Paper), refLine{r, i})
	}
	if bp.labels() {
		p.Y.Max += (p.Y.Max - math.Min(p.Y.Min, 0)) * 0.3 // room for the bars' labels
	}
	w, h := b.Width, b.Height
	if w == 0 {
		w = DefaultWidth
	}
	if h == 0 {
		h = DefaultHeight
	}
	return render(p, w, h)
}

// withValues is the chart without the categories where no series has a
// value (a table's mean row that leaves a column empty).
func (b *Bars) withValues() *Bars {
	out := *b
	out.Categories = nil
	out.Series = make([]Series, len(b.Series))
	for i, s := range b.Series {
		out.Series[i] = s
		out.Series[i].Values = nil
	}
	for j, c := range b.Categories {
		if !slices.ContainsFunc(b.Series, func(s Series) bool { return !math.IsNaN(s.Values[j]) }) {
			continue
		}
		out.Categories = append(out.Categories, c)
		for i, s := range b.Series {
			out.Series[i].Values = append(out.Series[i].Values, s.Values[j])
		}
	}
	return &out
}

// categoryRotation turns the category names when they would not fit
// side by side.
func categoryRotation(cats []string) (float64, draw.XAlignment) {
	longest := 0
	for _, c := range cats {
		longest = max(longest, len(c))
	}
	if longest*len(cats) > 70 {
		return math.Pi / 6, draw.XRight
	}
	return 0, draw.XCenter
}

type barsPlotter struct {
	b     *Bars
	slots [][]int
	boxes []box
}

func (bp *barsPlotter) labels() bool { return bp.b.StackLabels && len(bp.slots) > 1 }

// extent is the bottom and top of slot k's bar at category j: its
// positive values piled up from 0, its negative ones down.
func (bp *barsPlotter) extent(k, j int) (lo, hi float64, any bool) {
	for _, i := range bp.slots[k] {
		v := bp.b.Series[i].Values[j]
		if math.IsNaN(v) {
			continue
		}
		any = true
		if v >= 0 {
			hi += v
		} else {
			lo += v
		}
	}
	return lo, hi, any
}

func (bp *barsPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for k := range bp.slots {
		for j := range bp.b.Categories {
			lo, hi, any := bp.extent(k, j)
			if !any {
				continue
			}
			if bp.b.LogY { // a log axis has no 0: the bars' values alone
				for _, i := range bp.slots[k] {
					if v := bp.b.Series[i].Values[j]; v > 0 {
						ymin, ymax = math.Min(ymin, v), math.Max(ymax, hi)
					}
				}
				continue
			}
			ymin, ymax = math.Min(ymin, lo), math.Max(ymax, hi)
		}
	}
	for _, r := range bp.b.Refs {
		if !bp.b.LogY || r.Value > 0 {
			ymin, ymax = math.Min(ymin, r.Value), math.Max(ymax, r.Value)
		}
	}
	if bp.b.LogY {
		ymin /= 1.5
		ymax *= 1.5
	} else {
		ymin, ymax = math.Min(ymin, 0), math.Max(ymax, 0)
		pad := (ymax - ymin) * 0.05
		if ymin < 0 {
			ymin -= pad
		}
		ymax += pad
	}
	return -0.5, float64(len(bp.b.Categories)) - 0.5, ymin, ymax
}

func (bp *barsPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	group := (trX(1) - trX(0)) * 0.8
	width := group / vg.Length(len(bp.slots))
	base := p.Y.Min // where a log axis's bars start
	label := textStyle(7)
	label.Rotation = math.Pi / 2
	label.XAlign, label.YAlign = draw.XLeft, draw.YCenter
	for j := range bp.b.Categories {
		left := trX(float64(j)) - group/2
		for k, slot := range bp.slots {
			x0 := left + vg.Length(k)*width
			up, down := 0.0, 0.0
			for _, i := range slot {
				v := bp.b.Series[i].Values[j]
				if math.IsNaN(v) || (bp.b.LogY && v <= 0) {
					continue
				}
				var y0, y1 float64
				switch {
				case bp.b.LogY: // a log axis has no 0 to pile from
					y0, y1, up = base, v, math.Max(up, v)
				case v >= 0:
					y0, y1, up = up, up+v, up+v
				default:
					y0, y1, down = down, down+v, down+v
				}
				r := vg.Rectangle{Min: vg.Point{X: x0, Y: trY(math.Min(y0, y1))}, Max: vg.Point{X: x0 + width, Y: trY(math.Max(y0, y1))}}
				bp.boxes[i].draw(&c, r)
			}
			if bp.labels() {
				if _, _, any := bp.extent(k, j); any {
					c.FillText(label, vg.Point{X: x0 + width/2, Y: trY(up) + 2}, bp.b.Series[slot[0]].Stack)
				}
			}
		}
	}
}

// boxThumb draws a fill in the legend.
type boxThumb box

func (t boxThumb) Thumbnail(c *draw.Canvas) {
	box(t).draw(c, vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: c.Min.Y + 1}, Max: vg.Point{X: c.Max.X, Y: c.Max.Y - 1}})
}

// refDashes are the dash patterns of reference lines in order.
var refDashes = [][]vg.Length{{6, 3}, {2, 2}, {8, 2, 2, 2}, {1, 3}}

// refLine draws a Ref across the data.
type refLine struct {
	Ref
	i int
}

func (r refLine) style() draw.LineStyle {
	s := draw.LineStyle{Color: black, Width: 1.2, Dashes: refDashes[r.i%len(refDashes)]}
	if !r.Paper {
		s.Color = grey
	}
	return s
}

func (r refLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(r.Value)
	c.StrokeLine2(r.style(), c.Min.X, y, c.Max.X, y)
}

func (r refLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), r.Value, r.Value
}

func (r refLine) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(r.style(), c.Min.X, y, c.Max.X, y)
}

// zeroLine draws y = 0 when the axis crosses it.
type zeroLine struct{}

func (zeroLine) Plot(c draw.Canvas, p *plot.Plot) {
	if p.Y.Min >= 0 || p.Y.Max <= 0 {
		return
	}
	_, trY := p.Transforms(&c)
	c.StrokeLine2(draw.LineStyle{Color: black, Width: 0.5}, c.Min.X, trY(0), c.Max.X, trY(0))
}
