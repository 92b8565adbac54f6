package lib

import (
	"slices"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// Every component is checked in lockstep (make test's lib pack) in at
// least one configuration, and every configuration is valid and builds.
func TestEveryComponentInTheLockstepPack(t *testing.T) {
	checked := map[string]int{}
	for _, c := range lockstepConfigs() {
		checked[c.Unit]++
		d, err := c.Build("top")
		require.NoError(t, err, "%s", c)
		require.NotNil(t, d, "%s", c)
	}
	for _, u := range libUnits() {
		require.Positive(t, checked[u.Name], "%s has no lockstep configuration", u.Name)
	}
	require.Len(t, checked, len(libUnits()), "no configuration of a unit outside the family")
}

// The lib report measures each component once, at its defaults, in the
// family's order.
func TestReportConfigsAreTheDefaults(t *testing.T) {
	cs := reportConfigs()
	var names []string
	for _, c := range cs {
		require.Empty(t, c.Values, "%s: at its defaults", c.Unit)
		names = append(names, c.Unit)
	}
	want := []string{"lib-fifo", "lib-prio", "lib-rrarb", "lib-age", "lib-argmax", "lib-cam", "lib-lru", "lib-plru",
		"lib-popcount", "lib-encode", "lib-decode", "lib-satcnt", "lib-downcnt"}
	require.Equal(t, want, names)
	fifo, v, err := cs[0].Resolve()
	require.NoError(t, err)
	require.Equal(t, "lib-fifo", fifo.Name)
	require.Equal(t, 4, v["depth"])
	require.Equal(t, 8, v["width"])
}

// The shared declarations' ranges: an arbiter needs two requesters, the
// tree pseudo-LRU a power of two of ways, and the errors name the flag
// and what is valid.
func TestParameterRanges(t *testing.T) {
	for c, want := range map[*units.Config]string{
		{Unit: "lib-rrarb", Values: units.Values{"n": 1}}:    "-n=1 is out of range for unit lib-rrarb: valid 2..64",
		{Unit: "lib-argmax", Values: units.Values{"w": 65}}:  "-w=65 is out of range for unit lib-argmax: valid 1..64",
		{Unit: "lib-plru", Values: units.Values{"ways": 6}}:  "-ways=6 is not valid for unit lib-plru: valid 2, 4, 8",
		{Unit: "lib-lru", Values: units.Values{"ways": 9}}:   "-ways=9 is out of range for unit lib-lru: valid 2..8",
		{Unit: "lib-fifo", Values: units.Values{"depth": 0}}: "-depth=0 is out of range for unit lib-fifo: valid 1..256",
	} {
		_, _, err := c.Resolve()
		require.EqualError(t, err, want)
		var ie *units.InputError
		require.ErrorAs(t, err, &ie)
	}
}

// The four components external benches drive have their canonical files
// in rtl/lib, named by their modules.
func TestCanonicalFiles(t *testing.T) {
	f, err := units.LookupFamily("lib")
	require.NoError(t, err)
	var files []string
	for _, c := range f.Canonical {
		files = append(files, c.File)
		require.Equal(t, "lib/"+c.Top+".v", c.File)
	}
	require.True(t, slices.Equal([]string{"lib/lib_fifo.v", "lib/lib_prio.v", "lib/lib_rrarb.v", "lib/lib_lru.v"}, files), "%v", files)
}
