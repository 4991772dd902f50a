package classify

import (
	"fmt"
	"strings"
)

// Markdown describes the rule for a notebook, with its guarantee.
func (p *ProtoNN) Markdown() string {
	if p.mechanism != nil {
		return fmt.Sprintf("**Private Proto-NN**: %d Voronoi cells, $n = %d$ reports, "+
			"$\\tilde g_n(x) = \\operatorname{sign} \\tilde\\nu_n(A_n(x))$, $\\tilde\\nu_n(A_j) = \\frac1n \\sum_i W_{ij}$; %s",
			len(p.nu), p.n, p.guarantee.Markdown())
	}
	return fmt.Sprintf("**Proto-NN**: %d Voronoi cells, $n = %d$ labelled points, "+
		"$g_n(x) = \\operatorname{sign} \\nu_n(A_n(x))$; %s", len(p.nu), p.n, guaranteeMarkdown(p))
}

func guaranteeMarkdown(p *ProtoNN) string {
	if p.mechanism == nil && p.guarantee.Epsilon > 1e300 {
		return "public data (no privacy)"
	}
	return p.guarantee.Markdown()
}

// Markdown describes the rule for a notebook, with its guarantee.
func (b *BB) Markdown() string {
	return fmt.Sprintf("**Berrett–Butucea rule** on $[0,1]^{%d}$: $h = %.4g$, %d cells, $n = %d + %d$, "+
		"$C_n(x) = \\mathbf 1\\{T_n(x) \\ge 0\\}$; %s",
		b.mech.Dim(), b.Bandwidth(), b.mech.NumCells(), b.n1, b.n2, b.Guarantee().Markdown())
}

// Markdown renders the study as a table with the fitted and the theory slopes.
func (r *RateResult) Markdown() string {
	var s strings.Builder
	param := "$h$"
	if r.Config.Method == "protonn" {
		param = "$k$"
	}
	fmt.Fprintf(&s, "**Rate study** (%s): $d = %d$, $\\beta = %.3g$, $\\gamma = %.3g$, $\\alpha = %g$, %d repetitions\n\n",
		r.Config.Method, r.Config.Problem.D, r.Config.Problem.Beta(), r.Config.Problem.Gamma(), r.Config.Alpha, r.Config.Reps)
	fmt.Fprintf(&s, "| $n$ | $n\\alpha^2$ | %s | excess risk | se |\n|---:|---:|---:|---:|---:|\n", param)
	for _, p := range r.Points {
		fmt.Fprintf(&s, "| %d | %.4g | %.4g | %.5f | %.5f |\n", p.N, p.NAlpha2, p.Param, p.Risk, p.SE)
	}
	fmt.Fprintf(&s, "\nfitted slope **%.3f** ± %.3f, theory slope **%.3f**\n", r.Fit.Slope, r.Fit.SE, r.Theory)
	return s.String()
}
