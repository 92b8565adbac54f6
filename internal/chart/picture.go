package chart

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
)

// Picture is an SVG a unit draws of itself (gen -layout ... -format svg),
// shown as it is.
type Picture struct {
	Caption
	Draw func() ([]byte, error)
}

var (
	svgOpen = regexp.MustCompile(`<svg\b[^>]*>`)
	svgSize = regexp.MustCompile(`\b(width|height)="([0-9.]+)(px|pt)?"`)
)

// SVG is the picture, with a viewBox so that a page can scale it to its
// width.
func (p *Picture) SVG() ([]byte, error) {
	svg, err := p.Draw()
	if err != nil {
		return nil, err
	}
	svg = inline(svg)
	open := svgOpen.Find(svg)
	if open == nil {
		return nil, errors.New("chart: the picture is not an SVG")
	}
	if bytes.Contains(open, []byte("viewBox")) {
		return svg, nil
	}
	size := map[string]string{}
	for _, m := range svgSize.FindAllSubmatch(open, -1) {
		size[string(m[1])] = string(m[2])
	}
	if size["width"] == "" || size["height"] == "" {
		return nil, errors.New("chart: the picture's SVG has no width and height")
	}
	withBox := bytes.Replace(open, []byte("<svg"), fmt.Appendf(nil, `<svg viewBox="0 0 %s %s"`, size["width"], size["height"]), 1)
	return bytes.Replace(svg, open, withBox, 1), nil
}
