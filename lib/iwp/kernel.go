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

// marginsY writes out[i] = a + s·y_i·(icpt + ⟨θ, x_i⟩) for the rows of xb
// (len(out) rows of d features) and labels y: the argument of the
// exponential in the SGD batches (s = −1, a = 0: −y·u for the plain
// gradient; s = 1, a = log b − h for IWP), computed without a pass of its
// own over the batch.
func marginsY(xb, th, y []float64, icpt, s, a float64, d int, out []float64) {
	y = y[:len(out)]
	switch d {
	case 2:
		t0, t1 := th[0], th[1]
		for i, yi := range y {
			r := xb[2*i : 2*i+2 : 2*i+2]
			out[i] = a + s*yi*(icpt+t0*r[0]+t1*r[1])
		}
	case 4:
		t0, t1, t2, t3 := th[0], th[1], th[2], th[3]
		for i, yi := range y {
			r := xb[4*i : 4*i+4 : 4*i+4]
			out[i] = a + s*yi*(icpt+(t0*r[0]+t1*r[1])+(t2*r[2]+t3*r[3]))
		}
	default:
		th = th[:d:d]
		for i, yi := range y {
			r := xb[i*d : i*d+d : i*d+d]
			u := icpt
			for j, v := range r {
				u += th[j] * v
			}
			out[i] = a + s*yi*u
		}
	}
}

// marginsY2 is marginsY for d = 4 and two models on the same rows, naive
// SGD's θ1 (s = −1, a = 0) and IWP's θ2 (s = 1, a = a2): out1[i] =
// −y_i·(icpt1 + ⟨θ1, x_i⟩) and out2[i] = a2 + y_i·(icpt2 + ⟨θ2, x_i⟩), the
// values marginsY computes (0 + (−y)·u and a2 + (1·y)·u round as these do;
// a −0 for +0 leaves the exponential unchanged), in one loop that reads each
// row once. The coordinates of θ are read from memory where they are
// used: held in registers, with the row's four values, they were more than
// the registers and spilled.
func marginsY2(xb, y []float64, th1 *[4]float64, icpt1 float64, out1 []float64, th2 *[4]float64, icpt2, a2 float64, out2 []float64) {
	y = y[:len(out1)]
	out2 = out2[:len(out1)]
	for i, yi := range y {
		r := xb[4*i : 4*i+4 : 4*i+4]
		x0, x1, x2, x3 := r[0], r[1], r[2], r[3]
		out1[i] = -yi * (icpt1 + (th1[0]*x0 + th1[1]*x1) + (th1[2]*x2 + th1[3]*x3))
		out2[i] = a2 + yi*(icpt2+(th2[0]*x0+th2[1]*x1)+(th2[2]*x2+th2[3]*x3))
	}
}

// accumulateY adds Σ c_i·x_i into g (length d) and returns Σ c_i, where
// c_i = s·y_i·e_i: the gradient's weights are formed inside the loop that
// sums them rather than in a pass of their own.
func accumulateY(xb, e, y []float64, s float64, d int, g []float64) float64 {
	var sum float64
	y = y[:len(e)]
	switch d {
	case 2:
		var g0, g1 float64
		for i, ei := range e {
			ci := s * y[i] * ei
			r := xb[2*i : 2*i+2 : 2*i+2]
			g0 += ci * r[0]
			g1 += ci * r[1]
			sum += ci
		}
		g[0] += g0
		g[1] += g1
	case 4:
		var g0, g1, g2, g3 float64
		for i, ei := range e {
			ci := s * y[i] * ei
			r := xb[4*i : 4*i+4 : 4*i+4]
			g0 += ci * r[0]
			g1 += ci * r[1]
			g2 += ci * r[2]
			g3 += ci * r[3]
			sum += ci
		}
		g[0] += g0
		g[1] += g1
		g[2] += g2
		g[3] += g3
	default:
		g = g[:d:d]
		for i, ei := range e {
			ci := s * y[i] * ei
			r := xb[i*d : i*d+d : i*d+d]
			for j, v := range r {
				g[j] += ci * v
			}
			sum += ci
		}
	}
	return sum
}

// margin returns icpt + ⟨θ, x⟩ for one row x (the rare paths of the
// batched kernels), summed as margins sums it.
func margin(x, th []float64, icpt float64) float64 {
	if len(x) == 4 {
		return icpt + (th[0]*x[0] + th[1]*x[1]) + (th[2]*x[2] + th[3]*x[3])
	}
	u := icpt
	for j, v := range x {
		u += th[j] * v
	}
	return u
}
