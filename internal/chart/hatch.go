package chart

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// hatch is a pattern of black lines over a bar's fill.
type hatch int

const (
	noHatch    hatch = iota
	forward          // ////
	backward         // \\\\
	horizontal       // ====
	cross            // ////, \\\\
	vertical         // ||||
	dots             // ....
	diamond          // a fine cross, a paper's bars
)

// hatchStep is the distance between a hatching's lines.
const hatchStep = vg.Length(4)

var hatchLine = draw.LineStyle{Color: color.Black, Width: vg.Length(0.6)}

// box is a rectangle with a fill, a hatching and an outline.
type box struct {
	color   color.Color
	hatch   hatch
	outline draw.LineStyle
}

// draw fills the rectangle r of c, hatches it and outlines it.
func (b box) draw(c *draw.Canvas, r vg.Rectangle) {
	if r.Max.X <= r.Min.X || r.Max.Y <= r.Min.Y {
		return
	}
	pts := []vg.Point{r.Min, {X: r.Min.X, Y: r.Max.Y}, r.Max, {X: r.Max.X, Y: r.Min.Y}}
	c.FillPolygon(b.color, pts)
	for _, l := range b.hatch.lines(r) {
		c.StrokeLine2(hatchLine, l[0].X, l[0].Y, l[1].X, l[1].Y)
	}
	c.StrokeLines(b.outline, append(pts, r.Min))
}

// lines are the hatching's segments inside r.
func (h hatch) lines(r vg.Rectangle) [][2]vg.Point {
	var ls [][2]vg.Point
	switch h {
	case forward:
		ls = diagonals(r, hatchStep*1.5, 1)
	case backward:
		ls = diagonals(r, hatchStep*1.5, -1)
	case cross:
		ls = append(diagonals(r, hatchStep*2, 1), diagonals(r, hatchStep*2, -1)...)
	case diamond:
		ls = append(diagonals(r, hatchStep, 1), diagonals(r, hatchStep, -1)...)
	case horizontal:
		for y := r.Min.Y + hatchStep; y < r.Max.Y; y += hatchStep {
			ls = append(ls, [2]vg.Point{{X: r.Min.X, Y: y}, {X: r.Max.X, Y: y}})
		}
	case vertical:
		for x := r.Min.X + hatchStep; x < r.Max.X; x += hatchStep {
			ls = append(ls, [2]vg.Point{{X: x, Y: r.Min.Y}, {X: x, Y: r.Max.Y}})
		}
	case dots:
		for y := r.Min.Y + hatchStep/2; y < r.Max.Y; y += hatchStep {
			for x := r.Min.X + hatchStep/2; x < r.Max.X; x += hatchStep {
				ls = append(ls, [2]vg.Point{{X: x - 0.5, Y: y}, {X: x + 0.5, Y: y}})
			}
		}
	}
	return ls
}

// diagonals are the lines y = slope x + k (slope 1 or -1), step apart
// along x, clipped to r.
func diagonals(r vg.Rectangle, step vg.Length, slope vg.Length) [][2]vg.Point {
	var ls [][2]vg.Point
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	// In r's own coordinates (origin at r.Min): y = slope x + k, k over
	// the range that crosses r.
	kMin, kMax := -w, h
	if slope < 0 {
		kMin, kMax = 0, h+w
	}
	for k := kMin + step/2; k < kMax; k += step {
		// x where the line meets y = 0 and y = h, kept within [0, w].
		x0, x1 := (0-k)/slope, (h-k)/slope
		if x0 > x1 {
			x0, x1 = x1, x0
		}
		x0, x1 = max(x0, 0), min(x1, w)
		if x0 >= x1 {
			continue
		}
		ls = append(ls, [2]vg.Point{
			{X: r.Min.X + x0, Y: r.Min.Y + slope*x0 + k},
			{X: r.Min.X + x1, Y: r.Min.Y + slope*x1 + k},
		})
	}
	return ls
}
