"""Real-browser test: a walkthrough notebook run in Chromium through Jupyter.

Run with Debian's interpreter from the repository root:

    /usr/bin/python3 -m pytest -q tests/test_browser.py

Debian's classic Jupyter Notebook serves a copy of notebooks/01-mechanisms.ipynb
(outputs cleared; tests/browser/smoke.ipynb when that notebook is absent) on
127.0.0.1 with a random token, with its own temporary config, data and runtime
directories and the "goldp" kernelspec installed into a temporary prefix from
$GOLDP_BIN (else bin/goldp). tests/browser/run_notebook.mjs then drives
Debian's headless Chromium with playwright-core: it opens the notebook, runs
Kernel → Restart & Run All and checks for an image output and no error output.
The screenshot lands in tests/browser/out/.

Chromium, jupyter-notebook and the npm packages come from
tools/browser-deps.sh; when any is missing the test fails and says so.
GOLDP_SKIP_BROWSER=1 skips it.
"""

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BROWSER_DIR = os.path.join(REPO, "tests", "browser")
MAIN_NOTEBOOK = os.path.join(REPO, "notebooks", "01-mechanisms.ipynb")
FALLBACK_NOTEBOOK = os.path.join(BROWSER_DIR, "smoke.ipynb")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
RUN_TIMEOUT = 150  # seconds the browser script may take for the whole run
DEPS_HINT = "run tools/browser-deps.sh (or set GOLDP_SKIP_BROWSER=1 to skip this test)"

pytestmark = pytest.mark.skipif(os.environ.get("GOLDP_SKIP_BROWSER") == "1",
                                reason="GOLDP_SKIP_BROWSER=1: real-browser test skipped")


def goldp_bin():
    exe = os.environ.get("GOLDP_BIN") or os.environ.get("GOLDP") or os.path.join(REPO, "bin", "goldp")
    return os.path.abspath(exe)


def missing_dependencies():
    """Returns what the browser test lacks, as a list of sentences."""
    missing = []
    if not os.access(CHROMIUM, os.X_OK):
        missing.append("no Chromium at %s" % CHROMIUM)
    if shutil.which("node") is None:
        missing.append("node is not on PATH")
    if not os.path.isfile(os.path.join(BROWSER_DIR, "node_modules", "playwright-core", "package.json")):
        missing.append("playwright-core is not installed in tests/browser/node_modules")
    if shutil.which("jupyter") is None or shutil.which("jupyter-notebook") is None:
        missing.append("Debian's jupyter-notebook is not installed")
    if not os.access(goldp_bin(), os.X_OK):
        missing.append("no goldp binary at %s (go build -o bin/goldp .)" % goldp_bin())
    return missing


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def copy_cleared(src, dst):
    """Copies notebook src to dst without outputs, so every image the browser
    finds comes from this run."""
    with open(src, encoding="utf-8") as f:
        nb = json.load(f)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)


def api(base, token, method, path):
    req = urllib.request.Request("%s%s" % (base, path), method=method,
                                 headers={"Authorization": "token %s" % token})
    with urllib.request.urlopen(req, timeout=5) as r:
        body = r.read()
        return json.loads(body) if body else None


class NotebookServer:
    """A classic Jupyter Notebook server on loopback in its own temporary
    configuration, data and runtime directories."""

    def __init__(self, root, tmp, jupyter_path):
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.base = "http://127.0.0.1:%d" % self.port
        env = dict(os.environ)
        for name in ("config", "data", "runtime"):
            os.makedirs(os.path.join(tmp, name), exist_ok=True)
        env.update(JUPYTER_CONFIG_DIR=os.path.join(tmp, "config"),
                   JUPYTER_DATA_DIR=os.path.join(tmp, "data"),
                   JUPYTER_RUNTIME_DIR=os.path.join(tmp, "runtime"),
                   JUPYTER_PATH=jupyter_path)
        env.pop("JUPYTER_ALLOW_INSECURE_WRITES", None)
        argv = ["jupyter", "notebook", "--no-browser", "--ip=127.0.0.1", "--port=%d" % self.port,
                "--port-retries=0", "--NotebookApp.token=%s" % self.token,
                "--notebook-dir=%s" % root]
        if os.geteuid() == 0:
            argv.append("--allow-root")
        self.log_path = os.path.join(tmp, "notebook-server.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(argv, cwd=root, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def log_tail(self, n=3000):
        self.log.flush()
        with open(self.log_path, errors="replace") as f:
            return f.read()[-n:]

    def wait_ready(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail("jupyter notebook exited with status %d before serving:\n%s"
                            % (self.proc.returncode, self.log_tail()))
            try:
                api(self.base, self.token, "GET", "/api/status")
                return
            except (urllib.error.URLError, OSError):
                time.sleep(0.2)
        pytest.fail("jupyter notebook did not answer on %s within %d s:\n%s" % (self.base, timeout, self.log_tail()))

    def stop(self):
        if self.proc.poll() is None:
            # Shut the kernels down through the API, then the server.
            try:
                for k in api(self.base, self.token, "GET", "/api/kernels") or []:
                    api(self.base, self.token, "DELETE", "/api/kernels/%s" % k["id"])
            except (urllib.error.URLError, OSError, ValueError):
                pass
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)
        self.log.close()


@pytest.fixture(scope="module")
def server():
    """A notebook server whose root holds the notebooks under test and whose
    only "goldp" kernelspec runs $GOLDP_BIN."""
    missing = missing_dependencies()
    if missing:
        pytest.fail("the real-browser test cannot run: %s; %s" % ("; ".join(missing), DEPS_HINT))
    with tempfile.TemporaryDirectory(prefix="goldp-browser-") as tmp:
        root = os.path.join(tmp, "nb")
        os.makedirs(root)
        prefix = os.path.join(tmp, "prefix")
        p = subprocess.run([goldp_bin(), "install", "--prefix", prefix], capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 0, "goldp install --prefix failed: %s" % p.stderr
        srv = NotebookServer(root, tmp, os.path.join(prefix, "share", "jupyter"))
        srv.root = root
        try:
            srv.wait_ready()
            yield srv
        finally:
            srv.stop()


def run_in_browser(srv, name):
    """Runs tests/browser/run_notebook.mjs on notebook name in the server's
    root; returns (exit status, output, screenshot path)."""
    shot = os.path.join(BROWSER_DIR, "out", os.path.splitext(name)[0] + ".png")
    argv = ["node", "run_notebook.mjs", "--url", srv.base, "--token", srv.token,
            "--notebook", name, "--kernel", "goldp", "--timeout", str(RUN_TIMEOUT),
            "--screenshot", shot, "--chromium", CHROMIUM]
    try:
        r = subprocess.run(argv, cwd=BROWSER_DIR, capture_output=True, text=True, timeout=RUN_TIMEOUT + 30)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        pytest.fail("run_notebook.mjs did not finish in %d s:\n%s\n--- server log:\n%s"
                    % (RUN_TIMEOUT + 30, out, srv.log_tail()))
    return r.returncode, r.stdout + r.stderr, shot


def test_notebook_runs_in_chromium(server):
    src = MAIN_NOTEBOOK if os.path.exists(MAIN_NOTEBOOK) else FALLBACK_NOTEBOOK
    name = os.path.basename(src)
    copy_cleared(src, os.path.join(server.root, name))
    code, out, shot = run_in_browser(server, name)
    print(out)
    assert code == 0, "browser run of %s failed (exit %d):\n%s\n--- server log:\n%s" % (
        name, code, out, server.log_tail())
    assert "run_notebook: ok" in out, out
    assert os.path.getsize(shot) > 10000, "screenshot %s is too small to show a page" % shot


def test_error_output_fails_the_run(server):
    """The browser check sees an error output: a notebook whose second cell
    panics (after a plot) must fail with the panic's message."""
    with open(FALLBACK_NOTEBOOK, encoding="utf-8") as f:
        nb = json.load(f)
    nb["cells"].append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                        "source": 'panic("boom from the browser test")'})
    name = "error-output.ipynb"
    with open(os.path.join(server.root, name), "w", encoding="utf-8") as f:
        json.dump(nb, f)
    code, out, _ = run_in_browser(server, name)
    print(out)
    assert code == 1, "want exit 1 for a notebook with an error output, got %d:\n%s" % (code, out)
    assert "error output" in out and "boom from the browser test" in out, out
