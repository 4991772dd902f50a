#!/usr/bin/python3
"""Many kernels side by side, as a hub runs them: goldp against ipykernel.

For each kernel (goldp, Debian's ipykernel "python3") and each N (1, 10, 40):

  1. start N kernels at once with jupyter_client's AsyncKernelManager and the
     kernelspec, as N users' servers would at the start of a class; "start"
     is start_kernel to the first kernel_info_reply, per kernel;
  2. run one trivial cell in each, wait 2 s, and read each kernel's memory
     ("fresh, idle"): RSS and PSS from /proc, for goldp the supervisor and
     its worker (a child process) separately;
  3. run a walkthrough cell mix in all N kernels at once: goldp runs the
     first five code cells of notebooks/01-mechanisms.ipynb (randomized
     response, a 20,000-iteration simulation loop, a Laplace release of
     2 x 50,000 values, a histogram plot as PNG, an HTML table); ipykernel
     runs the same steps written in Python with numpy and matplotlib. Every
     cell must reply "ok", the plot cell must send an image/png. "mix" is
     the wall time of one kernel's mix, with all N running theirs;
  4. once all are idle again, run a trivial cell in each kernel in turn
     ("trivial cell", N-1 idle neighbours) and read the memory again
     ("after the mix, idle");
  5. shut the N kernels down, and check that no process of theirs is left.

Then, for sizing a user's server: the resident memory of one idle classic
Jupyter Notebook server (what jupyterhub-singleuser runs in Debian and in the
image) and the peak resident memory of `goldp nb run` on each walkthrough
notebook (the interpreter and its data, as a worker holds them).

PSS (proportional set size) shares the pages that N kernels of one binary
or interpreter have in common among them: its sum is what N kernels take
from the machine. RSS counts shared pages in every process.

Usage: /usr/bin/python3 bench/hub/bench.py [--counts 1,10,40]
         [--kernels goldp,python3] [--json out.json]
       /usr/bin/python3 bench/hub/bench.py --render out.json
         prints the "Sizing a hub" section (README.md, docs/jupyterhub.md)
         with the memory guarantee and limit derived from the run
Needs GOLDP_BIN (else bin/goldp), Debian's python3-ipykernel, numpy,
matplotlib and jupyter-notebook (tools/deps.sh notebook).
The machine is shared: note `uptime` beside the figures (printed).
"""

import argparse
import asyncio
import datetime
import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import nbformat
from jupyter_client.manager import AsyncKernelManager

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PY_MIX = [
    "import math\np = 0.55\neps = math.log(p / (1 - p))\n"
    "print('keep probability %.2f, eps = %.4f, ln(11/9) = %.4f' % (p, eps, math.log(11 / 9)))",
    "import numpy as np\nrng = np.random.default_rng(7)\nn = 20000\ntruth = 0.30\n"
    "b = (rng.random(n) < truth).astype(int)\nkeep = rng.random(n) < 0.55\n"
    "reported = np.where(keep, b, 1 - b)\nxbar = reported.mean()\nest = 10 * (xbar - 0.45)\n"
    "se = math.sqrt((0.45 + 0.1 * truth) * (0.55 - 0.1 * truth) / (0.01 * n))\n"
    "print('RESULT rr_estimate=%.4f rr_se=%.4f rr_truth=%.2f' % (est, se, truth))",
    "outA = rng.laplace(0, 1, 50000)\noutB = 1 + rng.laplace(0, 1, 50000)\n"
    "print('Laplace mechanism: scale 1, eps = 1')",
    "import io\nimport matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\n"
    "from IPython.display import Image, display\nfig, ax = plt.subplots()\n"
    "for v, lab in ((outA, 'input u = 0'), (outB, \"input u' = 1\")):\n"
    "    ax.hist(v[(v > -6) & (v < 7)], bins=60, density=True, alpha=0.6, label=lab)\n"
    "ax.set_title('Laplace mechanism, eps = 1: outputs for neighbouring inputs')\n"
    "ax.set_xlabel('released value'); ax.set_ylabel('density'); ax.legend()\n"
    "buf = io.BytesIO(); fig.savefig(buf, format='png'); plt.close(fig)\ndisplay(Image(buf.getvalue()))",
    "from IPython.display import HTML\nfrom statistics import NormalDist\n"
    "rows = []\nfor e in (0.5, 1, 2, 5):\n"
    "    cl = math.sqrt(2 * math.log(1.25 / 1e-5)) / e\n"
    "    rows.append('<tr><td>%g</td><td>%g</td><td>%.4f</td></tr>' % (e, 1e-5, cl))\n"
    "HTML('<table><tr><th>eps</th><th>delta</th><th>classical sigma</th></tr>' + ''.join(rows) + '</table>')",
]
PLOT_CELL = 3  # index of the cell that must send an image/png


def goldp_mix():
    nb = nbformat.read(os.path.join(REPO, "notebooks", "01-mechanisms.ipynb"), as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"][:5]


def goldp_bin():
    return os.path.abspath(os.environ.get("GOLDP_BIN") or os.path.join(REPO, "bin", "goldp"))


# --- /proc -----------------------------------------------------------------------------

def mem_kb(pid):
    """(RSS, PSS, USS) of pid in KiB, from /proc/pid/smaps_rollup; USS, the
    unique set size, is the private pages only (what ending it frees)."""
    v = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            k, _, rest = line.partition(":")
            if rest.strip().endswith("kB"):
                v[k] = int(rest.split()[0])
    return v["Rss"], v["Pss"], v.get("Private_Clean", 0) + v.get("Private_Dirty", 0)


def children(pid):
    kids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                kids.append(int(d))
    return kids


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


# --- one kernel ------------------------------------------------------------------------

class Kernel:
    def __init__(self, name, log):
        self.km = AsyncKernelManager(kernel_name=name)
        self.log = log
        self.kc = None
        self.start_s = None
        self.pid = None
        self.worker = None

    async def start(self):
        t0 = time.monotonic()
        await self.km.start_kernel(stdout=self.log, stderr=self.log)
        self.pid = self.km.provisioner.process.pid
        self.kc = self.km.client()
        self.kc.start_channels()
        await self.kc.wait_for_ready(timeout=300)
        self.start_s = time.monotonic() - t0

    async def run(self, code, timeout=600):
        """Executes code; returns (seconds, reply content, image/png seen)."""
        images = []

        def hook(msg):
            if msg["msg_type"] in ("display_data", "execute_result") and "image/png" in msg["content"]["data"]:
                images.append(1)
            if msg["msg_type"] == "error":
                images.append(msg["content"]["ename"] + ": " + msg["content"]["evalue"])
        t0 = time.monotonic()
        reply = await self.kc.execute_interactive(code, timeout=timeout, output_hook=hook, allow_stdin=False)
        secs = time.monotonic() - t0
        errors = [x for x in images if x != 1]
        if reply["content"]["status"] != "ok" or errors:
            raise RuntimeError("cell failed in %s: %s %s\n%s" % (self.km.kernel_name, reply["content"].get("ename"),
                                                                  errors or reply["content"].get("evalue"), code[:300]))
        return secs, 1 in images

    def memory(self):
        """{"sup": (rss, pss), "worker": (rss, pss)} in KiB (worker only for goldp)."""
        m = {"sup": mem_kb(self.pid)}
        kids = children(self.pid)
        if self.km.kernel_name == "goldp":
            if len(kids) != 1:
                raise RuntimeError("goldp kernel %d has %d children, want its one worker" % (self.pid, len(kids)))
            self.worker = kids[0]
            m["worker"] = mem_kb(self.worker)
        return m

    async def stop(self):
        self.kc.stop_channels()
        await self.km.shutdown_kernel(now=False)


def med(xs):
    return statistics.median(xs) if xs else float("nan")


async def measure(name, n, mix, log):
    kernels = [Kernel(name, log) for _ in range(n)]
    t0 = time.monotonic()
    await asyncio.gather(*(k.start() for k in kernels))
    all_started = time.monotonic() - t0
    for k in kernels:
        await k.run("1+1")
    await asyncio.sleep(2)
    fresh = [k.memory() for k in kernels]

    async def one_mix(k):
        t = time.monotonic()
        png = False
        for i, code in enumerate(mix):
            _, img = await k.run(code)
            png = png or (img and i == PLOT_CELL)
        if not png:
            raise RuntimeError("%s: the plot cell sent no image/png" % name)
        return time.monotonic() - t
    t0 = time.monotonic()
    mixes = await asyncio.gather(*(one_mix(k) for k in kernels))
    mix_wall = time.monotonic() - t0
    trivial = []
    for k in kernels:
        s, _ = await k.run("1+1")
        trivial.append(s)
    await asyncio.sleep(2)
    after = [k.memory() for k in kernels]
    pids = [k.pid for k in kernels] + [k.worker for k in kernels if k.worker]
    await asyncio.gather(*(k.stop() for k in kernels))
    deadline = time.monotonic() + 20
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    left = [p for p in pids if alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    if left:
        raise RuntimeError("%s, N=%d: processes left after shutdown: %s" % (name, n, left))

    def summary(ms):
        out = {}
        for part in ms[0]:
            for i, what in enumerate(("rss", "pss", "uss")):
                out["%s_%s_mb" % (part, what)] = med([m[part][i] for m in ms]) / 1024
        for i, what in enumerate(("rss", "pss", "uss")):
            out["total_%s_mb" % what] = med([sum(v[i] for v in m.values()) for m in ms]) / 1024
        out["sum_pss_mb"] = sum(sum(v[1] for v in m.values()) for m in ms) / 1024
        return out
    starts = sorted(k.start_s for k in kernels)
    return {"kernel": name, "n": n, "start_med_s": med(starts), "start_max_s": starts[-1],
            "all_started_s": all_started, "mix_med_s": med(mixes), "mix_max_s": max(mixes), "mix_wall_s": mix_wall,
            "trivial_med_ms": med(trivial) * 1000, "fresh": summary(fresh), "after": summary(after)}


# --- a notebook server, and the walkthroughs' peaks ---------------------------------------

def notebook_server_rss(tmp):
    """RSS, PSS and USS (MiB) of an idle classic Jupyter Notebook server, after
    it answered /api/status and /api/kernelspecs."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    for d in ("config", "data", "runtime"):
        os.makedirs(os.path.join(tmp, d), exist_ok=True)
    env.update(JUPYTER_CONFIG_DIR=os.path.join(tmp, "config"), JUPYTER_DATA_DIR=os.path.join(tmp, "data"),
               JUPYTER_RUNTIME_DIR=os.path.join(tmp, "runtime"))
    token = "benchtoken"
    argv = ["jupyter-notebook", "--no-browser", "--ip=127.0.0.1", "--port=%d" % port, "--port-retries=0",
            "--NotebookApp.token=" + token, "--notebook-dir=" + tmp]
    if os.geteuid() == 0:
        argv.append("--allow-root")
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                for path in ("/api/status", "/api/kernelspecs"):
                    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path),
                                                 headers={"Authorization": "token " + token})
                    urllib.request.urlopen(req, timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline or p.poll() is not None:
                    raise RuntimeError("jupyter-notebook did not start")
                time.sleep(0.2)
        time.sleep(1)
        return tuple(x / 1024 for x in mem_kb(p.pid))
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


PEAK_HELPER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
print(ru.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def walkthrough_peaks(tmp):
    """Peak RSS (MiB) and seconds of `goldp nb run` on each walkthrough.

    A process's peak RSS includes what it held before it exec'd, so the
    run is forked from a small interpreter (python3 -I -S, about 10 MB)
    rather than from this benchmark, which reports the child's peak."""
    out = []
    for nb in sorted(n for n in os.listdir(os.path.join(REPO, "notebooks")) if n.endswith(".ipynb")):
        t0 = time.monotonic()
        p = subprocess.run(["/usr/bin/python3", "-I", "-S", "-c", PEAK_HELPER, goldp_bin(), "nb", "run",
                            os.path.join(REPO, "notebooks", nb), "--out", os.path.join(tmp, nb)],
                           capture_output=True, text=True)
        secs = time.monotonic() - t0
        if p.returncode != 0:
            raise RuntimeError("goldp nb run %s exited %d: %s" % (nb, p.returncode, p.stderr[-500:]))
        out.append({"notebook": nb, "peak_rss_mb": int(p.stdout.split()[-1]) / 1024, "seconds": secs})
    return out


# --- the sizing section (README.md and docs/jupyterhub.md) -------------------------------

def round_up(mib, step):
    return int(-(-mib // step) * step)


def render(results):
    """The "Sizing a hub" section from one run's JSON, in Markdown; the
    per-student guarantee is the idle server and one idle kernel after the
    mix, rounded up to 128 MiB; the limit adds the heaviest walkthrough's
    peak and a second idle kernel, plus a tenth, rounded up to 256 MiB."""
    rows = results["rows"]
    when = results["when"]
    lines = [
        "Measured by `bench/hub/bench.py` in one run on %s, on this project's 2-core machine (AMD EPYC, "
        "24 GiB) shared with other workers' builds and tests: load average %s before, %s after. Times are "
        "inflated by that load; memory is not. N kernels are started at once with jupyter_client's "
        "`AsyncKernelManager` (as N users' servers would), then the first five code cells of "
        "`01-mechanisms` (ipykernel: the same steps with numpy and matplotlib) run in all N at once. "
        "Per-kernel medians; goldp's memory is its supervisor + its worker process." % (
            when, results["uptime_before"].split("load average:")[-1].strip(),
            results["uptime_after"].split("load average:")[-1].strip()),
        "",
        "| N | kernel | start: median (max) | cell mix: median | trivial cell after | RSS, idle: fresh | "
        "PSS / USS fresh | RSS, idle: after the mix | PSS / USS after the mix | sum of PSS after, N kernels |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        f, a = r["fresh"], r["after"]
        name = "goldp" if r["kernel"] == "goldp" else "ipykernel"
        if r["kernel"] == "goldp":
            fr = "%.1f + %.1f = %.1f MiB" % (f["sup_rss_mb"], f["worker_rss_mb"], f["total_rss_mb"])
            af = "%.1f + %.1f = %.1f MiB" % (a["sup_rss_mb"], a["worker_rss_mb"], a["total_rss_mb"])
        else:
            fr, af = "%.1f MiB" % f["total_rss_mb"], "%.1f MiB" % a["total_rss_mb"]
        lines.append("| %d | %s | %.2f s (%.2f) | %.2f s | %.1f ms | %s | %.1f / %.1f MiB | %s | %.1f / %.1f MiB "
                     "| %.0f MiB |" % (
                         r["n"], name, r["start_med_s"], r["start_max_s"], r["mix_med_s"], r["trivial_med_ms"], fr,
                         f["total_pss_mb"], f["total_uss_mb"], af, a["total_pss_mb"], a["total_uss_mb"],
                         a["sum_pss_mb"]))
    server = results["notebook_server"]["rss_mb"]
    one = [r for r in rows if r["kernel"] == "goldp" and r["n"] == 1][0]
    kernel = one["after"]["total_rss_mb"]
    heavy = max(results["walkthroughs"], key=lambda w: w["peak_rss_mb"])
    guarantee = round_up(server + kernel, 128)
    limit = round_up((server + heavy["peak_rss_mb"] + kernel) * 1.1, 256)
    nmax = max(r["n"] for r in rows)
    g = [r for r in rows if r["kernel"] == "goldp" and r["n"] == nmax]
    p = [r for r in rows if r["kernel"] == "python3" and r["n"] == nmax]
    if g and p:
        g, p = g[0], p[0]
        ratios = [("RSS fresh", g["fresh"]["total_rss_mb"] / p["fresh"]["total_rss_mb"]),
                  ("RSS after the mix", g["after"]["total_rss_mb"] / p["after"]["total_rss_mb"]),
                  ("USS fresh", g["fresh"]["total_uss_mb"] / p["fresh"]["total_uss_mb"]),
                  ("USS after the mix", g["after"]["total_uss_mb"] / p["after"]["total_uss_mb"]),
                  ("sum of PSS after the mix", g["after"]["sum_pss_mb"] / p["after"]["sum_pss_mb"])]
        met = [k for k, v in ratios if v <= 0.5]
        missed = [k for k, v in ratios if v > 0.5]
        srv = results["notebook_server"]["pss_mb"]
        lines += ["", "One machine, %d students each with one server and one kernel after the mix: %d x (%.0f MiB "
                  "server PSS + %.1f MiB kernel PSS) = %.1f GiB with goldp, %.1f GiB with ipykernel (%d servers "
                  "share more than one does, so this errs high)." % (
                      nmax, nmax, srv, g["after"]["total_pss_mb"], nmax * (srv + g["after"]["total_pss_mb"]) / 1024,
                      nmax * (srv + p["after"]["total_pss_mb"]) / 1024, nmax)]
        lines += ["", "Goal, an idle goldp kernel at most half an ipykernel's memory (N = %d, goldp / ipykernel): %s. "
                  "Met for %s; %s." % (nmax, ", ".join("%s %.2f" % kv for kv in ratios),
                                        ", ".join(met) or "none",
                                        ("not met for " + ", ".join(missed)) if missed else "met for all")]
    lines += [
        "",
        "RSS counts pages shared with other processes in each of them (goldp's 2 processes both map the "
        "one binary); PSS shares them out, so the sum of PSS is what N kernels take from the machine; USS is "
        "a kernel's private memory, what ending it frees.",
        "",
        "Peak RSS of each walkthrough under `goldp nb run` (the interpreter and its data, as a worker "
        "holds them): " + ", ".join("`%s` %.0f MiB" % (w["notebook"][:-len(".ipynb")], w["peak_rss_mb"])
                                     for w in results["walkthroughs"]) + ".",
        "",
        "Per student (one server, one kernel: a container of its own, so no sharing):",
        "",
        "| | memory | what |",
        "|---|---|---|",
        "| **server** | %.1f MiB | an idle classic Notebook server (what `jupyterhub-singleuser` runs), RSS |" % server,
        "| **kernel** | %.1f MiB | one idle goldp kernel after the cell mix, RSS of supervisor + worker (N = 1) |"
        % kernel,
        "| **peak** | %.1f MiB | the heaviest walkthrough, `%s`, peak RSS |" % (heavy["peak_rss_mb"],
                                                                         heavy["notebook"][:-len(".ipynb")]),
        "| **guarantee** | `%dM` | server + kernel, rounded up to 128 MiB |" % guarantee,
        "| **limit** | `%dM` | server + peak + a second idle kernel, plus a tenth, rounded up to 256 MiB |" % limit,
    ]
    return "\n".join(lines) + "\n"


# --- main -------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--counts", default="1,10,40")
    ap.add_argument("--kernels", default="goldp,python3")
    ap.add_argument("--json")
    ap.add_argument("--no-extras", action="store_true", help="skip the notebook server and walkthrough peaks")
    ap.add_argument("--render", metavar="JSON", help="print the sizing section of a run's JSON and exit")
    args = ap.parse_args()
    if args.render:
        with open(args.render) as f:
            sys.stdout.write(render(json.load(f)))
        return 0
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print("bench/hub: %s, %s; load before: %s" % (datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC"), "%d cores" % os.cpu_count(), uptime), flush=True)
    results = {"uptime_before": uptime, "rows": [],
               "when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    with tempfile.TemporaryDirectory(prefix="goldp-bench-hub-") as tmp:
        prefix = os.path.join(tmp, "prefix")
        subprocess.run([goldp_bin(), "install", "--prefix", prefix], check=True, capture_output=True)
        os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
        os.environ["JUPYTER_RUNTIME_DIR"] = os.path.join(tmp, "runtime")
        mixes = {"goldp": goldp_mix(), "python3": PY_MIX}
        for n in [int(x) for x in args.counts.split(",")]:
            for name in args.kernels.split(","):
                with open(os.path.join(tmp, "kernels.log"), "a") as log:
                    r = asyncio.run(measure(name, n, mixes[name], log))
                results["rows"].append(r)
                f, a = r["fresh"], r["after"]
                parts = ("sup", "worker") if name == "goldp" else ("sup",)
                print("%-8s N=%-3d start %5.2f s (max %5.2f, all %5.2f)  mix %6.2f s (max %6.2f)  trivial %6.2f ms  "
                      "fresh RSS %s = %.1f MB, PSS %.1f, USS %.1f  after mix RSS %s = %.1f MB, PSS %.1f, "
                      "USS %.1f, sum PSS over N %.0f MB" % (
                          name, n, r["start_med_s"], r["start_max_s"], r["all_started_s"], r["mix_med_s"],
                          r["mix_max_s"], r["trivial_med_ms"],
                          "+".join("%.1f" % f[p + "_rss_mb"] for p in parts), f["total_rss_mb"], f["total_pss_mb"],
                          f["total_uss_mb"],
                          "+".join("%.1f" % a[p + "_rss_mb"] for p in parts), a["total_rss_mb"], a["total_pss_mb"],
                          a["total_uss_mb"], a["sum_pss_mb"]), flush=True)
        if not args.no_extras:
            rss, pss, uss = notebook_server_rss(os.path.join(tmp, "nbserver"))
            results["notebook_server"] = {"rss_mb": rss, "pss_mb": pss, "uss_mb": uss}
            print("idle classic Notebook server: RSS %.1f MB, PSS %.1f MB, USS %.1f MB" % (rss, pss, uss), flush=True)
            results["walkthroughs"] = walkthrough_peaks(tmp)
            for w in results["walkthroughs"]:
                print("goldp nb run %-24s peak RSS %6.1f MB in %5.1f s" % (w["notebook"], w["peak_rss_mb"],
                                                                        w["seconds"]), flush=True)
    results["uptime_after"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print("load after: %s" % results["uptime_after"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
