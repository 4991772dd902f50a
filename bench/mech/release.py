#!/usr/bin/python3
"""numpy side of the lib/mech release benchmark.

Same work as bench/mech/main.go: n records x d features in [-1, 1]^d get
Gaussian noise of the same sigma (analytic calibration, eps_X = 1,
delta = 1e-5, l2 sensitivity = diameter of the box) after a domain check,
and the +-1 labels go through randomized response with eps_Y = 1. numpy's
Generator (PCG64 + 256-layer ziggurat) is used, the fastest numpy path.
Prints, per mode (alloc: fresh output arrays; reuse: out= buffers):
numpy, mode, 1, best wall seconds, millions of noisy values per second,
best CPU seconds.
"""
import argparse
import math
import time

import numpy as np


def release(rng, x, y, lo, hi, sigma, keep, out=None):
    """Allocating release, or into out = (xt, yt, u) buffers when given."""
    if not (np.all(x >= lo) and np.all(x <= hi)):
        raise ValueError("feature outside the box")
    if out is None:
        xt = rng.standard_normal(x.shape)
        xt *= sigma
        xt += x
        flip = rng.random(y.shape[0]) >= keep
        return xt, np.where(flip, -y, y)
    xt, yt, u = out
    rng.standard_normal(out=xt)
    xt *= sigma
    xt += x
    rng.random(out=u)
    np.copyto(yt, y)
    np.negative(y, out=yt, where=u >= keep)
    return xt, yt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1000000)
    ap.add_argument("-d", type=int, default=10)
    ap.add_argument("-reps", type=int, default=5)
    ap.add_argument("-sigma", type=float, required=True)
    a = ap.parse_args()
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (a.n, a.d))
    y = rng.choice([-1.0, 1.0], a.n)
    keep = math.exp(1) / (1 + math.exp(1))
    bufs = (np.empty_like(x), np.empty_like(y), np.empty(a.n))
    for mode in ("alloc", "reuse"):
        best = best_cpu = float("inf")
        for k in range(a.reps):
            r = np.random.default_rng(k)
            t0, c0 = time.perf_counter(), time.process_time()
            release(r, x, y, -1.0, 1.0, a.sigma, keep, None if mode == "alloc" else bufs)
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.process_time() - c0)
        print("numpy\t%s\t1\t%.4f\t%.1f\t%.4f" % (mode, best, a.n * a.d / best / 1e6, best_cpu))


if __name__ == "__main__":
    main()
