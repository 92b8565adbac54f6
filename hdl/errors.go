package hdl

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/hashicorp/go-multierror"
)

// Pos is a position in the Go source that built a piece of hardware.
type Pos struct {
	File string // base name of the Go file
	Line int
}

func (p Pos) String() string {
	if p.File == "" {
		return "?"
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// IsValid reports whether the position is known.
func (p Pos) IsValid() bool { return p.File != "" }

// Error is one problem found while building or elaborating a design,
// together with the position of the Go call that caused it.
type Error struct {
	Pos    Pos
	Module string // module in which the problem lies
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: module %s: %s", e.Pos, e.Module, e.Msg)
}

const hdlPkgPrefix = "github.com/parmem/parmem/hdl."

// callerPos returns the position of the first caller outside package hdl
// (its tests count as outside) and outside every function marked Helper,
// so an error or a property points at the user's line.
func callerPos() Pos {
	// The user's frame is seldom more than a few calls up: unwind those
	// first, and the rest only when none of them is (unwinding takes time
	// in every frame it walks).
	var pcs [32]uintptr
	const first = 8
	n := runtime.Callers(2, pcs[:first])
	for from := 0; ; {
		for _, pc := range pcs[from:n] {
			if p := placeOf(pc); p.user {
				return p.pos
			}
		}
		if n < first || from > 0 {
			return Pos{}
		}
		from, n = first, runtime.Callers(2, pcs[:])
	}
}

// place is what callerPos makes of the frames one return PC stands for
// (several where calls were inlined): the innermost that is the user's,
// if one is.
type place struct {
	pos  Pos
	user bool
}

// places caches place by return PC: every node records its position, and
// its callers' PCs repeat from node to node.
// A function marked Helper for the first time empties it (gen counts
// those times), as a frame of that function may be cached as the user's.
var places struct {
	sync.RWMutex
	byPC map[uintptr]place
	gen  int
}

func placeOf(pc uintptr) place {
	places.RLock()
	p, ok := places.byPC[pc]
	gen := places.gen
	places.RUnlock()
	if ok {
		return p
	}
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		f, more := frames.Next()
		inHDL := strings.HasPrefix(f.Function, hdlPkgPrefix) &&
			!strings.HasSuffix(f.File, "_test.go")
		if !inHDL && f.File != "" && !isHelper(f.Function) {
			p = place{pos: Pos{File: filepath.Base(f.File), Line: f.Line}, user: true}
			break
		}
		if !more {
			break
		}
	}
	places.Lock()
	if places.gen == gen { // (no Helper marked a function meanwhile)
		if places.byPC == nil {
			places.byPC = map[uintptr]place{}
		}
		places.byPC[pc] = p
	}
	places.Unlock()
	return p
}

// helpers holds the functions marked Helper, by their full names.
var helpers sync.Map

// Helper marks the calling function as a helper, as testing.T.Helper
// does: an error or a property made in it (or in a function literal in
// it) takes the position of the line that called it. Library functions
// that state properties for their caller (lib.OneHot) call it first.
func Helper() {
	var pc [1]uintptr
	runtime.Callers(2, pc[:])
	f, _ := runtime.CallersFrames(pc[:]).Next()
	if _, marked := helpers.LoadOrStore(f.Function, true); !marked {
		places.Lock()
		places.byPC, places.gen = nil, places.gen+1
		places.Unlock()
	}
}

// isHelper reports whether function, or the function whose literal it
// is (name.func1, name.func1.2), is marked Helper.
func isHelper(function string) bool {
	for {
		if _, ok := helpers.Load(function); ok {
			return true
		}
		i := strings.LastIndexByte(function, '.')
		if i < 0 {
			return false
		}
		last := function[i+1:]
		if !strings.HasPrefix(last, "func") && strings.TrimLeft(last, "0123456789") != "" {
			return false
		}
		function = function[:i]
	}
}

// joinErrors turns a list of problems into one error that prints each on
// its own line, or nil for an empty list.
func joinErrors(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	var merr *multierror.Error
	merr = multierror.Append(merr, errs...)
	merr.ErrorFormat = func(es []error) string {
		lines := make([]string, len(es))
		for i, e := range es {
			lines[i] = e.Error()
		}
		if len(es) == 1 {
			return lines[0]
		}
		return fmt.Sprintf("%d problems:\n%s", len(es), strings.Join(lines, "\n"))
	}
	return merr
}

// Errors returns the individual problems inside an error returned by
// Elaborate (or the error itself when it is a single problem).
func Errors(err error) []error {
	if err == nil {
		return nil
	}
	if m, ok := err.(*multierror.Error); ok {
		return m.Errors
	}
	return []error{err}
}
