"""goldp behind a real JupyterHub, end to end.

Run with Debian's interpreter from the repository root:

    GOLDP_BIN=$PWD/bin/goldp /usr/bin/python3 -m pytest -q tests/test_hub.py

Debian's JupyterHub 3 (package jupyterhub, with its configurable-http-proxy,
package node-configurable-http-proxy) runs on 127.0.0.1 on free ports with
the one-machine configuration documented in docs/jupyterhub.md, then its own
temporary config, sqlite database, cookie secret, proxy pid file and
user homes. Users log in with DummyAuthenticator and a shared password set
only here; SimpleLocalProcessSpawner starts `jupyterhub-singleuser` (Debian's
classic Notebook 6 server) as a local process, with the "goldp" kernelspec
from `$GOLDP_BIN install --prefix TMP` on JUPYTER_PATH.

Users, and what each one's server is configured to show:
  alice  kernels bind the machine's non-loopback address (KernelManager.ip):
         the kernel honours the connection file's ip; her server is later
         stopped through the hub while a cell runs;
  bob    kernels idle for 5 s are culled (MappingKernelManager.cull_*);
  carol  kernels use the ipc transport (KernelManager.transport=ipc); her
         server is later killed with SIGKILL.

The test logs each user in through the hub's REST API (POST
/hub/api/users/NAME/tokens with the password: a token), starts the servers,
and runs notebooks/01-mechanisms.ipynb for alice and bob side by side through
the hub's proxy: the notebook is read and written back through the contents
API, its cells run through a session's kernel websocket channels; the
executed notebook must have an image, no error, and the RESULT lines that
`goldp nb run` prints for the same (seeded) notebook. The real-browser check
(tests/test_browser.py's run_notebook.mjs in Chromium) then runs once
through the hub URL.

Every process the test starts carries GOLDP_HUB_TEST=<run id> in its
environment (tests/hubkit.py): after a kernel is culled, a server stopped or
killed, and the hub stopped, no process of that run may be left (no goldp
kernel or worker, no singleuser server, no proxy). Whatever is left is
reported, then killed by pid.

Skipped only when Debian's jupyterhub is missing and cannot be installed
(tools/deps.sh installs it); GOLDP_SKIP_BROWSER=1 skips the browser part.
"""

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest

import hubkit
import nbcheck

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOK = "01-mechanisms.ipynb"
USERS = ("alice", "bob", "carol")


def kernel_ip():
    """The address alice's kernels bind: the machine's first non-loopback
    IPv4 address (jupyter_client launches kernels only on the machine's own
    addresses), else loopback."""
    from jupyter_client.localinterfaces import public_ips
    ips = [ip for ip in public_ips() if ip.count(".") == 3 and not ip.startswith("127.")]
    return ips[0] if ips else "127.0.0.1"


ALICE_IP = kernel_ip()
CULL_IDLE = 5  # seconds
HUB_EXES = ("/usr/bin/jupyterhub", "/usr/bin/jupyterhub-singleuser", "/usr/bin/configurable-http-proxy")


def goldp_bin():
    exe = os.environ.get("GOLDP_BIN") or os.environ.get("GOLDP") or os.path.join(REPO, "bin", "goldp")
    return os.path.abspath(exe)


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_jupyterhub():
    """Installs Debian's jupyterhub with tools/deps.sh when it is missing;
    skips the module only when that fails."""
    missing = [e for e in HUB_EXES if not os.access(e, os.X_OK)]
    if not missing:
        return
    p = subprocess.run(["bash", os.path.join(REPO, "tools", "deps.sh")], capture_output=True, text=True,
                       timeout=900)
    still = [e for e in HUB_EXES if not os.access(e, os.X_OK)]
    if still:
        pytest.skip("Debian's jupyterhub cannot be installed (missing %s; tools/deps.sh exited %d: %s)"
                    % (", ".join(still), p.returncode, (p.stderr or p.stdout)[-500:]))


@contextlib.contextmanager
def part(hub, what):
    """Names the part of the run that failed, with the hub's log (which
    holds the proxy's, the servers' and the kernels' output too)."""
    try:
        yield
    except (AssertionError, Exception) as e:  # noqa: BLE001
        if isinstance(e, (pytest.skip.Exception, pytest.fail.Exception)):
            raise
        pytest.fail("%s failed: %s: %s\n--- hub log (tail):\n%s" % (what, type(e).__name__, e, hub.log_tail()),
                    pytrace=False)


def wait_for(what, cond, timeout, interval=0.2):
    """Polls cond() until it returns a true value (returned) or timeout."""
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > deadline:
            raise TimeoutError("%s: not within %d s" % (what, timeout))
        time.sleep(interval)


DOC = os.path.join(REPO, "docs", "jupyterhub.md")
DOC_BLOCK_MARK = "tests/test_hub.py runs this block"


def documented_config():
    """The one-machine configuration block of docs/jupyterhub.md: the hub
    runs it first, then the test's own settings."""
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    mine = [b for b in blocks if DOC_BLOCK_MARK in b.split("\n")[0]]
    assert len(mine) == 1, "docs/jupyterhub.md has %d python blocks whose first line says %r, want 1" % (
        len(mine), DOC_BLOCK_MARK)
    return mine[0]


CONFIG = '''\
# JupyterHub configuration written by tests/test_hub.py for one test run.
import os
c = get_config()  # noqa

# --- docs/jupyterhub.md, as documented ---
{documented}
# --- the test's own settings ---
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.JupyterHub.db_url = "sqlite:///" + {db!r}
c.JupyterHub.cookie_secret_file = {cookie!r}
c.JupyterHub.pid_file = {hub_pid!r}
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api}"
c.ConfigurableHTTPProxy.auth_token = {proxy_token!r}
c.ConfigurableHTTPProxy.pid_file = {proxy_pid!r}

c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allowed_users = set({users!r})

c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = {home!r} + "/{{username}}"
c.Spawner.start_timeout = 90
c.Spawner.http_timeout = 90
c.Spawner.poll_interval = 2  # notice a killed server within seconds
DOC_ENV = dict(c.Spawner.environment) if "environment" in c.Spawner else {{}}
DOC_ARGS = list(c.Spawner.args) if "args" in c.Spawner else []
c.Spawner.environment = dict(DOC_ENV, **{{
    "JUPYTER_PATH": {jupyter_path!r},
    # Short runtime directories: an ipc kernel's socket files live there, and
    # a unix socket path has at most 107 bytes.
    "JUPYTER_RUNTIME_DIR": lambda spawner: os.path.join({runtime!r}, spawner.user.name),
    {mark!r}: {run_id!r},
    {mark_user!r}: lambda spawner: spawner.user.name,
}})
BASE_ARGS = {base_args!r}
USER_ARGS = {user_args!r}

def pre_spawn(spawner):
    # The documented options, where the test gives none of the same name
    # (traitlets refuses an option given twice).
    merged = {{}}
    for a in DOC_ARGS + BASE_ARGS + USER_ARGS.get(spawner.user.name, []):
        merged[a.split("=")[0]] = a
    spawner.args = list(merged.values())

c.Spawner.pre_spawn_hook = pre_spawn
'''


class Hub:
    """Debian's JupyterHub on loopback with a temporary configuration."""

    def __init__(self, tmp, run_id):
        self.tmp, self.run_id = tmp, run_id
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.password = secrets.token_hex(12)
        self.home = os.path.join(tmp, "home")
        self.prefix = os.path.join(tmp, "prefix")
        self.runtime = tempfile.mkdtemp(prefix="ghub-", dir="/tmp")
        self.tokens = {}
        self.state = {}
        self.proc = None
        self.log_path = os.path.join(tmp, "hub.log")

    def write_config(self):
        base_args = ["--allow-root"] if os.geteuid() == 0 else []
        user_args = {
            "alice": ["--KernelManager.ip=%s" % ALICE_IP],
            "bob": ["--MappingKernelManager.cull_idle_timeout=%d" % CULL_IDLE,
                    "--MappingKernelManager.cull_interval=1"],
            "carol": ["--KernelManager.transport=ipc"],
        }
        text = CONFIG.format(
            documented=documented_config(), port=self.port, hub_port=free_port(), proxy_api=free_port(),
            db=os.path.join(self.tmp, "jupyterhub.sqlite"), cookie=os.path.join(self.tmp, "cookie_secret"),
            hub_pid=os.path.join(self.tmp, "hub.pid"), proxy_pid=os.path.join(self.tmp, "proxy.pid"),
            proxy_token=secrets.token_hex(16), password=self.password, users=sorted(USERS), home=self.home,
            jupyter_path=os.path.join(self.prefix, "share", "jupyter"), mark=hubkit.MARK, run_id=self.run_id,
            mark_user=hubkit.MARK_USER, runtime=self.runtime, base_args=base_args, user_args=user_args)
        self.config = os.path.join(self.tmp, "jupyterhub_config.py")
        with open(self.config, "w") as f:
            f.write(text)

    def start(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_", "CONFIGPROXY"))}
        env[hubkit.MARK] = self.run_id
        env["PATH"] = "/usr/bin:/bin:" + env.get("PATH", "")
        # Debian's configurable-http-proxy loads its modules from
        # /usr/share/nodejs, which Debian's node searches and other builds
        # of node (NodeSource's) do not.
        env["NODE_PATH"] = ":".join(x for x in ("/usr/share/nodejs", env.get("NODE_PATH")) if x)
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(["/usr/bin/jupyterhub", "-f", self.config], cwd=self.tmp, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def log_tail(self, n=4000):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()[-n:]
        except OSError:
            return "(no hub log)"

    def wait_ready(self, timeout=90):
        def up():
            assert self.proc.poll() is None, "jupyterhub exited with status %d" % self.proc.returncode
            try:
                _, v = hubkit.http("GET", self.url + "/hub/api/", timeout=5)
                return v
            except (OSError, hubkit.HTTPFailure):
                return None
        return wait_for("the hub answering on %s/hub/api/ through its proxy" % self.url, up, timeout)

    def api(self, method, path, token=None, body=None):
        return hubkit.http(method, self.url + "/hub/api" + path, token, body)

    def login(self, user):
        """Logs user in through the REST API with the shared password;
        returns a token for the hub's API and the user's server."""
        status, t = self.api("POST", "/users/%s/tokens" % user,
                             body={"auth": {"username": user, "password": self.password},
                                   "note": "goldp hub test", "expires_in": 3600})
        assert status in (200, 201) and t.get("token"), "token request for %s answered %d: %s" % (user, status, t)
        self.tokens[user] = t["token"]
        return t["token"]

    def server_state(self, user):
        _, model = self.api("GET", "/users/" + user, self.tokens[user])
        return model

    def start_server(self, user):
        status, _ = self.api("POST", "/users/%s/server" % user, self.tokens[user])
        assert status in (201, 202), "starting %s's server answered %d" % (user, status)

    def wait_server(self, user, timeout=90):
        def ready():
            m = self.server_state(user)
            s = m.get("servers", {}).get("")
            assert s is not None or m.get("pending") == "spawn", "%s's server is gone: %s" % (user, m)
            return s if s and s.get("ready") else None
        return wait_for("%s's server ready" % user, ready, timeout)

    def stop_server(self, user, timeout=60):
        status, _ = self.api("DELETE", "/users/%s/server" % user, self.tokens[user])
        assert status in (202, 204), "stopping %s's server answered %d" % (user, status)
        wait_for("%s's server stopped" % user,
                 lambda: not self.server_state(user).get("servers") and not self.server_state(user).get("pending"),
                 timeout)

    def client(self, user):
        return hubkit.ServerClient(self.url + "/user/" + user, self.tokens[user], user)

    def stop(self, timeout=60):
        """SIGTERM to the hub (it stops the servers and the proxy); SIGKILL to
        its process group after timeout. Returns the exit status."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.log.close()
        return self.proc.returncode


def kill_leftovers(run_id):
    """Kills (SIGKILL, by pid) every process of this run still alive;
    returns their descriptions."""
    left = hubkit.processes(run_id)
    for p in left:
        try:
            os.kill(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return [repr(p) for p in left]


@pytest.fixture(scope="module")
def baseline():
    """The RESULT lines `goldp nb run` prints for the walkthrough, started in
    the background while the hub comes up."""
    out = tempfile.NamedTemporaryFile(suffix=".ipynb", delete=False)
    out.close()
    p = subprocess.Popen([goldp_bin(), "nb", "run", os.path.join(REPO, "notebooks", NOTEBOOK), "--out", out.name],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    holder = {}

    def get():
        if "lines" not in holder:
            log, _ = p.communicate(timeout=120)
            assert p.returncode == 0, "goldp nb run %s failed:\n%s" % (NOTEBOOK, log[-2000:])
            import nbformat
            holder["lines"] = nbcheck.result_lines(nbformat.read(out.name, as_version=4))
            os.unlink(out.name)
        return holder["lines"]
    yield get
    if p.poll() is None:
        p.kill()
        p.wait()


@pytest.fixture(scope="module")
def hub(baseline):
    ensure_jupyterhub()
    assert os.access(goldp_bin(), os.X_OK), "no goldp binary at %s (go build -o bin/goldp .)" % goldp_bin()
    run_id = secrets.token_hex(8)
    with tempfile.TemporaryDirectory(prefix="goldp-hub-") as tmp:
        h = Hub(tmp, run_id)
        p = subprocess.run([goldp_bin(), "install", "--prefix", h.prefix], capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 0, "goldp install --prefix %s failed: %s" % (h.prefix, p.stderr)
        for u in USERS:
            os.makedirs(os.path.join(h.home, u))
            nbcheck_copy(os.path.join(REPO, "notebooks", NOTEBOOK), os.path.join(h.home, u, NOTEBOOK))
        h.write_config()
        try:
            with part(h, "starting the hub and its proxy"):
                h.start()
                h.wait_ready()
            with part(h, "logging the users in through the REST API"):
                for u in USERS:
                    h.login(u)
            with part(h, "starting the users' servers"):
                for u in USERS:
                    h.start_server(u)
                for u in USERS:
                    h.wait_server(u)
            yield h
        finally:
            h.stop()
            shutil.rmtree(h.runtime, ignore_errors=True)
            left = kill_leftovers(run_id)
            if left and not h.state.get("orphans_reported"):
                print("test_hub: killed processes left after the hub stopped:\n  " + "\n  ".join(left),
                      file=sys.stderr)


def nbcheck_copy(src, dst):
    """Copies a notebook without its outputs."""
    with open(src, encoding="utf-8") as f:
        nb = json.load(f)
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)


def kernel_procs(hub, user, kernel_id):
    """(supervisor, worker) processes of kernel kernel_id in user's server."""
    procs = hubkit.processes(hub.run_id, user)
    sup = [p for p in procs if p.role == "goldp-kernel" and any("kernel-%s" % kernel_id in a for a in p.argv)]
    assert len(sup) == 1, "want one goldp kernel process for %s's kernel %s, found %s" % (user, kernel_id, procs)
    workers = [p for p in procs if p.role == "goldp-worker" and p.ppid == sup[0].pid]
    assert len(workers) == 1, "want one worker child of %r, found %s" % (sup[0], procs)
    return sup[0], workers[0]


def connection_file(hub, user, kernel_id):
    path = os.path.join(hub.runtime, user, "kernel-%s.json" % kernel_id)
    with open(path) as f:
        return json.load(f)


PORTS = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")


# --- the tests, in the order they run -------------------------------------------------

def test_servers_list_the_goldp_kernelspec(hub):
    for u in USERS:
        with part(hub, "listing %s's kernelspecs through the proxy" % u):
            _, specs = hub.client(u).api("GET", "/kernelspecs")
            assert "goldp" in specs["kernelspecs"], "%s's server lists %s" % (u, sorted(specs["kernelspecs"]))
            assert specs["kernelspecs"]["goldp"]["spec"]["display_name"] == "Go (goldp)"


def test_two_users_run_the_walkthrough_through_the_proxy(hub, baseline):
    results, errors = {}, {}

    def run(user):
        def connected(kid):
            # before the websocket closes: bob's server culls the kernel soon after
            hub.state[user + "_kernel"] = kid
            hub.state[user + "_procs"] = kernel_procs(hub, user, kid)
        try:
            results[user] = hub.client(user).run_notebook(NOTEBOOK, connected=connected)
        except Exception as e:  # noqa: BLE001
            errors[user] = e

    threads = [threading.Thread(target=run, args=(u,)) for u in ("alice", "bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=240)
    for user in ("alice", "bob"):
        with part(hub, "running %s through %s's server (REST API + kernel websocket)" % (NOTEBOOK, user)):
            if user in errors:
                raise errors[user]
            assert user in results, "%s's run did not finish" % user
            nb, _, _, secs = results[user]
            errs = nbcheck.errors(nb)
            assert not errs, "error outputs:\n" + "\n".join(errs)
            assert nbcheck.count_images(nb) >= 1, "no image/png output"
            unexecuted = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.execution_count is None]
            assert not unexecuted, "code cells not executed: %s" % unexecuted
            want = baseline()
            assert want, "goldp nb run printed no RESULT lines"
            assert nbcheck.result_lines(nb) == want, "RESULT lines through the hub differ from goldp nb run's"
            print("%s: %s through the hub in %.1f s" % (user, NOTEBOOK, secs))


def test_kernel_binds_the_connection_files_ip(hub):
    """alice's server asks for kernels on the machine's own address (not
    loopback): the supervisor listens there, on the five ports of the
    connection file, and nowhere else."""
    with part(hub, "checking the sockets of alice's kernel"):
        kid = hub.state.get("alice_kernel")
        assert kid, "alice's walkthrough did not start a kernel (see the walkthrough test)"
        sup, _ = hub.state["alice_procs"]
        info = connection_file(hub, "alice", kid)
        assert info["ip"] == ALICE_IP and info["transport"] == "tcp", info
        tcp, _ = hubkit.listening(sup.pid)
        assert tcp == sorted((ALICE_IP, info[p]) for p in PORTS), \
            "kernel %r listens on %s, the connection file says %s:%s" % (sup, tcp, ALICE_IP, [info[p] for p in PORTS])


IPC_CELLS = [
    'fmt.Println("RESULT ipc_sum=", 1+2)',
    "p := plot.New()\np.Title.Text = \"ipc\"\npts := plotter.XYs{{0, 0}, {1, 1}}\nl, _ := plotter.NewLine(pts)\np.Add(l)\np",
]


def test_ipc_transport(hub):
    """carol's server starts kernels with transport ipc: the kernel listens
    on the connection file's five socket files and on no TCP port, and runs
    cells (a print and a plot) through the hub."""
    import asyncio
    c = hub.client("carol")
    with part(hub, "running cells in carol's ipc kernel"):
        sid, kid = c.start_session("ipc.ipynb")
        hub.state["carol_kernel"] = kid

        async def run():
            async with c.channels(kid, sid) as ch:
                await ch.wait_ready()
                return [await ch.execute(code, timeout=60) for code in IPC_CELLS]
        replies = asyncio.run(run())
        for (reply, outs), code in zip(replies, IPC_CELLS):
            assert reply["status"] == "ok", "cell %r: %s" % (code, reply)
        assert any("RESULT ipc_sum= 3" in o.get("text", "") for o in replies[0][1]), replies[0][1]
        assert any("image/png" in o.get("data", {}) for o in replies[1][1]), "no image: %s" % replies[1][1]
    with part(hub, "checking the sockets of carol's ipc kernel"):
        info = connection_file(hub, "carol", kid)
        assert info["transport"] == "ipc", info
        sup, worker = kernel_procs(hub, "carol", kid)
        hub.state["carol_procs"] = (sup, worker)
        tcp, unix = hubkit.listening(sup.pid)
        assert tcp == [], "the ipc kernel %r listens on TCP %s" % (sup, tcp)
        assert unix == sorted("%s-%d" % (info["ip"], info[p]) for p in PORTS), \
            "the ipc kernel listens on %s, the connection file names %s-{%s}" % (
                unix, info["ip"], ",".join(str(info[p]) for p in PORTS))


def test_browser_through_the_hub(hub):
    """tests/test_browser.py's Chromium check, once, through the hub's URL:
    the notebook page of alice's server behind the proxy, authenticated by
    her token."""
    if os.environ.get("GOLDP_SKIP_BROWSER") == "1":
        pytest.skip("GOLDP_SKIP_BROWSER=1: real-browser check skipped")
    import test_browser
    missing = test_browser.missing_dependencies()
    if missing:
        pytest.fail("the browser check cannot run: %s; %s" % ("; ".join(missing), test_browser.DEPS_HINT))
    name = "hub-" + NOTEBOOK
    nbcheck_copy(os.path.join(REPO, "notebooks", NOTEBOOK), os.path.join(hub.home, "alice", name))

    class Target:
        base = hub.url + "/user/alice"
        token = hub.tokens["alice"]
        log_tail = staticmethod(hub.log_tail)
    with part(hub, "running %s in Chromium through %s" % (name, Target.base)):
        code, out, shot = test_browser.run_in_browser(Target, name)
        print(out)
        assert code == 0, "run_notebook.mjs exited %d:\n%s" % (code, out)
        assert "run_notebook: ok" in out, out
        assert os.path.getsize(shot) > 10000, "screenshot %s is too small to show a page" % shot


def test_culled_kernel_leaves_no_orphan(hub):
    """bob's walkthrough kernel, idle with no client, is culled by his
    server: the kernel and its worker are gone."""
    with part(hub, "culling bob's idle kernel"):
        kid = hub.state.get("bob_kernel")
        assert kid, "bob's walkthrough did not start a kernel (see the walkthrough test)"
        sup, worker = hub.state["bob_procs"]
        c = hub.client("bob")
        wait_for("bob's kernel culled", lambda: kid not in [k["id"] for k in c.api("GET", "/kernels")[1]],
                 CULL_IDLE + 30)
        left = hubkit.wait_gone(hub.run_id, "bob", ("goldp-kernel", "goldp-worker"), timeout=10)
        assert not left, "after culling, left: %s" % left
        assert not hubkit.alive(sup.pid) and not hubkit.alive(worker.pid), (sup, worker)
        culled = [line for line in hub.log_tail(10 ** 7).split("\n") if "Culling" in line and kid in line]
        assert culled, "bob's server did not log culling kernel %s: it went some other way" % kid


def test_stopping_a_server_leaves_no_orphan(hub):
    """alice's server is stopped through the hub while one of her kernels
    runs a long cell: server, kernels and workers all go."""
    import asyncio
    c = hub.client("alice")
    with part(hub, "starting a long cell in alice's kernel"):
        sid, kid = c.start_session("busy.ipynb")

        async def run():
            async with c.channels(kid, sid) as ch:
                await ch.wait_ready()
                await ch.execute("time.Sleep(time.Hour)", wait=False, timeout=30)
        asyncio.run(run())
        busy = kernel_procs(hub, "alice", kid)
        before = hubkit.processes(hub.run_id, "alice")
        # the walkthrough's kernel, the browser's and this one
        assert [p.role for p in before].count("goldp-kernel") >= 2, before
    with part(hub, "stopping alice's server through the hub"):
        t0 = time.monotonic()
        hub.stop_server("alice")
        secs = time.monotonic() - t0
        left = hubkit.wait_gone(hub.run_id, "alice", timeout=10)
        assert not left, "after stopping alice's server (%.1f s), left: %s" % (secs, left)
        assert not any(hubkit.alive(p.pid) for p in busy)
        print("alice's server stopped in %.1f s" % secs)


def test_killed_server_leaves_no_orphan(hub):
    """carol's server is killed with SIGKILL, as the spawner does when it does
    not stop in time (or the OOM killer): her kernel must not outlive it."""
    with part(hub, "killing carol's server"):
        kid = hub.state.get("carol_kernel")
        assert kid, "carol's ipc test did not start a kernel"
        servers = [p for p in hubkit.processes(hub.run_id, "carol") if p.role == "singleuser"]
        assert len(servers) == 1, servers
        kernels = [p for p in hubkit.processes(hub.run_id, "carol") if p.role == "goldp-kernel"]
        assert kernels, "carol has no running kernel to orphan"
        os.kill(servers[0].pid, signal.SIGKILL)
        wait_for("the hub noticing carol's server died", lambda: not hub.server_state("carol").get("servers"), 60,
                 interval=1)
    left = hubkit.wait_gone(hub.run_id, "carol", timeout=10)
    for p in left:  # the orphans are reported and ended here, not left to the next test
        os.kill(p.pid, signal.SIGKILL)
    assert not left, "10 s after carol's server was killed, still alive: %s" % left


def test_hub_stop_leaves_no_orphan(hub):
    """The hub stops on SIGTERM, with the servers and the proxy: nothing of
    this run is left."""
    with part(hub, "stopping the hub"):
        roles = sorted(p.role for p in hubkit.processes(hub.run_id))
        assert "hub" in roles and "proxy" in roles, "the hub and its proxy are not both running: %s" % roles
        status = hub.stop()
        assert status == 0, "jupyterhub exited with status %s" % status
        left = hubkit.wait_gone(hub.run_id, timeout=10)
        hub.state["orphans_reported"] = True
        assert not left, "after the hub stopped, left: %s" % left
