package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
)

// canonical is the reviewed RTL kept in rtl/: make rtl regenerates it
// (gen -canonical rtl), and a test fails when a file there is stale.
var canonical = []struct {
	file string // under the rtl directory
	args []string
}{
	{"sams/sams_q2.v", []string{"-unit", "sams", "-q", "2", "-n", "16", "-w", "32", "-top", "sams_q2"}},
	{"sams/sams_q3.v", []string{"-unit", "sams", "-q", "3", "-n", "16", "-w", "32", "-top", "sams_q3"}},
	{"sams/sams_q4.v", []string{"-unit", "sams", "-q", "4", "-n", "16", "-w", "32", "-top", "sams_q4"}},
	{"sams/sams_atu_q3_n23.v", []string{"-unit", "sams-atu", "-q", "3", "-n", "23", "-top", "sams_atu_q3_n23"}},
	{"sams/sams_agu_q3_n16.v", []string{"-unit", "sams-agu", "-q", "3", "-n", "16", "-top", "sams_agu_q3_n16"}},
}

// canonicalText generates one canonical file's text.
func canonicalText(args []string) ([]byte, error) {
	var out bytes.Buffer
	if err := generate(args, &out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// writeCanonical regenerates every canonical file under dir. Every text
// is made before any file is written, so a failure leaves rtl/ as it was.
func writeCanonical(dir string) error {
	texts := make([][]byte, len(canonical))
	for i, c := range canonical {
		text, err := canonicalText(c.args)
		if err != nil {
			return err
		}
		texts[i] = text
	}
	for i, c := range canonical {
		path := filepath.Join(dir, c.file)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return badf("-canonical %s: %v", dir, err)
		}
		if err := emit(path, nil, func(w io.Writer) error { _, err := w.Write(texts[i]); return err }); err != nil {
			return err
		}
	}
	return nil
}
