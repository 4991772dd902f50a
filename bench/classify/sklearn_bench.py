#!/usr/bin/python3
"""Side-by-side peer of bench_test.go: 1-NN among prototypes with scikit-learn.

Prints one line per case: name, seconds (best of several runs),
milliseconds per 10^5 queries, and CPU milliseconds per 10^5 queries.
Run with Debian's interpreter: /usr/bin/python3 sklearn_bench.py [--quick]
"""
import sys
import time

import numpy as np
from sklearn.neighbors import BallTree, KNeighborsClassifier

quick = "--quick" in sys.argv
rng = np.random.default_rng(1)
K, N = 1000, 100_000
protos = rng.random((K, 2))
queries = rng.random((N, 2))


def timed(name, fn, n, repeat=5):
    """Best of `repeat` runs (the machine may be shared), wall and CPU."""
    dt = cpu = float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        dt = min(dt, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    print(f"{name}\t{dt:.4f}\t{dt / n * 1e5 * 1e3:.1f}\t{cpu / n * 1e5 * 1e3:.1f}", flush=True)


tree = BallTree(protos)
timed("sklearn BallTree euclidean 1-NN", lambda: tree.query(queries, k=1), N)
knn = KNeighborsClassifier(n_neighbors=1, n_jobs=-1).fit(protos, np.arange(K))
timed("sklearn KNeighbors(n_jobs=-1) 1-NN", lambda: knn.kneighbors(queries, n_neighbors=1), N)


def pyeuclid(a, b):
    d0 = a[0] - b[0]
    d1 = a[1] - b[1]
    return (d0 * d0 + d1 * d1) ** 0.5


# A Python-function metric is slow: time a subset and report per 10^5 queries.
M = 2000 if quick else 10_000
ftree = BallTree(protos, metric=pyeuclid)
timed(f"sklearn BallTree python-func metric 1-NN ({M} queries)", lambda: ftree.query(queries[:M], k=1), M, repeat=2)
