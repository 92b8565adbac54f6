package main

import (
	"bytes"
	"context"
	"flag"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/stretchr/testify/require"
)

var (
	review     = flag.Bool("review", false, "TestReviewPageInChromium fails, not skips, without chromium (make review)")
	reviewPNG  = flag.String("review.png", "", "keep TestReviewPageInChromium's screenshot in this file")
	reviewHTML = flag.String("review.html", "", "keep TestReviewPageInChromium's page in this file")
)

// chromium is the headless browser on PATH (Debian's chromium), or "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// committedReview is the review page of every registered report made
// from rtl/REPORT.md's tables (make tables's run): each report prints
// the tables from the first its charts read to the next report's, and
// every chart reads all of them.
func committedReview(t *testing.T) (ran []ranReport, charts int) {
	ts := markdownTables(t, "../rtl/REPORT.md")
	owner := map[string]int{} // table title -> report, by the charts' sources
	reports := reg.Reports()
	for i, r := range reports {
		rc := *r
		rc.Charts = nil
		for _, draw := range r.Charts {
			draw := draw
			rc.Charts = append(rc.Charts, func([]*table.Table) (chart.Chart, error) { return draw(ts) })
			if c, err := draw(ts); err == nil && c.Heading().Source != "" {
				if _, ok := owner[c.Heading().Source]; !ok {
					owner[c.Heading().Source] = i
				}
			}
		}
		charts += len(r.Charts)
		ran = append(ran, ranReport{r: &rc, v: r.Params.Defaults()})
	}
	cur := 0
	for _, tab := range ts {
		if k, ok := owner[tab.Title]; ok && k >= cur {
			cur = k
		}
		ran[cur].tables = append(ran[cur].tables, tab)
	}
	return ran, charts
}

// TestReviewPageInChromium renders the review page in headless Chromium
// (issue 47, item 4): the page has a figure of inline SVG for every
// chart the reports declare, drawn from the committed tables, and the
// screenshot is not blank. Without chromium it is skipped: make review
// installs chromium (scripts/deps.sh chromium) and runs it with -review,
// which fails instead.
func TestReviewPageInChromium(t *testing.T) {
	browser := chromium()
	if browser == "" {
		if *review {
			t.Fatal("chromium is not installed: make review installs it (scripts/deps.sh chromium)")
		}
		t.Skip("chromium is not installed: make review installs it and runs this test")
	}
	ran, charts := committedReview(t)
	require.Greater(t, charts, 30)
	var page bytes.Buffer
	drawn, err := writePage(&page, ran, pageInfo{command: "gen -report all -format html", when: time.Now()}, io.Discard)
	require.NoError(t, err)
	require.Equal(t, charts, drawn, "every chart drawn")
	html := page.String()
	require.Equal(t, charts, strings.Count(html, `<figure class="chart"`))
	require.Equal(t, charts, strings.Count(html, "<svg"), "one inline SVG a figure")
	require.NotContains(t, html, "not drawn")

	dir := t.TempDir()
	file := filepath.Join(dir, "review.html")
	if *reviewHTML != "" {
		file = *reviewHTML
	}
	require.NoError(t, os.WriteFile(file, page.Bytes(), 0o644))
	shot := filepath.Join(dir, "review.png")
	if *reviewPNG != "" {
		shot = *reviewPNG
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1280,6000", "--screenshot="+shot, "file://"+file)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	f, err := os.Open(shot)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	require.Equal(t, image.Pt(1280, 6000), img.Bounds().Size())
	// Not blank: many pixels differ from the first one (the page's white).
	first := img.At(0, 0)
	differ, dark := 0, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			c := img.At(x, y)
			if c != first {
				differ++
			}
			if r, g, bl, _ := c.RGBA(); r+g+bl < 3*0x4000 {
				dark++
			}
		}
	}
	total := b.Dx() * b.Dy() / 4
	require.Greater(t, differ, total/50, "the screenshot is (nearly) one colour")
	require.Greater(t, dark, total/500, "no text or lines drawn")
	t.Logf("%d charts in a page of %d bytes; screenshot %s: %d of %d sampled pixels not the background", charts, page.Len(), shot, differ, total)
}
