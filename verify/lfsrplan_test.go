package verify

import (
	"testing"

	"github.com/parmem/parmem/hdl"
)

// The plan's stimulus is the reference's (lfsrFill), word for word, over
// ports of one bit to several words, with and without rst, from the seed
// on for long enough that every case of every port comes up.
func TestLFSRPlanFillsAsTheReference(t *testing.T) {
	shapes := map[string]Ports{
		"one-word":   {In: []Port{{"a", 1}, {"b", 7}, {"c", 63}, {"d", 64}}},
		"rst first":  {In: []Port{{hdl.ResetName, 1}, {"a", 3}, {"b", 32}}},
		"multi-word": {In: []Port{{"a", 65}, {"b", 1}, {"c", 130}, {"d", 128}, {"e", 200}}},
	}
	for name, ports := range shapes {
		plan := newLFSRPlan(ports)
		ref, got := make(Vector, ports.InWords()), make(Vector, ports.InWords())
		for k := range got {
			got[k] = ^uint64(0) // every word must be written
		}
		s1, s2 := lfsrSeed(7), lfsrSeed(7)
		for c := range 2000 {
			lfsrFill(&s1, ports, ref)
			plan.fill(&s2, got)
			for k := range ref {
				if got[k] != ref[k] {
					t.Fatalf("%s: cycle %d, word %d: plan %#x, lfsrFill %#x", name, c, k, got[k], ref[k])
				}
			}
			if s1 != s2 {
				t.Fatalf("%s: cycle %d: generator %#x, lfsrFill's %#x", name, c, s2, s1)
			}
		}
	}
}
