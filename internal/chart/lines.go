package chart

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Curve is a series of points.
type Curve struct {
	Name string    // "" for a fit: none in the legend
	X, Y []float64 // a point whose X or Y is NaN is left out
	// Paper marks the paper's points: hollow markers without a line,
	// named "(paper)"; black rings, or the hollow marker and colour of
	// the curve called Of.
	Paper bool
	// Fit marks a fitted law: a dashed line without markers, in the
	// colour of the curve called Of.
	Fit bool
	Of  string
}

// Tick is a labelled value on an axis.
type Tick struct {
	Value float64
	Label string
}

// Lines is a chart of curves: growth against a size, a sweep.
type Lines struct {
	Caption
	XLabel, YLabel string // with their units
	Curves         []Curve
	LogX, LogY     bool
	// XTicks label the X axis; nil: a tick at every X of the curves
	// that are not fits.
	XTicks        []Tick
	Width, Height vg.Length // 0: the defaults
}

func (l *Lines) check() error {
	if len(l.Curves) == 0 {
		return errors.New("chart: lines without a curve")
	}
	any := false
	for _, c := range l.Curves {
		if len(c.X) != len(c.Y) {
			return fmt.Errorf("chart: curve %q has %d X and %d Y", c.Name, len(c.X), len(c.Y))
		}
		any = any || len(c.points(l.LogX, l.LogY)) > 0
	}
	if !any {
		return errors.New("chart: lines without a point")
	}
	return nil
}

// points are the curve's drawable points: numbers, positive on a log
// axis.
func (c Curve) points(logX, logY bool) plotter.XYs {
	var xys plotter.XYs
	for i := range c.X {
		x, y := c.X[i], c.Y[i]
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || (logX && x <= 0) || (logY && y <= 0) {
			continue
		}
		xys = append(xys, plotter.XY{X: x, Y: y})
	}
	return xys
}

// SVG draws the chart.
func (l *Lines) SVG() ([]byte, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	p := newPlot(l.XLabel, l.YLabel)
	if l.LogX {
		p.X.Scale = plot.LogScale{}
	}
	if l.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	p.X.Tick.Marker = l.xTicks()
	colors := map[string]int{}
	ours := 0
	for _, c := range l.Curves {
		if !c.Paper && !c.Fit {
			colors[c.Name] = ours
			ours++
		}
	}
	p.Add(zeroLine{})
	for _, c := range l.Curves {
		xys := c.points(l.LogX, l.LogY)
		if len(xys) == 0 {
			continue
		}
		switch {
		case c.Fit:
			line, err := plotter.NewLine(xys)
			if err != nil {
				return nil, err
			}
			line.LineStyle = draw.LineStyle{Color: grey, Width: 1, Dashes: []vg.Length{5, 3}}
			if k, ok := colors[c.Of]; ok {
				line.LineStyle.Color = seriesColor(k)
			}
			p.Add(line)
			if c.Name != "" {
				p.Legend.Add(c.Name, line)
			}
		case c.Paper:
			// Hollow: a paper's points pair with the curve of ours
			// called Of by its marker's shape, hollow, and colour.
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: black, Radius: 4.5, Shape: paperGlyph}
			if k, ok := colors[c.Of]; ok {
				sc.GlyphStyle.Color, sc.GlyphStyle.Shape = seriesColor(k), hollow(glyphs[k%len(glyphs)])
			}
			p.Add(sc)
			p.Legend.Add(legendName(c.Name, true), sc)
		default:
			k := colors[c.Name]
			line, points, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			line.LineStyle = draw.LineStyle{Color: seriesColor(k), Width: 1.2, Dashes: curveDashes(k)}
			points.GlyphStyle = draw.GlyphStyle{Color: seriesColor(k), Radius: 3, Shape: glyphs[k%len(glyphs)]}
			p.Add(line, points)
			p.Legend.Add(c.Name, line, points)
		}
	}
	pad(&p.Y, l.LogY)
	pad(&p.X, l.LogX)
	w, h := l.Width, l.Height
	if w == 0 {
		w = DefaultWidth
	}
	if h == 0 {
		h = DefaultHeight
	}
	return render(p, w, h)
}

// hollow is the outline of a filled marker.
func hollow(g draw.GlyphDrawer) draw.GlyphDrawer {
	switch g.(type) {
	case draw.CircleGlyph:
		return draw.RingGlyph{}
	case draw.BoxGlyph:
		return draw.SquareGlyph{}
	case draw.PyramidGlyph:
		return draw.TriangleGlyph{}
	}
	return g
}

// pad widens an axis a little beyond its data, so that markers at the
// ends are whole.
func pad(a *plot.Axis, log bool) {
	if log {
		a.Min /= 1.15
		a.Max *= 1.15
		return
	}
	d := (a.Max - a.Min) * 0.04
	if d == 0 {
		d = math.Max(math.Abs(a.Max)*0.1, 1)
	}
	a.Min -= d
	a.Max += d
}

// xTicks are l.XTicks, or a tick at every X of the measured curves when
// there are few of them, or plot's default ticks.
func (l *Lines) xTicks() plot.Ticker {
	ticks := l.XTicks
	if ticks == nil {
		var xs []float64
		for _, c := range l.Curves {
			if c.Fit {
				continue
			}
			for _, xy := range c.points(l.LogX, l.LogY) {
				xs = append(xs, xy.X)
			}
		}
		slices.Sort(xs)
		xs = slices.Compact(xs)
		if len(xs) > 12 {
			if l.LogX {
				return logTicks{}
			}
			return niceTicks{}
		}
		for _, x := range xs {
			ticks = append(ticks, Tick{x, strconv.FormatFloat(x, 'g', -1, 64)})
		}
	}
	var ts plot.ConstantTicks
	for _, t := range ticks {
		ts = append(ts, plot.Tick{Value: t.Value, Label: t.Label})
	}
	return ts
}

// FitCurve draws the law scaled to fit the curve's points (Fit.Scale),
// from the curve's least X to its largest, and names it "fit: " + name.
func FitCurve(f Fit, of Curve) Curve {
	c := f.Scale(of.X, of.Y)
	return LawCurve("fit: "+f.Name, of, func(x float64) float64 { return c * f.Law(x) })
}

// LawCurve draws y over the X of the curve of (from its least X to its
// largest, evenly on a log axis when they are positive), as a fit in its
// colour.
func LawCurve(name string, of Curve, y func(x float64) float64) Curve {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, x := range of.X {
		if !math.IsNaN(x) && !math.IsNaN(of.Y[i]) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	out := Curve{Name: name, Fit: true, Of: of.Name}
	if lo > hi {
		return out
	}
	const n = 48
	for i := range n + 1 {
		x := lo + (hi-lo)*float64(i)/n
		if lo > 0 {
			x = lo * math.Pow(hi/lo, float64(i)/n)
		}
		out.X = append(out.X, x)
		out.Y = append(out.Y, y(x))
	}
	return out
}
