"""The Lecture 13 course study: private multiplicative weights and the
margins of boosting (issue 14).

Run with Debian's interpreter from the repository root:

    /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/test_course.py

The program scripts/pmw_boosting is run compiled (`go run`), on UCI Adult when
it is found and on the embedded synthetic data (GOLDP_ADULT=none); the
notebook notebooks/05-lecture-pmw-boosting.ipynb is executed with
`goldp nb run` on both data sources. Their RESULT lines must show what the
notes teach:

- PMW's maximum error at k = 10^4 adaptive queries is below the
  Laplace-per-query baseline's at the same (ε, δ);
- AdaBoost's training error reaches zero and the test error keeps falling
  afterwards (the final vote fixes significantly more test examples than it
  spoils: paired z ≥ 2);
- the margin distribution moves right from 5 to 100 to 1,000 rounds (the
  share of margins ≤ 0 and ≤ 0.02 falls, the minimum margin and the 5 %
  quantile rise);

and the interpreted notebook prints the same numbers as the compiled
program. The notebook must have no error output, the two figures (error
against k; margin distributions) as PNG. Its run time is printed, not
asserted: speed is a benchmark figure, never a timed test.

The goldp binary is $GOLDP_BIN, else bin/goldp (built first).
"""

import os
import subprocess
import sys
import tempfile
import time

import nbformat
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nbcheck  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOK = os.path.join(REPO, "notebooks", "05-lecture-pmw-boosting.ipynb")
SOURCES = ("auto", "none")  # GOLDP_ADULT: "" (Adult when found) or the synthetic data


@pytest.fixture(scope="module")
def goldp():
    exe = os.environ.get("GOLDP_BIN")
    if exe:
        return os.path.abspath(exe)
    exe = os.path.join(REPO, "bin", "goldp")
    subprocess.run(["go", "build", "-o", exe, "."], cwd=REPO, check=True)
    return exe


def env_for(source):
    env = dict(os.environ)
    env["GOLDP_ADULT"] = "" if source == "auto" else source
    return env


@pytest.fixture(scope="module")
def script_runs():
    out = {}
    for source in SOURCES:
        p = subprocess.run(["go", "run", "./scripts/pmw_boosting"], cwd=REPO, env=env_for(source),
                           capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, "go run ./scripts/pmw_boosting (%s) failed:\n%s" % (source, p.stderr[-3000:])
        out[source] = p.stdout
    return out


@pytest.fixture(scope="module")
def notebook_runs(goldp):
    out = {}
    tmp = tempfile.mkdtemp(prefix="goldp-course-")
    for source in SOURCES:
        dst = os.path.join(tmp, "05-%s.ipynb" % source)
        t0 = time.monotonic()
        p = subprocess.run([goldp, "nb", "run", "-q", "--out", dst, NOTEBOOK], cwd=os.path.dirname(NOTEBOOK),
                           env=env_for(source), capture_output=True, text=True, timeout=600)
        secs = time.monotonic() - t0
        assert os.path.exists(dst), "goldp nb run wrote nothing (exit %d): %s" % (p.returncode, p.stderr[-3000:])
        out[source] = (nbformat.read(dst, as_version=4), p.returncode, p.stderr, secs)
    return out


def result_lines(text):
    return [l.strip() for l in text.splitlines() if l.startswith("RESULT ")]


def check_study(lines, what):
    r = nbcheck.Results(lines)
    (pmw,) = r.cases("pmw")
    assert pmw["k"] == 10000
    assert pmw["pmw_max_error"] < pmw["laplace_max_error"], "%s: PMW %s not below Laplace %s at k = 10^4" % (
        what, pmw["pmw_max_error"], pmw["laplace_max_error"])

    (b,) = r.cases("boost")
    assert 0 < b["train_zero_round"] < b["rounds"], "%s: training error never reached zero: %s" % (what, b)
    assert b["test_error_final"] < b["test_error_at_zero"], "%s: test error did not fall after zero training error: %s" % (what, b)
    assert b["fixed"] > b["lost"] and b["z"] >= 2, "%s: the fall is not significant: %s" % (what, b)

    m = sorted(r.cases("margins"), key=lambda c: c["rounds"])
    assert [c["rounds"] for c in m] == [5, 100, 1000], m
    for a, c in zip(m, m[1:]):
        assert c["le0"] < a["le0"] and c["le002"] < a["le002"], "%s: margin distribution did not move right: %s -> %s" % (what, a, c)
        assert c["min"] > a["min"] and c["q05"] > a["q05"], "%s: lower margins did not grow: %s -> %s" % (what, a, c)
    assert m[-1]["le0"] == 0 and m[-1]["min"] > 0
    return r


@pytest.mark.parametrize("source", SOURCES)
def test_script_results(script_runs, source):
    lines = result_lines(script_runs[source])
    check_study(lines, "script (%s)" % source)
    print("\n".join(lines))


@pytest.mark.parametrize("source", SOURCES)
def test_notebook_runs(notebook_runs, source):
    nb, rc, stderr, secs = notebook_runs[source]
    print("05-lecture-pmw-boosting (%s): %.1f s" % (source, secs))
    assert rc == 0, stderr[-3000:]
    errors = nbcheck.errors(nb)
    assert not errors, "\n".join(errors)
    titles = [out["data"].get("text/plain", "") for c in nb.cells if c.cell_type == "code"
              for out in c.get("outputs", []) if "image/png" in out.get("data", {})]
    assert any("Maximum error over k" in t for t in titles), titles
    assert any("Margin distribution graph" in t for t in titles), titles
    check_study(nbcheck.result_lines(nb), "notebook (%s)" % source)


@pytest.mark.parametrize("source", SOURCES)
def test_notebook_matches_program(script_runs, notebook_runs, source):
    """The interpreted cells and the compiled program compute the same numbers."""
    want = result_lines(script_runs[source])
    got = [l for l in nbcheck.result_lines(notebook_runs[source][0]) if not l.startswith("RESULT pmwdemo")]
    assert got == want


def test_data_sources_differ(script_runs):
    """The two runs really used different data (the synthetic fallback is exercised)."""
    auto, none = script_runs["auto"], script_runs["none"]
    def data_line(out):
        return next(l for l in out.splitlines() if l.startswith("PMW data:"))
    assert "synthetic" in data_line(none)
    if "UCI Adult" not in data_line(auto):
        pytest.skip("UCI Adult not found here; both runs used the synthetic data")
    assert result_lines(auto)[0] != result_lines(none)[0]
