package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/parmem/parmem/units"
)

// The canonical RTL is the reviewed Verilog each family registers, kept
// in rtl/: make rtl regenerates it (gen -canonical rtl), and a test fails
// when a file there is stale.

// canonicalFiles lists every registered canonical file, family by family.
func canonicalFiles() []units.Canonical {
	var cs []units.Canonical
	for _, f := range reg.Families() {
		cs = append(cs, f.Canonical...)
	}
	return cs
}

// canonicalText generates one canonical file's text.
func canonicalText(c units.Canonical) ([]byte, error) {
	u, v, err := reg.Resolve(units.Config{Unit: c.Unit, Values: c.Values})
	if err != nil {
		return nil, err
	}
	d, err := elaborate(u, v, c.Top)
	if err != nil {
		return nil, err
	}
	return d.Verilog(), nil
}

// writeCanonical regenerates every canonical file under dir. Every text
// is made before any file is written, so a failure leaves rtl/ as it was.
func writeCanonical(dir string) error {
	cs := canonicalFiles()
	texts := make([][]byte, len(cs))
	for i, c := range cs {
		text, err := canonicalText(c)
		if err != nil {
			return err
		}
		texts[i] = text
	}
	for i, c := range cs {
		path := filepath.Join(dir, filepath.FromSlash(c.File))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return badf("-canonical %s: %v", dir, err)
		}
		if err := emit(path, nil, func(w io.Writer) error { _, err := w.Write(texts[i]); return err }); err != nil {
			return err
		}
	}
	return nil
}
