"""Helpers for the JupyterHub test (tests/test_hub.py): the processes a test
run started, their listening sockets, and a Jupyter client that runs a
notebook through a Jupyter server's REST API and a kernel's websocket
channels (tornado's websocket client, which Debian's jupyterhub depends on).

Every process the hub test starts carries GOLDP_HUB_TEST=<run id> in its
environment (the hub and its proxy inherit it, the spawner sets it for the
single-user servers, which pass it on to their kernels and the kernels to
their workers), so the test finds everything it started, and only that,
whatever process became its parent.
"""

import asyncio
import datetime
import json
import os
import socket
import struct
import time
import urllib.error
import urllib.request
import uuid

import nbformat
from nbformat.v4 import output_from_msg

MARK = "GOLDP_HUB_TEST"
MARK_USER = "GOLDP_HUB_TEST_USER"


# --- processes --------------------------------------------------------------------

class Proc:
    """A process: pid, parent pid, argv, environment and its role in a hub
    (hub, proxy, singleuser, goldp-kernel, goldp-worker, or other)."""

    def __init__(self, pid, ppid, argv, env):
        self.pid, self.ppid, self.argv, self.env = pid, ppid, argv, env
        self.user = env.get(MARK_USER, "")
        self.role = role_of(argv)

    def __repr__(self):
        return "%s pid %d (ppid %d, user %r): %s" % (self.role, self.pid, self.ppid, self.user,
                                                    " ".join(self.argv)[:160])


def role_of(argv):
    words = [os.path.basename(a) for a in argv[:3]]
    joined = " ".join(argv[:3])
    if "configurable-http-proxy" in joined:
        return "proxy"
    if "jupyterhub-singleuser" in joined:
        return "singleuser"
    if "jupyterhub" in joined:
        return "hub"
    if words and words[0] == "goldp" and len(argv) > 1:
        if argv[1] == "kernel":
            return "goldp-kernel"
        if argv[1] == "worker":
            return "goldp-worker"
    return "other"


def _read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


def processes(run_id, user=None):
    """The live (non-zombie) processes whose environment carries
    GOLDP_HUB_TEST=run_id (and GOLDP_HUB_TEST_USER=user when user is given)."""
    want = ("%s=%s" % (MARK, run_id)).encode()
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            raw = _read("/proc/%s/environ" % d)
            if want not in raw.split(b"\0"):
                continue
            stat = _read("/proc/%s/stat" % d).decode(errors="replace")
            argv = [a.decode(errors="replace") for a in _read("/proc/%s/cmdline" % d).split(b"\0") if a]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] == "Z":
            continue
        env = dict(kv.decode(errors="replace").partition("=")[::2] for kv in raw.split(b"\0") if b"=" in kv)
        p = Proc(int(d), int(fields[1]), argv, env)
        if user is None or p.user == user:
            found.append(p)
    return sorted(found, key=lambda p: p.pid)


def wait_gone(run_id, user=None, roles=None, timeout=20.0):
    """Polls until no process of run_id (user, roles) is left; returns what
    is left after timeout (empty when all went)."""
    deadline = time.monotonic() + timeout
    while True:
        left = [p for p in processes(run_id, user) if roles is None or p.role in roles]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def alive(pid):
    try:
        stat = _read("/proc/%d/stat" % pid).decode(errors="replace")
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def listening(pid):
    """The listening sockets of process pid: (sorted list of (ipv4 address,
    port) for TCP, sorted list of unix socket paths)."""
    inodes = set()
    fd_dir = "/proc/%d/fd" % pid
    for fd in os.listdir(fd_dir):
        try:
            link = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[len("socket:["):-1])
    tcp = []
    for name in ("tcp", "tcp6"):
        lines = _read("/proc/%d/net/%s" % (pid, name), "r").split("\n")[1:]
        for line in lines:
            f = line.split()
            if len(f) < 10 or f[3] != "0A" or f[9] not in inodes:  # 0A: LISTEN
                continue
            addr, port = f[1].split(":")
            if len(addr) == 8:
                ip = socket.inet_ntoa(struct.pack("<I", int(addr, 16)))
            else:
                ip = "ipv6:" + addr
            tcp.append((ip, int(port, 16)))
    unix = []
    for line in _read("/proc/%d/net/unix" % pid, "r").split("\n")[1:]:
        f = line.split()
        # Num RefCount Protocol Flags Type St Inode Path; flag 0x10000: listening
        if len(f) >= 8 and f[6] in inodes and int(f[3], 16) & 0x10000:
            unix.append(f[7])
    return sorted(tcp), sorted(unix)


# --- HTTP -------------------------------------------------------------------------

class HTTPFailure(Exception):
    """An HTTP request answered with an unexpected status."""


def http(method, url, token=None, body=None, timeout=30):
    """Sends a JSON request; returns (status, decoded JSON body or None)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "token " + token
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            return r.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as e:
        raise HTTPFailure("%s %s answered %d: %s" % (method, url, e.code, e.read()[:500].decode(errors="replace")))


# --- a Jupyter server client --------------------------------------------------------

class ServerClient:
    """A client of one Jupyter server (here a user's server behind the hub's
    proxy, base = http://hub/user/<name>): contents, sessions and kernels
    through the REST API, cells through the kernel's websocket channels."""

    def __init__(self, base, token, username):
        self.base, self.token, self.username = base.rstrip("/"), token, username

    def api(self, method, path, body=None, timeout=30):
        return http(method, self.base + "/api" + path, self.token, body, timeout)

    def read_notebook(self, path):
        _, model = self.api("GET", "/contents/" + path + "?content=1")
        return nbformat.from_dict(model["content"])

    def write_notebook(self, path, nb):
        self.api("PUT", "/contents/" + path, {"type": "notebook", "format": "json", "content": nb})

    def start_session(self, path, kernel="goldp"):
        """POST /api/sessions: returns (session id, kernel id)."""
        status, s = self.api("POST", "/sessions", {"path": path, "name": os.path.basename(path),
                                                   "type": "notebook", "kernel": {"name": kernel}})
        if status != 201 or s["kernel"]["name"] != kernel:
            raise HTTPFailure("POST /api/sessions answered %d: %s" % (status, s))
        return s["id"], s["kernel"]["id"]

    def ws_url(self, kernel_id, session_id):
        return "ws" + self.base[len("http"):] + "/api/kernels/%s/channels?session_id=%s" % (kernel_id, session_id)

    def channels(self, kernel_id, session_id):
        """A Channels connection to the kernel (use with `async with`)."""
        return Channels(self.ws_url(kernel_id, session_id), self.token, self.username, session_id)

    def run_notebook(self, path, cell_timeout=90, connected=None):
        """Reads notebook path through the contents API, opens a session,
        runs every code cell through the websocket channels, calls
        connected(kernel id) if given while the websocket is still open,
        writes the executed notebook back and returns (notebook read back,
        session id, kernel id, seconds). The session is left open."""
        nb = self.read_notebook(path)
        sid, kid = self.start_session(path)
        t0 = time.monotonic()

        async def run():
            async with self.channels(kid, sid) as ch:
                await ch.wait_ready()
                for cell in nb.cells:
                    if cell.cell_type != "code":
                        continue
                    reply, outputs = await ch.execute(cell.source, timeout=cell_timeout)
                    cell.outputs = outputs
                    cell.execution_count = reply.get("execution_count")
                if connected:
                    connected(kid)
        asyncio.run(run())
        secs = time.monotonic() - t0
        self.write_notebook(path, nb)
        return self.read_notebook(path), sid, kid, secs


class Channels:
    """The kernel's websocket channels (Jupyter messaging over one websocket,
    JSON text frames with a "channel" field)."""

    def __init__(self, url, token, username, session_id):
        self.url, self.token, self.username, self.session = url, token, username, session_id
        self.conn = None

    async def __aenter__(self):
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect
        req = HTTPRequest(self.url, headers={"Authorization": "token " + self.token}, request_timeout=30,
                          connect_timeout=30)
        self.conn = await websocket_connect(req, max_message_size=64 << 20)
        return self

    async def __aexit__(self, *exc):
        self.conn.close()
        await asyncio.sleep(0)

    def _message(self, channel, msg_type, content):
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": msg_type, "username": self.username, "session": self.session,
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "version": "5.3"}
        return msg_id, {"header": header, "msg_id": msg_id, "msg_type": msg_type, "parent_header": {},
                        "metadata": {}, "content": content, "channel": channel, "buffers": []}

    async def send(self, channel, msg_type, content):
        msg_id, msg = self._message(channel, msg_type, content)
        await self.conn.write_message(json.dumps(msg))
        return msg_id

    async def recv(self, timeout):
        raw = await asyncio.wait_for(self.conn.read_message(), timeout)
        if raw is None:
            raise ConnectionError("the kernel websocket %s closed (code %s, %s)" % (
                self.url.split("?")[0], self.conn.close_code, self.conn.close_reason))
        if isinstance(raw, bytes):
            # Binary frames carry messages with buffers: offsets, then JSON.
            n, = struct.unpack("!I", raw[:4])
            offsets = struct.unpack("!%dI" % n, raw[4:4 + 4 * n])
            raw = raw[offsets[0]:offsets[1] if n > 1 else None].decode()
        return json.loads(raw)

    async def wait_ready(self, timeout=60):
        """Sends kernel_info_request until a reply arrives (the server's
        kernel may still be starting)."""
        deadline = time.monotonic() + timeout
        msg_id = await self.send("shell", "kernel_info_request", {})
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no kernel_info_reply within %d s" % timeout)
            try:
                m = await self.recv(min(left, 2))
            except asyncio.TimeoutError:
                msg_id = await self.send("shell", "kernel_info_request", {})
                continue
            if m.get("channel") == "shell" and m["parent_header"].get("msg_id") == msg_id:
                return m["content"]

    async def execute(self, code, timeout=90, wait=True):
        """Executes code; returns (execute_reply content, nbformat outputs)
        once the reply and the idle status have arrived. With wait=False,
        returns the msg_id once the kernel reports busy."""
        msg_id = await self.send("shell", "execute_request", {
            "code": code, "silent": False, "store_history": True, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True})
        deadline = time.monotonic() + timeout
        outputs, reply, idle, displays = [], None, False, {}
        while reply is None or not idle:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("cell did not finish within %d s (reply %s, idle %s): %s" % (
                    timeout, reply is not None, idle, code[:200]))
            m = await self.recv(left)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            t, ch = m["msg_type"], m.get("channel")
            if ch == "shell" and t == "execute_reply":
                reply = m["content"]
            elif t == "status":
                state = m["content"]["execution_state"]
                if state == "busy" and not wait:
                    return msg_id
                idle = state == "idle"
            elif t == "clear_output":
                outputs.clear()
            elif t == "update_display_data":
                did = m["content"].get("transient", {}).get("display_id")
                if did in displays:
                    displays[did].data = output_from_msg(dict(m, msg_type="display_data")).data
            elif t in ("stream", "display_data", "execute_result", "error"):
                out = output_from_msg(m)
                did = m["content"].get("transient", {}).get("display_id")
                if did:
                    displays[did] = out
                if t == "stream" and outputs and outputs[-1].output_type == "stream" \
                        and outputs[-1].name == out.name:
                    outputs[-1].text += out.text
                else:
                    outputs.append(out)
        return reply, outputs
