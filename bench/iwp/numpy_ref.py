#!/usr/bin/python3
"""NumPy reference of the E-C2 IWP-SGD benchmark (same algorithm as lib/iwp).

Reads the setting written by `IWP_BENCH_DUMP=dir go test -run TestEC2Small ./bench/iwp`
and, per noise draw: releases the training rows (Gaussian
features, randomized-response labels), runs single-pass mini-batch SGD with
the exponential loss + intercept for clean / naive / IWP, records the test
risk at 20 trajectory points (first 2,000 test rows) and the final test risk
and accuracy.

Two implementations:
  loop        one draw after another, a Python loop over batches with
              vectorised batch arithmetic (the direct transcription);
  vectorised  all draws at once: arrays of shape (draws, batch, d), one
              Python loop over batches (the fastest plain-NumPy form).
Prints one line per variant: variant, draws, seconds, seconds per draw,
CPU seconds, mean final risk per method. With --clean-once the clean run,
which does not depend on the draw, is trained once and shared (as lib/iwp's
Experiment does); the variant names get the suffix -clean1. (run.sh scales
the loop form linearly in the draws, so it uses --clean-once for the
vectorised form only.)
"""
import argparse
import os
import sys
import time

import numpy as np


def load(dirname):
    p = {}
    for line in open(os.path.join(dirname, "params.txt")):
        k, v = line.split()
        p[k] = float(v)
    d = int(p["d"])
    f = lambda n: np.fromfile(os.path.join(dirname, n + ".f64"), dtype="<f8")
    return p, f("xtrain").reshape(-1, d), f("ytrain"), f("xtest").reshape(-1, d), f("ytest")


def risk(theta, x, y):
    u = x @ theta[:-1] + theta[-1]
    return np.mean(np.exp(-y * u)), np.mean((u >= 0) == (y > 0))


def sgd(method, x, y, p, xtr, ytr):
    d = x.shape[1]
    B, step, lam, rad, sig = int(p["batch"]), p["step"], p["lambda"], p["radius"], p["sigma"]
    eps = p["epsy"]
    la, lb = np.log(-1 / np.expm1(-eps)), np.log(1 / np.expm1(eps))
    nb = len(y) // B
    every = max(1, nb // int(p["points"]))
    theta = np.zeros(d + 1)
    traj = []
    for t in range(nb):
        xb = x[t * B:(t + 1) * B]
        yb = y[t * B:(t + 1) * B]
        u = xb @ theta[:d] + theta[d]
        if method == "iwp":
            h = sig * sig * (theta[:d] @ theta[:d]) / 2
            m = yb * u
            e1 = np.exp(la - m - h)
            e2 = np.exp(lb + m - h)
            a = -yb * (e1 + e2)
            g = np.empty(d + 1)
            g[:d] = a @ xb / B - sig * sig * theta[:d] * np.mean(e1 - e2)
            g[d] = a.mean()
        else:
            c = -yb * np.exp(-yb * u)
            g = np.empty(d + 1)
            g[:d] = c @ xb / B
            g[d] = c.mean()
        theta -= step * (g + lam * theta)
        nrm = np.sqrt(theta @ theta)
        if nrm > rad:
            theta *= rad / nrm
        if (t + 1) % every == 0 and t + 1 < nb:
            traj.append(risk(theta, xtr, ytr)[0])
    return theta, traj


def run_loop(p, X, Y, Xte, Yte, draws, seed, clean_once=False):
    tt = int(p["trajtest"])
    xtr, ytr = Xte[:tt], Yte[:tt]
    final = {m: [] for m in ("clean", "naive", "iwp")}
    if clean_once:  # the clean run does not depend on the draw
        th, _ = sgd("clean", X, Y, p, xtr, ytr)
        final["clean"] = [risk(th, Xte, Yte)[0]] * draws
    for r in range(draws):
        rng = np.random.default_rng(seed + r)
        xs, ys = X, Y
        xt = xs + p["sigma"] * rng.standard_normal(xs.shape)
        yt = np.where(rng.random(len(ys)) >= p["keep"], -ys, ys)
        for m in final:
            if m == "clean" and clean_once:
                continue
            th, _ = sgd(m, xs if m == "clean" else xt, ys if m == "clean" else yt, p, xtr, ytr)
            final[m].append(risk(th, Xte, Yte)[0])
    return final


def run_vec(p, X, Y, Xte, Yte, draws, seed, clean_once=False):
    d = X.shape[1]
    B, step, lam, rad, sig = int(p["batch"]), p["step"], p["lambda"], p["radius"], p["sigma"]
    eps = p["epsy"]
    la, lb = np.log(-1 / np.expm1(-eps)), np.log(1 / np.expm1(eps))
    tt = int(p["trajtest"])
    xtr, ytr = Xte[:tt], Yte[:tt]
    rng = np.random.default_rng(seed)
    n = len(Y)
    XS = np.broadcast_to(X, (draws,) + X.shape)      # (R, n, d), same rows
    YS = np.broadcast_to(Y, (draws, n))
    XT = XS + sig * rng.standard_normal(XS.shape)
    YT = np.where(rng.random(YS.shape) >= p["keep"], -YS, YS)
    nb = n // B
    every = max(1, nb // int(p["points"]))
    final = {}
    for m, (x, y) in (("clean", (XS, YS)), ("naive", (XT, YT)), ("iwp", (XT, YT))):
        R = draws
        if m == "clean" and clean_once:  # one clean run, shared by the draws
            R, x, y = 1, XS[:1], YS[:1]
        theta = np.zeros((R, d + 1))
        for t in range(nb):
            xb = x[:, t * B:(t + 1) * B]               # (R, B, d)
            yb = y[:, t * B:(t + 1) * B]               # (R, B)
            u = np.einsum("rbd,rd->rb", xb, theta[:, :d]) + theta[:, d:]
            g = np.empty_like(theta)
            if m == "iwp":
                h = sig * sig * np.einsum("rd,rd->r", theta[:, :d], theta[:, :d])[:, None] / 2
                mm = yb * u
                e1 = np.exp(la - mm - h)
                e2 = np.exp(lb + mm - h)
                a = -yb * (e1 + e2)
                g[:, :d] = np.einsum("rb,rbd->rd", a, xb) / B - sig * sig * theta[:, :d] * (e1 - e2).mean(1)[:, None]
                g[:, d] = a.mean(1)
            else:
                c = -yb * np.exp(-yb * u)
                g[:, :d] = np.einsum("rb,rbd->rd", c, xb) / B
                g[:, d] = c.mean(1)
            theta -= step * (g + lam * theta)
            nrm = np.sqrt(np.einsum("rd,rd->r", theta, theta))
            over = nrm > rad
            if over.any():
                theta[over] *= (rad / nrm[over])[:, None]
            if (t + 1) % every == 0 and t + 1 < nb:
                uu = xtr @ theta[:, :d].T + theta[:, d]
                np.mean(np.exp(-ytr[:, None] * uu), axis=0)
        uu = Xte @ theta[:, :d].T + theta[:, d]
        final[m] = list(np.mean(np.exp(-Yte[:, None] * uu), axis=0)) * (draws // R)
    return final


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--loop-draws", type=int, default=2)
    ap.add_argument("--vec-draws", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--clean-once", action="store_true",
                    help="train the clean run once and share it across draws (as lib/iwp does since 2026-11-24)")
    a = ap.parse_args()
    p, X, Y, Xte, Yte = load(a.dir)
    suffix = "-clean1" if a.clean_once else ""
    for name, fn, draws in (("numpy-loop" + suffix, run_loop, a.loop_draws), ("numpy-vectorised" + suffix, run_vec, a.vec_draws)):
        if draws <= 0:
            continue
        t0 = time.perf_counter()
        c0 = time.process_time()
        final = fn(p, X, Y, Xte, Yte, draws, a.seed, a.clean_once)
        sec = time.perf_counter() - t0
        cpu = time.process_time() - c0
        risks = " ".join("%s=%.6f" % (m, np.mean(v)) for m, v in final.items())
        print("%s %d %.3f %.4f %.3f %s" % (name, draws, sec, sec / draws, cpu, risks))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
