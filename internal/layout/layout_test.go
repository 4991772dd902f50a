// Package layout holds the test of the repository's dependency rules
// (design §1): the LDP library stands alone, the Jupyter transport knows
// neither the library nor the interpreter, and only the interpreter glue
// (engine, symbols, the goldp command) knows both.
package layout

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/goldp/goldp"

// rules maps package patterns to the import path prefixes none of their
// packages may depend on, directly or not.
var rules = []struct {
	pattern   string
	forbidden []string
	allowed   []string // exceptions to forbidden
	why       string
}{
	{"./lib/...", []string{module + "/kernel", "github.com/traefik/yaegi", "github.com/go-zeromq/zmq4"},
		nil, "lib/ is plain Go, usable without the kernel"},
	{"./kernel/jupyter/...", []string{module + "/lib", module + "/kernel/engine", module + "/kernel/symbols", "github.com/traefik/yaegi", "gonum.org"},
		nil, "the Jupyter transport never imports the library or the interpreter"},
	{"./kernel/worker/...", []string{module + "/lib", module + "/kernel/engine", module + "/kernel/symbols", "github.com/traefik/yaegi"},
		[]string{module + "/lib/progress"}, // through display, which reports progress
		"the supervisor and worker serve any session; the goldp command adapts the engine to them"},
	{"./kernel/display/...", []string{module + "/kernel/engine", module + "/kernel/jupyter", module + "/kernel/worker", "github.com/traefik/yaegi"},
		nil, "display is what cells call; it knows no transport or interpreter"},
}

// deps returns, for each package matched by pattern, its transitive
// dependencies.
func deps(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", pattern).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list %s: %v\n%s", pattern, err, msg)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			m[f[0]] = f[1:]
		}
	}
	return m
}

func TestDependencyRules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	for _, r := range rules {
		pkgs := deps(t, "../../"+strings.TrimPrefix(r.pattern, "./"))
		if len(pkgs) == 0 {
			t.Errorf("%s matches no package", r.pattern)
		}
		for pkg, ds := range pkgs {
			for _, d := range ds {
				if within(d, r.allowed) {
					continue
				}
				for _, f := range r.forbidden {
					if within(d, []string{f}) {
						t.Errorf("%s depends on %s: %s", pkg, d, r.why)
					}
				}
			}
		}
	}
}

// within reports whether import path p is one of prefixes or below one.
func within(p string, prefixes []string) bool {
	for _, f := range prefixes {
		if p == f || strings.HasPrefix(p, f+"/") {
			return true
		}
	}
	return false
}

// The rules see real dependency lists: a package known to use gonum and
// one known to use its own ZMTP package show them.
func TestDependencyListsAreReal(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	has := func(pkg, dep string) bool {
		for _, d := range deps(t, "../../"+pkg)[module+"/"+pkg] {
			if d == dep {
				return true
			}
		}
		return false
	}
	if !has("lib/plots", "gonum.org/v1/plot") {
		t.Error("lib/plots shows no gonum/plot dependency: go list output not understood")
	}
	if !has("kernel/jupyter", module+"/kernel/jupyter/internal/zmtp") {
		t.Error("kernel/jupyter shows no zmtp dependency: go list output not understood")
	}
}
