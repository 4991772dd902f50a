package front

import (
	"fmt"
	"sort"
	"strings"
)

// planText is the plan of a checked cell as plan.txtar states it, after
// the program: one line per question the engine asks (plan.go).
func planText(c *Checked) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== shows: %v\n", c.Shows())
	if r := c.Renders(); len(r) > 0 {
		fmt.Fprintf(&b, "== renders through: %s\n", strings.Join(r, ", "))
	}
	imps := c.Imports()
	names := make([]string, 0, len(imps))
	for n := range imps {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "== import %s %q\n", n, imps[n])
	}
	var kept []string
	for n := range c.declared {
		if c.Kept(n) {
			kept = append(kept, n)
		}
	}
	sort.Strings(kept)
	for _, n := range kept {
		fmt.Fprintf(&b, "== kept %s\n", n)
	}
	for _, n := range c.Stale() {
		fmt.Fprintf(&b, "== %s\n", n)
	}
	return b.String()
}
