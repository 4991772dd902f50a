"""Executes every walkthrough notebook in notebooks/ and checks its results.

Run with Debian's interpreter from the repository root:

    /usr/bin/python3 -m pytest -q tests/test_notebooks.py

Every notebook is executed twice, in parallel on a pool of two threads:
(a) by nbclient against the installed "goldp" kernelspec (as Jupyter runs
it), and (b) by `goldp nb run --out TMP` (the headless runner). Both must
finish without an error output, produce at least one image/png, validate with
nbformat, and print the same RESULT lines; the RESULT lines are then checked
against what each walkthrough teaches (tests/nbcheck.py parses them). The
stored notebooks are checked too: executed, with images, no errors, a Markdown
title first and a summary last.

The binary is $GOLDP_BIN (set by tools/test.sh), else bin/goldp. The
nbclient half is skipped, with the reason, when the kernelspec is missing.
"""

import concurrent.futures
import glob
import math
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
NBDIR = os.path.join(REPO, "notebooks")
NOTEBOOKS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(NBDIR, "*.ipynb")))
CELL_TIMEOUT = 300
MODES = ("nbclient", "nbrun")


def goldp_bin():
    exe = os.environ.get("GOLDP_BIN") or os.environ.get("GOLDP") or os.path.join(REPO, "bin", "goldp")
    return os.path.abspath(exe)


def kernelspec_problem():
    """Returns why nbclient cannot run the goldp kernel, or None."""
    try:
        from jupyter_client.kernelspec import KernelSpecManager
        specs = KernelSpecManager().find_kernel_specs()
    except Exception as e:  # noqa: BLE001
        return "jupyter_client unavailable: %s" % e
    if "goldp" not in specs:
        return 'the "goldp" kernelspec is not installed (go build -o bin/goldp . && bin/goldp install --user)'
    return None


def run_nbclient(name):
    import nbclient
    nb = nbformat.read(os.path.join(NBDIR, name), as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name="goldp", timeout=CELL_TIMEOUT, allow_errors=True,
                                     resources={"metadata": {"path": NBDIR}})
    client.execute()
    return nb


def run_nbrun(name, outdir):
    out = os.path.join(outdir, name)
    p = subprocess.run([goldp_bin(), "nb", "run", "-q", "-timeout", "%ds" % CELL_TIMEOUT, "--out", out,
                        os.path.join(NBDIR, name)], cwd=NBDIR, capture_output=True, text=True,
                       timeout=CELL_TIMEOUT * 4)
    if not os.path.exists(out):
        raise RuntimeError("goldp nb run wrote nothing (exit %d): %s" % (p.returncode, p.stderr[-2000:]))
    nb = nbformat.read(out, as_version=4)
    nb.metadata["_nbrun_exit"] = p.returncode
    nb.metadata["_nbrun_stderr"] = p.stderr[-2000:]
    return nb


@pytest.fixture(scope="module")
def executions():
    """Runs every notebook both ways, two at a time; maps (name, mode) to
    (notebook, seconds) or to the exception raised."""
    if not NOTEBOOKS:
        pytest.skip("no notebooks in notebooks/")
    if not os.path.exists(goldp_bin()):
        pytest.skip("no goldp binary at %s (go build -o bin/goldp .)" % goldp_bin())
    skip_nbclient = kernelspec_problem()
    outdir = tempfile.mkdtemp(prefix="goldp-nb-")
    results = {}

    def timed(fn, *args):
        t0 = time.monotonic()
        nb = fn(*args)
        return nb, time.monotonic() - t0

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {}
        for name in NOTEBOOKS:
            if not skip_nbclient:
                futures[(name, "nbclient")] = pool.submit(timed, run_nbclient, name)
            futures[(name, "nbrun")] = pool.submit(timed, run_nbrun, name, outdir)
        for key, fut in futures.items():
            try:
                results[key] = fut.result()
            except Exception as e:  # noqa: BLE001
                results[key] = e
    for name in NOTEBOOKS:
        if skip_nbclient:
            results[(name, "nbclient")] = pytest.skip.Exception(skip_nbclient)
    return results


def get(executions, name, mode):
    r = executions[(name, mode)]
    if isinstance(r, pytest.skip.Exception):
        pytest.skip(str(r))
    if isinstance(r, Exception):
        pytest.fail("%s execution of %s raised %s: %s" % (mode, name, type(r).__name__, r))
    return r


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_executes_without_errors(executions, name, mode):
    nb, secs = get(executions, name, mode)
    errors = nbcheck.errors(nb)
    assert not errors, "%s (%s): error outputs:\n%s" % (name, mode, "\n".join(errors))
    if mode == "nbrun":
        assert nb.metadata.get("_nbrun_exit") == 0, nb.metadata.get("_nbrun_stderr")
        del nb.metadata["_nbrun_exit"], nb.metadata["_nbrun_stderr"]
    nbformat.validate(nb)
    assert nbcheck.count_images(nb) >= 1, "%s (%s): no image/png output" % (name, mode)
    unexecuted = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.execution_count is None]
    assert not unexecuted, "%s (%s): code cells not executed: %s" % (name, mode, unexecuted)
    print("%s (%s): %.1f s" % (name, mode, secs))


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_both_runners_agree(executions, name):
    """Seeded studies reproduce: the kernel and the headless runner print the same RESULT lines."""
    a, _ = get(executions, name, "nbclient")
    b, _ = get(executions, name, "nbrun")
    ra, rb = nbcheck.result_lines(a), nbcheck.result_lines(b)
    assert ra, "%s: no RESULT lines" % name
    assert ra == rb


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_stored_notebook(name):
    """The committed notebook is stored with outputs, readable on a code host."""
    nb = nbformat.read(os.path.join(NBDIR, name), as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "goldp"
    first, last = nb.cells[0], nb.cells[-1]
    assert first.cell_type == "markdown" and first.source.startswith("# "), "first cell must be a Markdown title"
    assert last.cell_type == "markdown" and "Summary" in last.source, "last cell must be a Markdown summary"
    assert not nbcheck.errors(nb), nbcheck.errors(nb)
    assert nbcheck.count_images(nb) >= 1, "stored without image output: run notebooks/tools/build.sh"
    assert all(c.execution_count is not None for c in nb.cells if c.cell_type == "code"), \
        "stored without outputs: run notebooks/tools/build.sh"
    assert nbcheck.result_lines(nb), "stored notebook prints no RESULT lines"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_stored_notebook_matches_source(name):
    """A notebook generated from notebooks/tools/src holds exactly its source's cells."""
    src = os.path.join(NBDIR, "tools", "src", name[:-len(".ipynb")] + ".nb")
    if not os.path.exists(src):
        pytest.skip("no generator source for %s" % name)
    sys.path.insert(0, os.path.join(NBDIR, "tools"))
    import gen
    with open(src, encoding="utf-8") as f:
        want = [(c.cell_type, c.source) for c in gen.parse(f.read(), src)]
    nb = nbformat.read(os.path.join(NBDIR, name), as_version=4)
    assert [(c.cell_type, c.source) for c in nb.cells] == want, \
        "%s differs from %s: run notebooks/tools/build.sh %s" % (name, src, name[:-len(".ipynb")])


# ---- what each walkthrough must show ----

def results_of(executions, name):
    nb, _ = get(executions, name, "nbrun")
    return nbcheck.results(nb)


def need(name):
    if name not in NOTEBOOKS:
        pytest.skip("%s is not in notebooks/" % name)


def test_mechanisms_results(executions):
    need("01-mechanisms.ipynb")
    r = results_of(executions, "01-mechanisms.ipynb")
    # randomized response: the unbiased estimate is within 4 standard errors of the truth
    assert abs(r["rr_estimate"] - r["rr_truth"]) <= 4 * r["rr_se"], r
    assert 0 < r["rr_se"] < 0.1
    # the classical Gaussian calibration is refused at ε = 2 (and only there among 0.5, 2)
    assert r.all("classical_refused_eps") == [2.0]
    assert r["budget_refused"] is True
    # the Voronoi-cell mechanism's exact privacy loss never exceeds α
    assert r["voronoi_density_pass"] is True
    # the auditor passes the correct mechanism, catches the under-noised one,
    # and its lower confidence bound on ε exceeds the claim (true ε is 2)
    assert r["audit_good_pass"] is True
    assert r["audit_broken_caught"] is True
    assert 1.0 < r["broken_eps_lower"] <= 2.1


def test_histogram_rule_results(executions):
    need("02-histogram-rule.ipynb")
    r = results_of(executions, "02-histogram-rule.ipynb")
    acc = [float(a) for a in str(r["bb_acc_by_alpha"]).split(",")]
    assert len(acc) == 7
    # accuracy rises with α toward the non-private rule
    assert acc[-1] - acc[0] > 0.2, acc
    rises = sum(1 for x, y in zip(acc, acc[1:]) if y > x)
    assert rises >= 5, acc
    assert r["bb_acc_nonprivate"] > 0.9
    assert abs(acc[-1] - r["bb_acc_nonprivate"]) < 0.03
    assert acc[0] < r["bb_acc_nonprivate"] - 0.2
    # the excess risk decays at a slope compatible with the minimax theory
    assert r["bb_rate_theory"] == pytest.approx(-0.5)
    assert r["bb_rate_slope"] < 0
    assert abs(r["bb_rate_slope"] - r["bb_rate_theory"]) <= 4 * r["bb_rate_se"] + 0.05, r


def test_protonn_results(executions):
    need("03-protonn-metrics.ipynb")
    r = results_of(executions, "03-protonn-metrics.ipynb")
    # the metric index makes far fewer calls to a cell-defined metric than brute force
    assert r["cell_metric_calls_per_query"] < r["k"] / 5
    # Proto-NN learns on strings, series and places (Bayes accuracy 0.9 on strings and places)
    assert r["strings_public"] > 0.8 and r["strings_private"] > 0.65
    assert r["strings_public"] >= r["strings_private"] - 0.02
    assert r["series_public"] > 0.75 and r["series_private"] > 0.6
    assert r["places_haversine"] > 0.8
    assert r["places_wrong_cell"] > 0.01  # Euclidean on degrees picks wrong cells
    # private accuracy rises with α toward the public rule; the public rule nears Bayes (0.75)
    assert r["protonn_best_alpha0.5"] <= r["protonn_best_alpha2"] <= r["protonn_best_alpha8"] <= r["protonn_best_public"] + 0.005
    assert r["protonn_best_public"] > 0.72
    assert r["protonn_best_alpha0.5"] > 0.6


def test_iwp_results(executions):
    need("04-iwp-sgd.ipynb")
    r = results_of(executions, "04-iwp-sgd.ipynb")
    cases = {c["case"]: c for c in r.cases("iwp")}
    assert set(cases) >= {"ec1_d2_eps2", "ec1_d10_eps5", "acs_income", "acs_pubcov", "acs_income_logloss"}, cases.keys()
    for name, c in cases.items():
        # naive SGD on the release is biased: its final risk differs from clean SGD's
        assert c["p_naive"] < 0.01, (name, c)
        assert c["naive"] > c["clean"], (name, c)
        # IWP-SGD's risk is closer to clean than naive's, for the mean final
        # model and for the model averaged over the noise draws
        assert abs(c["iwp"] - c["clean"]) < abs(c["naive"] - c["clean"]) / 2, (name, c)
        assert abs(c["avg_iwp"] - c["avg_clean"]) < abs(c["avg_naive"] - c["avg_clean"]) / 2, (name, c)
        # and cannot be told apart from clean SGD at level 0.01
        assert c["p_iwp"] > 0.01, (name, c)
        assert all(math.isfinite(v) for k, v in c.items() if k != "case")


def test_nbcheck_finds_errors_images_and_results():
    """The checks above rely on nbcheck seeing what a failed run leaves."""
    from nbformat.v4 import new_code_cell, new_notebook, new_output
    ok = new_code_cell("x", execution_count=1, outputs=[
        new_output("stream", name="stdout", text="hello\nRESULT a=1.5 flag=true\nRESULT iwp case=c1 clean=0.9\n"),
        new_output("display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "<plot>"}),
        new_output("stream", name="stderr", text="work 10/10 [####] 100%\n")])
    nb = new_notebook(cells=[ok])
    assert nbcheck.errors(nb) == [] and nbcheck.count_images(nb) == 1
    r = nbcheck.results(nb)
    assert r["a"] == 1.5 and r["flag"] is True and r.cases("iwp") == [{"case": "c1", "clean": 0.9}]
    with pytest.raises(KeyError):
        r["missing"]
    bad = new_notebook(cells=[ok, new_code_cell("y", execution_count=2, outputs=[
        new_output("error", ename="Panic", evalue="boom", traceback=[]),
        new_output("stream", name="stderr", text="panic: runtime error\n\ngoroutine 1 [running]:\n")])])
    errs = nbcheck.errors(bad)
    assert len(errs) == 2 and "Panic: boom" in errs[0]
