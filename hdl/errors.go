package hdl

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

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
// (its tests count as outside), so an error points at the user's line.
func callerPos() Pos {
	var pcs [32]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		inHDL := strings.HasPrefix(f.Function, hdlPkgPrefix) &&
			!strings.HasSuffix(f.File, "_test.go")
		if !inHDL && f.File != "" {
			return Pos{File: filepath.Base(f.File), Line: f.Line}
		}
		if !more {
			return Pos{}
		}
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
