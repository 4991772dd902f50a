#!/usr/bin/python3
"""numpy side of the lib/mech release benchmark.

Same work as bench/mech/main.go: n records x d features in [-1, 1]^d get
Gaussian noise of the same sigma (analytic calibration, eps_X = 1,
delta = 1e-5, l2 sensitivity = diameter of the box) after a domain check,
and the +-1 labels go through randomized response with eps_Y = 1. numpy's
Generator (PCG64 + 256-layer ziggurat) is used, the fastest numpy path.
Prints: numpy, 1, best seconds, millions of noisy values per second.
"""
import argparse
import math
import time

import numpy as np


def release(rng, x, y, lo, hi, sigma, keep):
    if not (np.all(x >= lo) and np.all(x <= hi)):
        raise ValueError("feature outside the box")
    xt = rng.standard_normal(x.shape)
    xt *= sigma
    xt += x
    flip = rng.random(y.shape[0]) >= keep
    yt = np.where(flip, -y, y)
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
    best = float("inf")
    for k in range(a.reps):
        r = np.random.default_rng(k)
        t0 = time.perf_counter()
        release(r, x, y, -1.0, 1.0, a.sigma, keep)
        best = min(best, time.perf_counter() - t0)
    print("numpy\t1\t%.4f\t%.1f" % (best, a.n * a.d / best / 1e6))


if __name__ == "__main__":
    main()
