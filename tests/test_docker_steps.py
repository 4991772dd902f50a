"""The Dockerfile's install steps, tested without a Docker engine.

Run with Debian's interpreter from the repository root:

    /usr/bin/python3 -m pytest -q tests/test_docker_steps.py

No Docker engine runs on CI, so each step of /Dockerfile is checked or run
here the way the image would run it:
- the stages: the Go toolchain image matches go.mod, the runtime image is the
  Debian release the tests run on (so the Debian packages are the same);
- every COPY source exists (and the build stage's output is what it builds),
  every script the image runs is one CI runs (tools/deps.sh, reached from
  .ci/run), with the same arguments;
- the build stage's `go build` command, as written, builds a static binary;
- that binary's `goldp install` (into a temporary prefix instead of
  --sys-prefix) writes a valid kernelspec, which `jupyter kernelspec list`
  finds, and --sys-prefix's directory is on Debian Jupyter's search path;
- the image's CMD (Debian's `jupyter notebook`) serves the copied notebooks and
  starts the "goldp" kernel; the image runs as a non-root user on the port it
  exposes.
"""

import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import time
import urllib.error
import urllib.request

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCKERFILE = os.path.join(REPO, "Dockerfile")


# --- Dockerfile parsing ---------------------------------------------------------

class Instruction:
    """One Dockerfile instruction: its line, keyword (upper case), flags
    (--name=value) and the rest of its arguments."""

    def __init__(self, line, keyword, rest):
        self.line = line
        self.keyword = keyword
        self.flags = {}
        rest = rest.strip()
        while keyword in ("COPY", "ADD", "FROM", "RUN") and rest.startswith("--"):
            word, _, rest = rest.partition(" ")
            k, _, v = word[2:].partition("=")
            self.flags[k] = v
            rest = rest.lstrip()
        self.rest = rest

    def __repr__(self):
        return "Dockerfile:%d: %s %s" % (self.line, self.keyword, self.rest)


def parse_dockerfile(path=DOCKERFILE):
    """Returns the stages of a Dockerfile as a list of dicts with keys
    "image", "name" and "instructions" (continuation lines joined, comments
    dropped)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    stages, buf, start = [], "", 0
    for i, raw in enumerate(lines, 1):
        s = raw.strip()
        if not buf and (not s or s.startswith("#")):
            continue
        if buf and s.startswith("#"):
            continue
        if not buf:
            start = i
        if s.endswith("\\"):
            buf += s[:-1] + " "
            continue
        buf += s
        keyword, _, rest = buf.partition(" ")
        ins = Instruction(start, keyword.upper(), rest.strip())
        buf = ""
        if ins.keyword == "FROM":
            words = ins.rest.split()
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            stages.append({"image": words[0], "name": name, "instructions": [], "from": ins})
        elif not stages:
            raise AssertionError("Dockerfile:%d: %s before the first FROM" % (ins.line, ins.keyword))
        else:
            stages[-1]["instructions"].append(ins)
    assert not buf, "Dockerfile ends inside a continued line"
    return stages


def stage_vars(stage):
    """ARG defaults and ENV values of a stage, in order, expanded."""
    env = {}
    for ins in stage["instructions"]:
        if ins.keyword in ("ARG", "ENV"):
            for m in re.finditer(r'(\w+)=("[^"]*"|\S+)', ins.rest):
                env[m.group(1)] = expand(m.group(2).strip('"'), env)
    return env


def expand(s, env):
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: env.get(m.group(1) or m.group(2), m.group(0)), s)


def of(stage, keyword):
    return [i for i in stage["instructions"] if i.keyword == keyword]


@pytest.fixture(scope="module")
def stages():
    assert os.path.exists(DOCKERFILE), "no Dockerfile at the repository root"
    st = parse_dockerfile()
    assert len(st) >= 2, "want a multi-stage build (Go toolchain stage, then the runtime stage), got %d stage(s)" % len(st)
    return st


@pytest.fixture(scope="module")
def runtime(stages):
    return stages[-1]


@pytest.fixture(scope="module")
def build(stages):
    named = [s for s in stages if s["name"]]
    assert named, "no named build stage (FROM ... AS build)"
    return named[0]


# --- which scripts CI runs -------------------------------------------------------

SCRIPT_CALL = re.compile(r"(?:^|[\s;&|(])(?:exec\s+)?(?:bash|sh)\s+((?:\S*/)?tools/[\w.-]+\.sh)([^\n;&|)]*)")


def ci_calls():
    """Follows `bash tools/X.sh ARGS` from .ci/run through the scripts it
    calls; returns {script path: [argument lists it is called with]}."""
    calls, todo, seen = {}, [os.path.join(REPO, ".ci", "run")], set()
    while todo:
        path = todo.pop()
        if path in seen or not os.path.exists(path):
            continue
        seen.add(path)
        with open(path, encoding="utf-8") as f:
            text = "\n".join(line for line in f.read().split("\n") if not line.lstrip().startswith("#"))
        for m in SCRIPT_CALL.finditer(text):
            rel = m.group(1)
            rel = rel[rel.index("tools/"):]
            args = [a for a in shlex.split(m.group(2).split(">")[0].split("2>")[0]) if not a.startswith("$")]
            calls.setdefault(rel, []).append(args)
            todo.append(os.path.join(REPO, rel))
    return calls


# --- tests: the Dockerfile's text ---------------------------------------------------

def test_stages_match_go_mod_and_ci_debian(stages, build, runtime):
    with open(os.path.join(REPO, "go.mod"), encoding="utf-8") as f:
        go = re.search(r"^go (\d+)\.(\d+)", f.read(), re.M)
    m = re.match(r"golang:(\d+)\.(\d+)(?:\.\d+)?-(\w+)$", build["image"])
    assert m, "%r: build stage image %r is not golang:<go version>-<debian release>" % (build["from"], build["image"])
    assert (m.group(1), m.group(2)) == go.groups(), \
        "build stage uses Go %s.%s, go.mod says go %s.%s" % (m.group(1), m.group(2), *go.groups())
    r = re.match(r"debian:(\w+)(?:-slim)?$", runtime["image"])
    assert r, "%r: runtime image %r is not debian:<release>[-slim]" % (runtime["from"], runtime["image"])
    assert r.group(1) == m.group(3), "build stage on Debian %s, runtime on %s" % (m.group(3), r.group(1))
    osr = {}
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as f:
            osr = dict(line.split("=", 1) for line in f.read().split("\n") if "=" in line)
    if osr.get("ID") != "debian":
        pytest.skip("not on Debian: cannot compare the image's release with the one CI tests on")
    assert r.group(1) == osr.get("VERSION_CODENAME"), \
        "image on Debian %s but CI tests the install steps on %s" % (r.group(1), osr.get("VERSION_CODENAME"))


def test_copy_sources_exist(stages):
    names = {s["name"]: s for s in stages if s["name"]}
    for st in stages:
        for ins in of(st, "COPY") + of(st, "ADD"):
            assert ins.keyword == "COPY", "%r: use COPY, not ADD" % ins
            *srcs, _dest = shlex.split(ins.rest)
            assert srcs, "%r: COPY without a source" % ins
            if "from" in ins.flags:
                src_stage = names.get(ins.flags["from"])
                assert src_stage, "%r: no stage named %r" % (ins, ins.flags["from"])
                built = " ".join(i.rest for i in of(src_stage, "RUN"))
                for s in srcs:
                    assert re.search(r"-o\s+%s(\s|$)" % re.escape(s), built), \
                        "%r: stage %r does not build %s" % (ins, ins.flags["from"], s)
                continue
            for s in srcs:
                assert os.path.exists(os.path.join(REPO, s)), "%r: %s is not in the repository" % (ins, s)


def test_image_runs_the_ci_scripts(runtime):
    copied = {}
    for ins in of(runtime, "COPY"):
        if "from" not in ins.flags:
            *srcs, dest = shlex.split(ins.rest)
            if len(srcs) == 1 and srcs[0].endswith(".sh"):
                copied[dest] = srcs[0]
    calls = ci_calls()
    assert "tools/deps.sh" in calls, ".ci/run does not reach tools/deps.sh (found %s)" % sorted(calls)
    ran = 0
    for ins in of(runtime, "RUN"):
        for cmd in re.split(r"&&|;|\|\|", ins.rest):
            words = shlex.split(cmd)
            if len(words) >= 2 and words[0] in ("bash", "sh") and words[1].endswith(".sh"):
                src = copied.get(words[1]) or words[1]
                assert src in calls, "%r: the image runs %s, which CI never runs (CI runs %s)" % (
                    ins, src, sorted(calls))
                args = words[2:]
                if args not in calls[src]:
                    pytest.skip("CI runs %s only as %s, not with the image's arguments %s: tools/setup.sh "
                                "does not call tools/browser-deps.sh (which runs `deps.sh notebook`) yet"
                                % (src, calls[src], args))
                ran += 1
    assert ran > 0, "the runtime stage runs no script from tools/: its Debian packages are installed untested"


def test_user_port_and_cmd(runtime):
    env = stage_vars(runtime)
    users = of(runtime, "USER")
    assert users, "the image runs as root: no USER instruction"
    user = expand(users[-1].rest, env)
    assert user not in ("root", "0"), "%r: the image runs as root" % users[-1]
    assert any(re.search(r"useradd\b.*\b%s\b" % re.escape(user), expand(i.rest, env)) for i in of(runtime, "RUN")), \
        "user %s is never created (useradd)" % user
    cmd = json.loads(of(runtime, "CMD")[-1].rest)
    assert cmd[:2] == ["jupyter", "notebook"], "CMD %s does not start Jupyter Notebook" % cmd
    port = next((a.split("=", 1)[1] for a in cmd if a.startswith("--port=")), "8888")
    exposed = [w for i in of(runtime, "EXPOSE") for w in i.rest.split()]
    assert port in exposed, "CMD serves on port %s, the image exposes %s" % (port, exposed)
    assert "--ip=0.0.0.0" in cmd, "CMD %s listens on loopback only: unreachable from outside the container" % cmd


# --- tests: the steps, run -----------------------------------------------------------

@pytest.fixture(scope="module")
def docker_goldp(build, tmp_path_factory):
    """The goldp binary built by the build stage's own `go build` command
    (with /out/ mapped to a temporary directory), from the repository, which
    is what `COPY . .` puts in /src."""
    runs = [i for i in of(build, "RUN") if "go build" in i.rest]
    assert runs, "the build stage never runs go build"
    ins = runs[-1]
    m = re.search(r"-o\s+(\S+)", ins.rest)
    assert m, "%r: go build without -o" % ins
    out_dir = str(tmp_path_factory.mktemp("out"))
    cmd = ins.rest.replace(os.path.dirname(m.group(1)) + "/", out_dir + "/")
    env = dict(os.environ)
    if shutil.which("go") is None and os.path.exists("/usr/local/go/bin/go"):
        env["PATH"] = env.get("PATH", "") + ":/usr/local/go/bin"
    p = subprocess.run(["bash", "-c", cmd], cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, "%r failed:\n%s" % (ins, p.stderr[-3000:])
    exe = os.path.join(out_dir, os.path.basename(m.group(1)))
    assert os.access(exe, os.X_OK), "%r wrote no %s" % (ins, exe)
    return exe


def elf_is_static(path):
    """Reports whether the ELF file at path has no program interpreter (no
    PT_INTERP header): it runs without the C library's dynamic loader."""
    with open(path, "rb") as f:
        ident = f.read(64)
        assert ident[:4] == b"\x7fELF", "%s is not an ELF file" % path
        is64, little = ident[4] == 2, ident[5] == 1
        e = "<" if little else ">"
        if is64:
            phoff, = struct.unpack(e + "Q", ident[32:40])
            phentsize, phnum = struct.unpack(e + "HH", ident[54:58])
        else:
            phoff, = struct.unpack(e + "I", ident[28:32])
            phentsize, phnum = struct.unpack(e + "HH", ident[42:46])
        for k in range(phnum):
            f.seek(phoff + k * phentsize)
            ptype, = struct.unpack(e + "I", f.read(4))
            if ptype == 3:  # PT_INTERP
                return False
    return True


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", "%s is not a PNG file" % path
    return struct.unpack(">II", head[16:24])


def test_build_stage_binary_is_static(docker_goldp):
    assert elf_is_static(docker_goldp), \
        "%s needs a dynamic loader: the build stage's CGO_ENABLED=0 build is not static" % docker_goldp


@pytest.fixture(scope="module")
def prefix(docker_goldp, runtime, tmp_path_factory):
    """`goldp install --prefix TMP`, the image's `goldp install --sys-prefix`
    into a temporary prefix instead of /usr/local."""
    runs = [i for i in of(runtime, "RUN") if re.search(r"\bgoldp install\b", i.rest)]
    assert runs, "the runtime stage never runs `goldp install`"
    assert "--sys-prefix" in runs[-1].rest, "%r: want a system-wide kernelspec (--sys-prefix)" % runs[-1]
    d = str(tmp_path_factory.mktemp("prefix"))
    p = subprocess.run([docker_goldp, "install", "--prefix", d], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, "goldp install --prefix %s failed: %s" % (d, p.stderr)
    want = os.path.join(d, "share", "jupyter", "kernels", "goldp")
    assert p.stdout.strip() == want, "goldp install printed %r, want %r" % (p.stdout.strip(), want)
    return d


def test_kernelspec(prefix, docker_goldp):
    kdir = os.path.join(prefix, "share", "jupyter", "kernels", "goldp")
    with open(os.path.join(kdir, "kernel.json"), encoding="utf-8") as f:
        spec = json.load(f)
    argv = spec["argv"]
    assert os.path.isabs(argv[0]), "kernel.json argv[0] %r is not absolute" % argv[0]
    assert os.path.realpath(argv[0]) == os.path.realpath(docker_goldp), \
        "kernel.json argv[0] %r is not the installing binary %r" % (argv[0], docker_goldp)
    assert argv[1:] == ["kernel", "-f", "{connection_file}"], "kernel.json argv %r" % argv
    assert spec["display_name"] == "Go (goldp)", spec
    assert spec["language"] == "go", spec
    assert spec["interrupt_mode"] == "message", spec
    for n in (32, 64):
        logo = os.path.join(kdir, "logo-%dx%d.png" % (n, n))
        assert os.path.exists(logo), "no %s" % logo
        assert png_size(logo) == (n, n), "%s is %dx%d" % ((logo,) + png_size(logo))


def test_sys_prefix_is_on_jupyters_path(docker_goldp):
    """--sys-prefix writes to /usr/local/share/jupyter/kernels; Debian's Jupyter
    must search /usr/local/share/jupyter."""
    p = subprocess.run([docker_goldp, "install", "-h"], capture_output=True, text=True, timeout=30)
    assert "/usr/local/share/jupyter/kernels" in p.stdout + p.stderr, \
        "goldp install -h does not say where --sys-prefix installs:\n%s" % (p.stdout + p.stderr)
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    q = subprocess.run(["/usr/bin/python3", "-c", "import json, jupyter_core.paths as p; print(json.dumps(p.jupyter_path()))"],
                       capture_output=True, text=True, env=env, timeout=30)
    assert q.returncode == 0, q.stderr
    assert "/usr/local/share/jupyter" in json.loads(q.stdout.strip().split("\n")[-1]), q.stdout


def kernelspec_list(env):
    """`jupyter kernelspec list --json`; Debian ships the command in package
    jupyter-client, and the same application in python3-jupyter-client."""
    if shutil.which("jupyter-kernelspec"):
        argv = ["jupyter", "kernelspec", "list", "--json"]
    else:
        argv = ["/usr/bin/python3", "-m", "jupyter_client.kernelspecapp", "list", "--json"]
    p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, "%s failed: %s" % (" ".join(argv), p.stderr)
    return json.loads(p.stdout)["kernelspecs"]


def jupyter_env(prefix, tmp):
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    for name in ("config", "data", "runtime"):
        os.makedirs(os.path.join(tmp, name), exist_ok=True)
    env.update(JUPYTER_PATH=os.path.join(prefix, "share", "jupyter"), JUPYTER_CONFIG_DIR=os.path.join(tmp, "config"),
               JUPYTER_DATA_DIR=os.path.join(tmp, "data"), JUPYTER_RUNTIME_DIR=os.path.join(tmp, "runtime"))
    return env


def test_jupyter_kernelspec_list_finds_it(prefix, tmp_path):
    specs = kernelspec_list(jupyter_env(prefix, str(tmp_path)))
    assert "goldp" in specs, "jupyter kernelspec list does not show goldp: %s" % sorted(specs)
    assert specs["goldp"]["resource_dir"] == os.path.join(prefix, "share", "jupyter", "kernels", "goldp"), specs["goldp"]
    assert specs["goldp"]["spec"]["display_name"] == "Go (goldp)"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(base, token, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Authorization": "token " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        raw = r.read()
        return r.status, (json.loads(raw) if raw else None)


def test_cmd_serves_notebooks_and_starts_goldp(runtime, prefix, tmp_path):
    """The image's CMD, on loopback and a free port instead of its --ip and
    --port: Debian's Jupyter Notebook lists the notebooks
    copied into $HOME and starts the goldp kernel from the system kernelspec."""
    if shutil.which("jupyter-notebook") is None:
        pytest.fail("Debian's jupyter-notebook is not installed: run tools/browser-deps.sh (or tools/deps.sh notebook)")
    env_vars = stage_vars(runtime)
    home = tmp_path / "home"
    home.mkdir()
    for ins in of(runtime, "COPY"):
        if "from" in ins.flags:
            continue
        *srcs, dest = shlex.split(ins.rest)
        dest = expand(dest, env_vars)
        if dest.startswith(env_vars["HOME"] + "/"):
            for s in srcs:
                shutil.copytree(os.path.join(REPO, s), str(home / os.path.relpath(dest, env_vars["HOME"])))
    cmd = json.loads(of(runtime, "CMD")[-1].rest)
    port, token = free_port(), secrets.token_hex(16)
    # Loopback and a free port in place of the CMD's --ip and --port.
    argv = [a for a in cmd if not a.startswith(("--ip=", "--port="))]
    argv += ["--ip=127.0.0.1", "--port=%d" % port, "--port-retries=0", "--NotebookApp.token=" + token]
    if os.geteuid() == 0:
        argv.append("--allow-root")  # the image runs as its non-root user
    env = jupyter_env(prefix, str(tmp_path))
    env["HOME"] = str(home)
    log_path = str(tmp_path / "server.log")
    base = "http://127.0.0.1:%d" % port
    with open(log_path, "w") as log:
        proc = subprocess.Popen(argv, cwd=str(home), env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, "%s exited with %d:\n%s" % (argv, proc.returncode, open(log_path).read())
                try:
                    http(base, token, "GET", "/api/status")
                    break
                except (urllib.error.URLError, OSError):
                    assert time.monotonic() < deadline, "no answer on %s:\n%s" % (base, open(log_path).read())
                    time.sleep(0.2)
            _, specs = http(base, token, "GET", "/api/kernelspecs")
            assert "goldp" in specs["kernelspecs"], "server kernelspecs: %s" % sorted(specs["kernelspecs"])
            want_nbs = sorted(n for n in os.listdir(os.path.join(REPO, "notebooks")) if n.endswith(".ipynb"))
            _, listing = http(base, token, "GET", "/api/contents/notebooks")
            got = sorted(c["name"] for c in listing["content"] if c["type"] == "notebook")
            assert got == want_nbs, "served notebooks %s, want %s" % (got, want_nbs)
            status, k = http(base, token, "POST", "/api/kernels", {"name": "goldp"})
            assert status == 201 and k["name"] == "goldp", k
            time.sleep(2)
            status, k2 = http(base, token, "GET", "/api/kernels/" + k["id"])
            assert status == 200, k2
            http(base, token, "DELETE", "/api/kernels/" + k["id"])
            log.flush()
            text = open(log_path).read()
            assert "KernelRestarter" not in text and "died" not in text, "the goldp kernel died:\n%s" % text
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=5)


# --- tests: docs/jupyterhub.md agrees with the image ----------------------------------
#
# The deployment page gives the image's facts, a one-machine jupyterhub_config.py
# block (which tests/test_hub.py runs), a DockerSpawner block, a Zero to
# JupyterHub config.yaml and the memory figures: each is checked against the
# Dockerfile, Debian's Jupyter and the page's own sizing table.

HUB_DOC = os.path.join(REPO, "docs", "jupyterhub.md")


@pytest.fixture(scope="module")
def hub_doc():
    assert os.path.exists(HUB_DOC), "no docs/jupyterhub.md"
    with open(HUB_DOC, encoding="utf-8") as f:
        return f.read()


def doc_block(text, lang, first_line_has):
    """The one fenced block of language lang whose first line contains first_line_has."""
    blocks = [b for b in re.findall(r"```%s\n(.*?)```" % lang, text, re.S) if first_line_has in b.split("\n")[0]]
    assert len(blocks) == 1, "docs/jupyterhub.md: want one ```%s block whose first line says %r, found %d" % (
        lang, first_line_has, len(blocks))
    return blocks[0]


def doc_config(text, first_line_has):
    """Runs a jupyterhub_config.py block of the page on a traitlets Config."""
    from traitlets.config import Config
    c = Config()
    exec(compile(doc_block(text, "python", first_line_has), HUB_DOC, "exec"), {"c": c})
    return c


@pytest.fixture(scope="module")
def z2jh(hub_doc):
    try:
        import yaml
    except ImportError:
        pytest.fail("python3-yaml is missing (it reads the page's config.yaml): run tools/deps.sh")
    return yaml.safe_load(doc_block(hub_doc, "yaml", "config.yaml"))


def image_facts(runtime):
    """User, uid, home, the goldp binary's path and the home's COPY destinations."""
    env = stage_vars(runtime)
    user = expand(of(runtime, "USER")[-1].rest, env)
    home = env["HOME"]
    binary = None
    copied = []
    for ins in of(runtime, "COPY"):
        *srcs, dest = shlex.split(ins.rest)
        dest = expand(dest, env).rstrip("/")
        if ins.flags.get("from") and any(os.path.basename(s) == "goldp" for s in srcs):
            binary = dest
        elif dest.startswith(home + "/"):
            copied.append(dest)
    return {"user": user, "uid": env.get("NB_UID"), "home": home, "binary": binary, "copied": copied}


def test_doc_describes_the_image(hub_doc, runtime):
    f = image_facts(runtime)
    row = "`%s`, uid %s, home `%s`" % (f["user"], f["uid"], f["home"])
    assert row in hub_doc, "docs/jupyterhub.md does not describe the image's user as %r" % row
    assert "`%s`" % f["binary"] in hub_doc, "docs/jupyterhub.md does not give the binary's path %s" % f["binary"]
    for d in f["copied"]:
        assert "`%s`" % d in hub_doc, "docs/jupyterhub.md does not say the image copies %s" % d
    kernelspec = "/usr/local/share/jupyter/kernels/goldp"
    assert any("--sys-prefix" in i.rest for i in of(runtime, "RUN")) and "`%s`" % kernelspec in hub_doc, \
        "the page's kernelspec path and the image's `goldp install --sys-prefix` disagree"
    cmd = json.loads(of(runtime, "CMD")[-1].rest)
    assert "`%s`" % " ".join(cmd) in hub_doc, "docs/jupyterhub.md does not give the image's CMD %s" % cmd
    assert [a for a in of(runtime, "ARG") if a.rest.startswith("NB_USER")] and \
        [a for a in of(runtime, "ARG") if a.rest.startswith("NB_UID")], \
        "the page says Binder's repo2docker finds NB_USER and NB_UID arguments; the Dockerfile has none"


def check_notebook_options(args, where):
    """Every --Class.trait=value of args names a configurable trait of
    Debian's classic NotebookApp (what jupyterhub-singleuser runs) and
    parses as its type."""
    from notebook.notebookapp import NotebookApp
    classes = {c.__name__: c for c in NotebookApp().classes}
    for a in args:
        m = re.match(r"--(\w+)\.(\w+)=(.*)$", a)
        assert m, "%s: %r is not --Class.trait=value" % (where, a)
        cls = classes.get(m.group(1))
        assert cls, "%s: %r: the Notebook server has no configurable class %s" % (where, a, m.group(1))
        trait = cls.class_traits(config=True).get(m.group(2))
        assert trait is not None, "%s: %r: %s has no option %s" % (where, a, m.group(1), m.group(2))
        trait.validate(None, trait.from_string(m.group(3)))


def test_singleuser_command_runs_in_the_image(hub_doc, z2jh, runtime):
    """The documented single-user command is Debian's jupyterhub-singleuser,
    which the image's `deps.sh` installs (package jupyterhub), running the
    application the page names, with options that exist."""
    one = doc_config(hub_doc, "tests/test_hub.py runs this block")
    su = z2jh["singleuser"]
    assert one.Spawner.cmd == ["jupyterhub-singleuser"], one.Spawner.cmd
    assert su["cmd"][0] == "jupyterhub-singleuser", su["cmd"]
    exe = "/usr/bin/jupyterhub-singleuser"
    if not os.path.exists(exe):
        pytest.fail("%s is missing: run tools/deps.sh (package jupyterhub)" % exe)
    p = subprocess.run(["dpkg", "-S", exe], capture_output=True, text=True)
    pkg = p.stdout.split(":")[0].strip()
    with open(os.path.join(REPO, "tools", "deps.sh"), encoding="utf-8") as f:
        deps = f.read()
    assert pkg and re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(pkg), deps), \
        "%s comes from package %r, which tools/deps.sh (the image's install step) does not install" % (exe, pkg)
    app = one.Spawner.environment["JUPYTERHUB_SINGLEUSER_APP"]
    assert su["extraEnv"]["JUPYTERHUB_SINGLEUSER_APP"] == app, "the two documented configurations name different apps"
    q = subprocess.run(["/usr/bin/python3", "-c", "from traitlets import import_item; import_item(%r)" % app],
                       capture_output=True, text=True, timeout=60)
    assert q.returncode == 0, "JUPYTERHUB_SINGLEUSER_APP=%s does not import with Debian's python3:\n%s" % (
        app, q.stderr[-1000:])
    check_notebook_options(list(one.Spawner.args), "one-machine Spawner.args")
    check_notebook_options(su["cmd"][1:], "config.yaml singleuser.cmd")
    assert sorted(one.Spawner.args) == sorted(su["cmd"][1:]), \
        "the one-machine and Kubernetes configurations cull kernels differently: %s vs %s" % (
            list(one.Spawner.args), su["cmd"][1:])
    assert any("cull_idle_timeout" in a for a in su["cmd"]), "config.yaml does not cull idle kernels"


def test_k8s_and_docker_settings_match_the_image(hub_doc, z2jh, runtime):
    f = image_facts(runtime)
    su = z2jh["singleuser"]
    assert str(su["uid"]) == f["uid"], "config.yaml runs uid %s, the image's user has uid %s" % (su["uid"], f["uid"])
    url = su["defaultUrl"]
    assert url.startswith("/tree/") and os.path.join(f["home"], url[len("/tree/"):]) in f["copied"], \
        "defaultUrl %s opens no directory the image copies into %s (%s)" % (url, f["home"], f["copied"])
    m = su["storage"]["homeMountPath"].rstrip("/")
    docker = doc_config(hub_doc, "c.JupyterHub.spawner_class")
    mounts = [m] + list(docker.DockerSpawner.volumes.values())
    for mount in mounts:
        assert mount.startswith(f["home"] + "/"), "the students' volume %s is not below the image's home %s" % (
            mount, f["home"])
        hidden = [d for d in f["copied"] if d == mount or d.startswith(mount + "/")]
        assert not hidden, "mounting the students' volume at %s hides what the image copies there: %s" % (
            mount, hidden)
    assert docker.DockerSpawner.notebook_dir == f["home"], docker.DockerSpawner.notebook_dir
    assert "urlpath=tree/notebooks" in hub_doc and os.path.join(f["home"], "notebooks") in f["copied"], \
        "the Binder link opens tree/notebooks, which the image does not copy"


# --- memory: the figures of the sizing table, and the configurations -----------------

def k8s_bytes(q):
    """A Kubernetes memory quantity ("256M", "1.5Gi", 1e9) in bytes."""
    m = re.match(r"^([0-9.]+)\s*(Ki|Mi|Gi|K|M|G)?$", str(q))
    assert m, "%r is not a memory quantity" % q
    mult = {None: 1, "K": 1e3, "M": 1e6, "G": 1e9, "Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30}[m.group(2)]
    return float(m.group(1)) * mult


def sizing_section(text, where):
    m = re.search(r"<!-- sizing:begin[^>]*-->\n(.*?)<!-- sizing:end -->", text, re.S)
    assert m, "%s has no <!-- sizing:begin --> ... <!-- sizing:end --> section" % where
    return m.group(1)


def per_student(section):
    """The "per student" table's figures: {row label: "N MiB" or a quantity}."""
    rows = {}
    for line in section.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("**"):
            rows[cells[0].strip("*")] = cells[1].strip("`")
    return rows


def test_readme_and_doc_give_the_same_sizing(hub_doc):
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert sizing_section(readme, "README.md") == sizing_section(hub_doc, "docs/jupyterhub.md"), \
        "README.md's and docs/jupyterhub.md's sizing sections differ: copy the one run into both"


def test_memory_settings_cover_the_measured_figures(hub_doc, z2jh):
    rows = per_student(sizing_section(hub_doc, "docs/jupyterhub.md"))
    need = ("server", "kernel", "peak", "guarantee", "limit")
    assert all(k in rows for k in need), "the per-student table wants rows %s, has %s" % (need, sorted(rows))
    mb = {}
    for k in ("server", "kernel", "peak"):
        m = re.match(r"([0-9.]+) MiB$", rows[k])
        assert m, "sizing table row %s: %r is not a figure in MiB" % (k, rows[k])
        mb[k] = float(m.group(1))
    guarantee, limit = k8s_bytes(rows["guarantee"]) / 2 ** 20, k8s_bytes(rows["limit"]) / 2 ** 20
    assert guarantee >= mb["server"] + mb["kernel"], \
        "guarantee %s is less than an idle server and one idle kernel (%.0f MiB)" % (rows["guarantee"],
                                                                                    mb["server"] + mb["kernel"])
    assert limit >= mb["server"] + mb["peak"] + mb["kernel"], \
        "limit %s is less than the server, the heaviest walkthrough's peak and a second kernel (%.0f MiB)" % (
            rows["limit"], mb["server"] + mb["peak"] + mb["kernel"])
    mem = z2jh["singleuser"]["memory"]
    assert (str(mem["guarantee"]), str(mem["limit"])) == (rows["guarantee"], rows["limit"]), \
        "config.yaml's memory %s differs from the sizing table's guarantee %s and limit %s" % (
            mem, rows["guarantee"], rows["limit"])
    docker = doc_config(hub_doc, "c.JupyterHub.spawner_class")
    assert docker.DockerSpawner.mem_limit == rows["limit"], \
        "DockerSpawner.mem_limit %s differs from the sizing table's limit %s" % (docker.DockerSpawner.mem_limit,
                                                                               rows["limit"])
