package sweep

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// ProgressEvery is the least time between two progress lines (the first
// and the last always show).
const ProgressEvery = 5 * time.Second

// Progress writes lines like "scaling: 12/40 jobs, 0.8 jobs/min, about 35
// min left" as jobs finish: the first at once, then at most one every
// ProgressEvery, and the last. It is safe for concurrent use.
type Progress struct {
	w            io.Writer
	label, unit  string
	total        int
	now          func() time.Time
	mu           sync.Mutex
	done         int
	start, shown time.Time
}

// NewProgress starts counting total units ("jobs") of label's run on w
// and writes the first line; now is the clock (time.Now; a test's fake).
func NewProgress(w io.Writer, label, unit string, total int, now func() time.Time) *Progress {
	p := &Progress{w: w, label: label, unit: unit, total: total, now: now, start: now()}
	p.shown = p.start
	fmt.Fprintf(w, "%s: 0/%d %s\n", label, total, unit)
	return p
}

// Add counts n more units done.
func (p *Progress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	t := p.now()
	if p.done < p.total && t.Sub(p.shown) < ProgressEvery {
		return
	}
	p.shown = t
	elapsed := t.Sub(p.start)
	line := fmt.Sprintf("%s: %d/%d %s", p.label, p.done, p.total, p.unit)
	if elapsed > 0 && p.done > 0 {
		perSecond := float64(p.done) / elapsed.Seconds()
		line += ", " + rate(perSecond, p.unit)
		if p.done < p.total {
			left := time.Duration(float64(p.total-p.done) / perSecond * float64(time.Second))
			line += ", about " + duration(left) + " left"
		} else {
			line += ", done in " + duration(elapsed)
		}
	}
	fmt.Fprintln(p.w, line)
}

// rate is "2.5 jobs/s" from one a second, "0.8 jobs/min" from 0.1 a
// minute, else "3.0 jobs/h": a Yosys job of the scaling report takes
// minutes, a soak's netlist milliseconds.
func rate(perSecond float64, unit string) string {
	switch {
	case perSecond >= 1:
		return fmt.Sprintf("%.1f %s/s", perSecond, unit)
	case perSecond*60 >= 0.1:
		return fmt.Sprintf("%.1f %s/min", perSecond*60, unit)
	}
	return fmt.Sprintf("%.1f %s/h", perSecond*3600, unit)
}

// duration is "40s", "35 min" or "2 h 05 min".
func duration(d time.Duration) string {
	if d = d.Round(time.Second); d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	if d = d.Round(time.Minute); d < time.Hour {
		return fmt.Sprintf("%d min", int(d.Minutes()))
	}
	return fmt.Sprintf("%d h %02d min", int(d.Hours()), int(d.Minutes())%60)
}
