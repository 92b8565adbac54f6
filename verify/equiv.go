package verify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Equivalent asks Yosys whether two Verilog texts of the same top module
// behave alike (memories mapped to flip-flops, hierarchy flattened). It
// first tries an unbounded proof by induction over matching state
// (equiv_make, equiv_simple, equiv_induct), which settles mutants that
// change nothing quickly; when that fails it searches a miter with SAT for
// a difference in the first depth cycles, from all-zero state with rst
// high in the first cycle (as every lockstep run starts). It returns false
// and Yosys's counterexample when they differ, and true when they are
// proven equivalent or no difference exists within depth cycles.
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
	load := prep("gold.v", "gold") + prep("gate.v", "gate") + "design -copy-from gold -as gold gold; design -copy-from gate -as gate gate; "
	induct := load + "equiv_make gold gate equiv; hierarchy -top equiv; equiv_simple -seq 2; equiv_induct -seq 2; equiv_status -assert"
	if _, err := runYosys(dir, induct); err == nil {
		return true, "", nil
	}
	reset := ""
	if hasReset {
		reset = "-set-at 1 in_rst 1 "
	} else {
		depth = 1 // without state one cycle says everything
	}
	search := load + "miter -equiv -flatten -make_outputs gold gate miter; hierarchy -top miter; " +
		fmt.Sprintf("sat -verify -prove trigger 0 -set-init-zero %s-seq %d -timeout 300 -show-inputs -show-outputs miter", reset, depth)
	out, err := runYosys(dir, search)
	switch {
	case err == nil:
		return true, "", nil
	case strings.Contains(out, "timed out") || strings.Contains(out, "Interrupted"):
		return false, "", fmt.Errorf("yosys equivalence check of %s: SAT gave no answer within its time limit", top)
	case strings.Contains(out, "proof did fail"):
		if i := strings.LastIndex(out, "Executing SAT"); i >= 0 {
			out = out[i:]
		}
		return false, lastLines(out, 60), nil
	}
	return false, "", fmt.Errorf("yosys equivalence check of %s: %v\n%s", top, err, lastLines(out, 30))
}

func runYosys(dir, script string) (string, error) {
	cmd := exec.Command("yosys", "-p", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}
