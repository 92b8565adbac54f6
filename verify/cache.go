package verify

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

// Builds of Verilator and Icarus simulators are cached on disk, keyed by a
// hash of everything that goes into them (sources, flags, tool version), so
// a second run with the same design does not rebuild. The cache lives in
// $PARMEM_CACHE, or else in .cache/verify at the module root (gitignored).

// CacheEnv names the environment variable that overrides the cache directory.
const CacheEnv = "PARMEM_CACHE"

var (
	cacheOnce sync.Once
	cacheRoot string
	cacheErr  error
)

func cacheDir() (string, error) {
	cacheOnce.Do(func() {
		if dir := os.Getenv(CacheEnv); dir != "" {
			cacheRoot = dir
		} else {
			cacheRoot, cacheErr = moduleRoot()
			cacheRoot = filepath.Join(cacheRoot, ".cache", "verify")
		}
		if cacheErr == nil {
			cacheErr = os.MkdirAll(cacheRoot, 0o755)
		}
	})
	return cacheRoot, cacheErr
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
			return "", fmt.Errorf("no go.mod above %s; set %s to a cache directory", dir, CacheEnv)
		}
	}
}

// toolVersion returns the first line `tool --version` (or -V) prints, so a
// tool upgrade invalidates its builds.
func toolVersion(tool string, flag string) string {
	out, err := exec.Command(tool, flag).CombinedOutput()
	if err != nil {
		return tool + " (version unknown)"
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return line
}

// hashKey hashes the parts that determine a build.
func hashKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// cachedBuild returns the directory of the build named kind-key, running
// build in a fresh directory first when the cache does not have it. A
// build is published by renaming its directory, so concurrent builders
// never see half a build. It reports whether the build came from the cache.
func cachedBuild(kind, key string, build func(dir string) error) (dir string, hit bool, err error) {
	root, err := cacheDir()
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
		os.RemoveAll(tmp) // another builder won the race; its build is as good
		if _, serr := os.Stat(filepath.Join(dir, "ok")); serr != nil {
			return "", false, err
		}
	}
	return dir, false, nil
}
