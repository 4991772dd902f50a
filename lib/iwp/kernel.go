package iwp

// margins writes u_i = icpt + ⟨θ, x_i⟩ for the rows of xb (len(out) rows of
// d features) into out. Small d get unrolled loops.
func margins(xb, th []float64, icpt float64, d int, out []float64) {
	switch d {
	case 2:
		t0, t1 := th[0], th[1]
		for i := range out {
			r := xb[2*i : 2*i+2 : 2*i+2]
			out[i] = icpt + t0*r[0] + t1*r[1]
		}
	case 4:
		t0, t1, t2, t3 := th[0], th[1], th[2], th[3]
		for i := range out {
			r := xb[4*i : 4*i+4 : 4*i+4]
			out[i] = icpt + (t0*r[0] + t1*r[1]) + (t2*r[2] + t3*r[3])
		}
	default:
		th = th[:d:d]
		for i := range out {
			r := xb[i*d : i*d+d : i*d+d]
			u := icpt
			for j, v := range r {
				u += th[j] * v
			}
			out[i] = u
		}
	}
}

// accumulate adds Σ c_i·x_i into g (length d) and returns Σ c_i.
func accumulate(xb, c []float64, d int, g []float64) float64 {
	var s float64
	switch d {
	case 2:
		var g0, g1 float64
		for i, ci := range c {
			r := xb[2*i : 2*i+2 : 2*i+2]
			g0 += ci * r[0]
			g1 += ci * r[1]
			s += ci
		}
		g[0] += g0
		g[1] += g1
	case 4:
		var g0, g1, g2, g3 float64
		for i, ci := range c {
			r := xb[4*i : 4*i+4 : 4*i+4]
			g0 += ci * r[0]
			g1 += ci * r[1]
			g2 += ci * r[2]
			g3 += ci * r[3]
			s += ci
		}
		g[0] += g0
		g[1] += g1
		g[2] += g2
		g[3] += g3
	default:
		g = g[:d:d]
		for i, ci := range c {
			r := xb[i*d : i*d+d : i*d+d]
			for j, v := range r {
				g[j] += ci * v
			}
			s += ci
		}
	}
	return s
}
