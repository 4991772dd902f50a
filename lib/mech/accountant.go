package mech

import (
	"fmt"
	"strings"
	"sync"
)

// Accountant keeps a per-individual privacy budget under basic composition
// and refuses any charge that would take an individual past it. Individuals
// are identified by int ids; a charge without ids applies to everyone
// (every individual released once more).
//
// The zero value is not usable; call NewAccountant. Methods are safe for
// concurrent use.
type Accountant struct {
	mu     sync.Mutex
	budget Guarantee
	all    Guarantee         // charged to everyone
	own    map[int]Guarantee // charged to single individuals
	log    []Charge
}

// Charge is one accepted entry of an Accountant's ledger.
type Charge struct {
	Label     string    // what was released
	Guarantee Guarantee // cost per individual charged
	Count     int       // number of individuals charged, −1 for everyone
}

// NewAccountant returns an accountant giving every individual the budget.
func NewAccountant(budget Guarantee) (*Accountant, error) {
	if err := budget.Validate(); err != nil {
		return nil, err
	}
	return &Accountant{budget: budget, own: map[int]Guarantee{}}, nil
}

// Budget returns the per-individual budget.
func (a *Accountant) Budget() Guarantee { return a.budget }

// Charge records a release costing g for each of ids (everyone when ids is
// empty). If any individual would exceed the budget, nothing is recorded
// and the error names the individual, what they have spent and the charge.
func (a *Accountant) Charge(label string, g Guarantee, ids ...int) error {
	if err := g.Validate(); err != nil {
		return err
	}
	if g.Model == Central && a.budget.Model != Central {
		return fmt.Errorf("mech: Accountant refuses %q: its guarantee %v is central DP, which says nothing about one individual's report; a local budget (%v) cannot cover it (use a budget with Model: Central)", label, g, a.budget)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(ids) == 0 {
		worst, wid := a.all, -1
		for id, s := range a.own {
			t := Compose(a.all, s)
			if t.Epsilon > worst.Epsilon || (t.Epsilon == worst.Epsilon && t.Delta > worst.Delta) {
				worst, wid = t, id
			}
		}
		if after := Compose(worst, g); !after.Within(a.budget) {
			who := "every individual"
			if wid >= 0 {
				who = fmt.Sprintf("individual %d", wid)
			}
			return fmt.Errorf("mech: Accountant refuses %q: %s has spent %v, plus %v exceeds the budget %v", label, who, worst, g, a.budget)
		}
		a.all = Compose(a.all, g)
		a.log = append(a.log, Charge{Label: label, Guarantee: g, Count: -1})
		return nil
	}
	for _, id := range ids {
		if after := Compose(a.all, a.own[id], g); !after.Within(a.budget) {
			return fmt.Errorf("mech: Accountant refuses %q: individual %d has spent %v, plus %v exceeds the budget %v",
				label, id, Compose(a.all, a.own[id]), g, a.budget)
		}
	}
	seen := make(map[int]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		a.own[id] = Compose(a.own[id], g)
	}
	a.log = append(a.log, Charge{Label: label, Guarantee: g, Count: len(seen)})
	return nil
}

// Spent returns what individual id has spent.
func (a *Accountant) Spent(id int) Guarantee {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Compose(a.all, a.own[id])
}

// Remaining returns what individual id may still spend.
func (a *Accountant) Remaining(id int) Guarantee {
	s := a.Spent(id)
	r := Guarantee{Epsilon: a.budget.Epsilon - s.Epsilon, Delta: a.budget.Delta - s.Delta}
	if r.Epsilon < 0 {
		r.Epsilon = 0
	}
	if r.Delta < 0 {
		r.Delta = 0
	}
	return r
}

// Ledger returns a copy of the accepted charges in order.
func (a *Accountant) Ledger() []Charge {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Charge(nil), a.log...)
}

// String summarises the budget and the ledger.
func (a *Accountant) String() string {
	var b strings.Builder
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(&b, "privacy accountant: budget %v per individual, %d charges", a.budget, len(a.log))
	for _, c := range a.log {
		who := "everyone"
		if c.Count >= 0 {
			who = fmt.Sprintf("%d individuals", c.Count)
		}
		fmt.Fprintf(&b, "\n  %s: %v for %s", c.Label, c.Guarantee, who)
	}
	return b.String()
}

// Markdown renders the budget and the ledger as a table.
func (a *Accountant) Markdown() string {
	var b strings.Builder
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(&b, "**Privacy accountant**, budget %s per individual\n\n| release | cost | charged to |\n|---|---|---|\n", a.budget.Markdown())
	for _, c := range a.log {
		who := "everyone"
		if c.Count >= 0 {
			who = fmt.Sprintf("%d individuals", c.Count)
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Label, c.Guarantee.Markdown(), who)
	}
	return b.String()
}
