package hdl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
)

// fingerprint is a hash of everything about a module that reaches the
// simulator or the Verilog, and nothing else (source positions are left
// out): two modules with equal fingerprints are the same hardware under the
// same names, so one can stand for both.
func (e *elaborator) fingerprint(m *Module) string {
	if fp, ok := e.prints[m]; ok {
		return fp
	}
	e.prints[m] = "" // a module that instances itself hashes to itself
	m.lower()
	h := sha256.New()
	put := func(format string, args ...any) { fmt.Fprintf(h, format, args...) }
	memIdx, instIdx := map[*Mem]int{}, map[*Instance]int{}
	for i, x := range m.mems {
		memIdx[x] = i
	}
	for i, x := range m.insts {
		instIdx[x] = i
	}
	index := func(ok bool, i int) int {
		if !ok {
			return -1
		}
		return i
	}
	put("module %q\n", m.name)
	for _, s := range m.inputs {
		put("in %d\n", s.id)
	}
	for _, s := range m.outputs {
		put("out %d\n", s.id)
	}
	for _, s := range m.signals {
		put("sig %d %s %d %d %q %q %s [", s.id, s.kind, s.width, s.k, s.name, s.sym, s.val)
		for _, a := range s.args {
			put("%d ", idOf(a))
		}
		mi, okm := memIdx[s.mem]
		ii, oki := instIdx[s.inst]
		put("] %d %d %q\n", index(okm, mi), index(oki, ii), s.port)
	}
	for _, mem := range m.mems {
		put("mem %q %d %d\n", mem.name, mem.depth, mem.width)
		for _, w := range mem.writes {
			put("write %d %d %d %d\n", idOf(w.addr), idOf(w.data), idOf(w.en), idOf(w.mask))
		}
		for _, r := range mem.reads {
			put("read %d\n", r.id)
		}
	}
	for _, i := range m.insts {
		put("inst %q %s\n", i.name, e.fingerprint(i.sub))
		for _, c := range i.conns {
			put("conn %q %d\n", c.port, c.sig.id)
		}
	}
	for _, f := range m.fsms {
		put("fsm %d %q\n", f.reg.id, f.states)
	}
	for _, p := range m.props {
		put("property %s %q %q %d\n", p.kind, p.name, p.message, p.cond.id)
	}
	fp := sum(h)
	e.prints[m] = fp
	return fp
}

func sum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

func idOf(s *Signal) int {
	if s == nil {
		return -1
	}
	return s.id
}
