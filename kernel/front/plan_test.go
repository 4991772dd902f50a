package front

import "fmt"

// planText is the plan of a checked cell as plan.txtar states it, after
// the program: one line per question the engine asks (plan.go).
func planText(c *Checked) string {
	return fmt.Sprintf("== shows: %v\n", c.Shows())
}
