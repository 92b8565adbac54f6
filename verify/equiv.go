package verify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Equivalent asks Yosys whether two Verilog texts of the same top module
// behave alike: it builds a miter of the flattened designs (memories
// mapped to flip-flops) and proves with SAT that no output differs in the
// first depth cycles, starting from all-zero state with rst high in the
// first cycle (as every lockstep run starts). It returns false and Yosys's
// counterexample when they differ.
func Equivalent(top string, gold, gate []byte, hasReset bool, depth int) (bool, string, error) {
	if _, err := exec.LookPath("yosys"); err != nil {
		return false, "", fmt.Errorf("yosys is not installed; run `make deps`")
	}
	dir, err := os.MkdirTemp("", "parmem-equiv-")
	if err != nil {
		return false, "", err
	}
	defer os.RemoveAll(dir)
	for name, text := range map[string][]byte{"gold.v": gold, "gate.v": gate} {
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o644); err != nil {
			return false, "", err
		}
	}
	prep := func(file, as string) string {
		return fmt.Sprintf("read_verilog %s; hierarchy -top %s; proc; flatten; memory -nomap; memory_map; opt_clean; rename %s %s; design -stash %s; ", file, top, top, as, as)
	}
	reset := ""
	if hasReset {
		reset = "-set-at 1 in_rst 1 "
	}
	script := prep("gold.v", "gold") + prep("gate.v", "gate") +
		"design -copy-from gold -as gold gold; design -copy-from gate -as gate gate; " +
		"miter -equiv -flatten -make_outputs gold gate miter; hierarchy -top miter; " +
		fmt.Sprintf("sat -verify -prove trigger 0 -set-init-zero %s-seq %d -show-inputs -show-outputs miter", reset, depth)
	cmd := exec.Command("yosys", "-q", "-p", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		return true, "", nil
	}
	if strings.Contains(string(out), "SAT proof finished - model found") || strings.Contains(string(out), "failed") {
		return false, lastLines(string(out), 40), nil
	}
	return false, "", fmt.Errorf("yosys equivalence check of %s: %v\n%s", top, err, lastLines(string(out), 30))
}
