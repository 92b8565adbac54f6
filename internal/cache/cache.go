// Package cache keeps the results of slow external tools on disk, keyed by
// a hash of everything that goes into them (sources, flags, tool version),
// so that a second run with the same input does not run the tool again:
// Verilator and Icarus builds (verify), Yosys flows (internal/synth). The
// cache lives in $PARMEM_CACHE, or else in .cache at the module root
// (gitignored), one directory per entry, named kind-key, beside the
// directories of records that a later command reads (Dir).
package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Env names the environment variable that overrides the cache directory.
const Env = "PARMEM_CACHE"

var (
	rootOnce sync.Once
	root     string
	rootErr  error
)

// Root is the cache directory, created on first use.
func Root() (string, error) {
	rootOnce.Do(func() {
		if dir := os.Getenv(Env); dir != "" {
			root = dir
		} else {
			root, rootErr = moduleRoot()
			root = filepath.Join(root, ".cache")
		}
		if rootErr == nil {
			rootErr = os.MkdirAll(root, 0o755)
		}
	})
	return root, rootErr
}

// Dir is the directory name under the cache (a kind of record kept
// there rather than an entry: verify's coverage/), created on first use.
func Dir(name string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, name)
	return dir, os.MkdirAll(dir, 0o755)
}

// moduleRoot finds the directory holding go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s; set %s to a cache directory", dir, Env)
		}
	}
}

var (
	versionsMu sync.Mutex
	versions   = map[string]string{}
)

// ToolVersion returns the first line `tool flag` prints (flag is --version,
// -V, ...), so that a tool upgrade invalidates its entries. It runs the
// tool once per process.
func ToolVersion(tool, flag string) string {
	versionsMu.Lock()
	defer versionsMu.Unlock()
	if v, ok := versions[tool+" "+flag]; ok {
		return v
	}
	v := tool + " (version unknown)"
	if out, err := exec.Command(tool, flag).CombinedOutput(); err == nil {
		v, _, _ = strings.Cut(string(out), "\n")
	}
	versions[tool+" "+flag] = v
	return v
}

// Key hashes the parts that determine an entry.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// Build returns the directory of the entry kind-key, running build in a
// fresh directory first when the cache does not have it. An entry is
// published by renaming its directory, so concurrent builders never see
// half of one. It reports whether the entry came from the cache.
func Build(kind, key string, build func(dir string) error) (dir string, hit bool, err error) {
	root, err := Root()
	if err != nil {
		return "", false, err
	}
	dir = filepath.Join(root, kind+"-"+key)
	if _, err := os.Stat(filepath.Join(dir, "ok")); err == nil {
		return dir, true, nil
	}
	tmp, err := os.MkdirTemp(root, kind+"-tmp-")
	if err != nil {
		return "", false, err
	}
	if err := build(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", false, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "ok"), nil, 0o644); err != nil {
		os.RemoveAll(tmp)
		return "", false, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp) // another builder won the race; its entry is as good
		if _, serr := os.Stat(filepath.Join(dir, "ok")); serr != nil {
			return "", false, err
		}
	}
	return dir, false, nil
}
