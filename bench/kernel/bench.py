#!/usr/bin/python3
"""Side-by-side kernel benchmark: goldp against Debian's ipykernel.

Measures, for each kernel, in one run:
  cold start       process start to kernel_info_reply (median of 5)
  first result     process start to the reply of the first trivial cell
  heartbeat rtt    REQ ping -> echo on the heartbeat socket, median of 200
  kernel_info rtt  kernel_info_request -> reply, median of 200: the floor set
                   by the transport and this Python client (no interpreter)
  trivial cell     execute_request -> execute_reply, median and p95 of 200
  10k lines        a cell printing 10,000 lines: request -> idle, and the
                   number of stream messages
  interrupt        interrupt of a busy loop -> execute_reply (median of 5)
  complete/inspect request -> reply (median of 50)
  RSS growth       resident memory of the process running cells (goldp: the
                   worker) before and after 5,000 trivial cells

Clients are raw pyzmq sockets that sign and verify with hmac and json
directly, so the figures are not inflated by jupyter_client's channel
threads or its Session's per-message work; "trivial, Session" repeats the
trivial cell with jupyter_client's Session for comparison, and "heartbeat
rtt" is the floor of the ZeroMQ transport and pyzmq.

After the table, goldp is measured again from a Go client
(go run ./bench/kernel/goclient: ZMTP through jupyter.ClientConn,
requests written and replies read on one goroutine), which separates the
kernel's own latency from this Python client's.

Usage: /usr/bin/python3 bench/kernel/bench.py [--kernels goldp,python3]
       [--cells 5000] [--json out.json] [--no-goclient]
A kernelspec whose name starts with "goldp" (e.g. "goldpraw", a second
build installed under that name) runs goldp's cells, so two builds can be
compared with ipykernel in one run: --kernels goldp,goldpraw,python3.
Requires the goldp kernelspec (tools/setup.sh) and python3-ipykernel.
"""

import argparse
import datetime
import gc
import hashlib
import hmac
import json
import os
import statistics
import sys
import time

import subprocess
import tempfile
import uuid

import zmq
from jupyter_client.connect import write_connection_file
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from jupyter_client.session import Session

CODE = {
    "goldp": {
        "trivial": "1+1",
        "lines": "for i := 0; i < 10000; i++ {\n\tfmt.Println(i)\n}",
        "loop": "for {\n}",
        "cell": "x := %d\nx",
        "complete": ("fmt.Print", 9),
        "inspect": ("strings.ToUpper", 10),
    },
    "python3": {
        "trivial": "1+1",
        "lines": "for i in range(10000):\n    print(i)",
        "loop": "while True:\n    pass",
        "cell": "x = %d\nx",
        "complete": ("pri", 3),
        "inspect": ("print", 3),
    },
}


def cells_of(name):
    """The benchmark's cells for kernelspec name."""
    return CODE["goldp" if name.startswith("goldp") else name]


class Client:
    """A minimal Jupyter client on raw pyzmq sockets.

    With lean=True (the default) it signs and verifies messages with hmac
    and json directly. jupyter_client's Session does the same job with
    more work per message (a uuid and a datetime per header, JSON cleaning,
    date parsing on receipt), which costs about 160 us per round trip on
    this kind of machine; lean=False uses Session, for comparison."""

    def __init__(self, km, lean=True):
        ci = km.get_connection_info()
        key = ci["key"].encode() if isinstance(ci["key"], str) else ci["key"]
        self.lean = lean
        self.key = key
        self.sid = uuid.uuid4().hex
        self.session = Session(key=key, signature_scheme=ci["signature_scheme"])
        self.ctx = zmq.Context.instance()
        url = "%s://%s:" % (ci["transport"], ci["ip"])

        def sock(kind, port):
            s = self.ctx.socket(kind)
            s.linger = 0
            s.setsockopt(zmq.RECONNECT_IVL, 1)
            s.connect(url + str(port))
            return s

        self.shell = sock(zmq.DEALER, ci["shell_port"])
        self.control = sock(zmq.DEALER, ci["control_port"])
        self.iopub = sock(zmq.SUB, ci["iopub_port"])
        self.iopub.setsockopt(zmq.SUBSCRIBE, b"")
        self.hb = sock(zmq.REQ, ci["hb_port"])

    def close(self):
        for s in (self.shell, self.control, self.iopub, self.hb):
            s.close()

    def send(self, sock, msg_type, content=None):
        if not self.lean:
            msg = self.session.msg(msg_type, content=content or {})
            self.session.send(sock, msg)
            return msg["header"]["msg_id"]
        mid = uuid.uuid4().hex
        header = {"msg_id": mid, "session": self.sid, "username": "bench",
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                  "msg_type": msg_type, "version": "5.3"}
        parts = [json.dumps(header).encode(), b"{}", b"{}", json.dumps(content or {}).encode()]
        h = hmac.new(self.key, digestmod=hashlib.sha256)
        for p in parts:
            h.update(p)
        sock.send_multipart([b"<IDS|MSG>", h.hexdigest().encode()] + parts)
        return mid

    def recv(self, sock, timeout=30.0):
        if not sock.poll(int(timeout * 1000)):
            raise TimeoutError("no message within %.0fs" % timeout)
        parts = sock.recv_multipart(copy=True)
        if not self.lean:
            _, parts = self.session.feed_identities(parts)
            return self.session.deserialize(parts)
        i = parts.index(b"<IDS|MSG>")
        sig, parts = parts[i + 1], parts[i + 2:i + 6]
        h = hmac.new(self.key, digestmod=hashlib.sha256)
        for p in parts:
            h.update(p)
        if not hmac.compare_digest(sig, h.hexdigest().encode()):
            raise ValueError("bad signature")
        header = json.loads(parts[0])
        return {"header": header, "msg_type": header["msg_type"], "parent_header": json.loads(parts[1]),
                "metadata": json.loads(parts[2]), "content": json.loads(parts[3])}

    def reply(self, sock, msg_id, timeout=30.0):
        deadline = time.perf_counter() + timeout
        while True:
            m = self.recv(sock, max(0.001, deadline - time.perf_counter()))
            if m["parent_header"].get("msg_id") == msg_id:
                return m

    def execute(self, code):
        return self.send(self.shell, "execute_request", {
            "code": code, "silent": False, "store_history": True,
            "user_expressions": {}, "allow_stdin": False, "stop_on_error": False})

    def iopub_until_idle(self, msg_id, timeout=30.0):
        msgs = []
        deadline = time.perf_counter() + timeout
        while True:
            m = self.recv(self.iopub, max(0.001, deadline - time.perf_counter()))
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                return msgs
            msgs.append(m)

    def drain_iopub(self):
        while self.iopub.poll(0):
            self.iopub.recv_multipart()


def rss_of(pid):
    with open("/proc/%d/statm" % pid) as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def cell_pid(km, name):
    """The process that runs cells: goldp's worker, or the kernel itself."""
    pid = km.provisioner.process.pid
    if not name.startswith("goldp"):
        return pid
    deadline = time.time() + 10
    while time.time() < deadline:
        for task in os.listdir("/proc/%d/task" % pid):
            try:
                with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                    kids = f.read().split()
            except OSError:
                continue
            if kids:
                return int(kids[0])
        time.sleep(0.01)
    raise RuntimeError("no goldp worker process found")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def cold_start(name, runs=5):
    """Median times from spawning the kernel's argv (as Jupyter does) to
    kernel_info_reply and to the reply of a first trivial cell. The client
    sockets connect before the kernel binds, with a 1 ms reconnect interval."""
    spec = KernelSpecManager().get_kernel_spec(name)
    info, first = [], []
    for _ in range(runs):
        fn = tempfile.mktemp(prefix="goldp-bench-", suffix=".json")
        fn, ci = write_connection_file(fname=fn, key=b"bench-key")
        argv = [a.replace("{connection_file}", fn) for a in spec.argv]
        sess = Session(key=b"bench-key")
        sock = zmq.Context.instance().socket(zmq.DEALER)
        sock.linger = 0
        sock.setsockopt(zmq.RECONNECT_IVL, 1)
        sock.connect("tcp://%s:%d" % (ci["ip"], ci["shell_port"]))
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=dict(os.environ, **spec.env))
        try:
            for msg_type, content, out in (
                    ("kernel_info_request", {}, info),
                    ("execute_request", {"code": cells_of(name)["trivial"], "silent": False,
                                         "store_history": True, "user_expressions": {},
                                         "allow_stdin": False, "stop_on_error": False}, first)):
                sess.send(sock, sess.msg(msg_type, content=content))
                if not sock.poll(60000):
                    raise TimeoutError("%s: no %s reply" % (name, msg_type))
                sock.recv_multipart()
                out.append(time.perf_counter() - t0)
        finally:
            p.kill()
            p.wait()
            sock.close()
            os.unlink(fn)
    return statistics.median(info), statistics.median(first)


def trivial_cells(c, code, n=200):
    """Round trips (execute_request -> execute_reply) of n trivial cells
    after 20 to warm up; each cell's IOPub messages are read up to idle
    outside the timed part. Python's garbage collector is off meanwhile,
    as timeit does, so its pauses are not counted as the kernel's."""
    rt = []
    gc.disable()
    try:
        for i in range(20 + n):
            t = time.perf_counter()
            mid = c.execute(code)
            c.reply(c.shell, mid)
            if i >= 20:
                rt.append(time.perf_counter() - t)
            c.iopub_until_idle(mid)
    finally:
        gc.enable()
    return rt


def bench(name, cells):
    code = cells_of(name)
    r = {}
    r["cold start"], r["first result"] = cold_start(name)
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    c = Client(km)
    try:
        mid = c.send(c.shell, "kernel_info_request")
        c.reply(c.shell, mid)

        # The floors: heartbeat pings (ZeroMQ transport and pyzmq only: the
        # kernel echoes the frames) and kernel_info round trips (this
        # client's encoding, the kernel's decoding and three messages).
        lat = []
        for _ in range(200):
            t = time.perf_counter()
            c.hb.send(b"ping")
            if not c.hb.poll(10000):
                raise TimeoutError("no heartbeat")
            c.hb.recv()
            lat.append(time.perf_counter() - t)
        r["heartbeat rtt"] = statistics.median(lat)
        lat = []
        for _ in range(200):
            t = time.perf_counter()
            mid = c.send(c.shell, "kernel_info_request")
            c.reply(c.shell, mid)
            lat.append(time.perf_counter() - t)
        r["kernel_info rtt"] = statistics.median(lat)
        c.drain_iopub()

        rt = trivial_cells(c, code["trivial"])
        r["trivial median"] = statistics.median(rt)
        r["trivial p95"] = pct(rt, 95)

        # The same through jupyter_client's Session, for comparison.
        sc = Client(km, lean=False)
        try:
            time.sleep(0.2)  # let its IOPub subscription arrive
            r["trivial, Session"] = statistics.median(trivial_cells(sc, code["trivial"]))
        finally:
            sc.close()
        c.drain_iopub()

        # 10,000 lines.
        times, counts = [], []
        for _ in range(3):
            t = time.perf_counter()
            mid = c.execute(code["lines"])
            msgs = c.iopub_until_idle(mid)
            times.append(time.perf_counter() - t)
            c.reply(c.shell, mid)
            streams = [m for m in msgs if m["msg_type"] == "stream"]
            text = "".join(m["content"]["text"] for m in streams)
            assert text.splitlines() == [str(i) for i in range(10000)], "10k lines: output differs"
            counts.append(len(streams))
        r["10k lines"] = statistics.median(times)
        r["10k messages"] = max(counts)

        # Interrupt a busy loop.
        lat = []
        for _ in range(5):
            mid = c.execute(code["loop"])
            time.sleep(0.2)
            t = time.perf_counter()
            km.interrupt_kernel()
            c.reply(c.shell, mid, timeout=10)
            lat.append(time.perf_counter() - t)
            c.iopub_until_idle(mid)
        r["interrupt"] = statistics.median(lat)

        for kind in ("complete", "inspect"):
            text, pos = code[kind]
            lat = []
            for _ in range(50):
                t = time.perf_counter()
                content = {"code": text, "cursor_pos": pos}
                if kind == "inspect":
                    content["detail_level"] = 0
                mid = c.send(c.shell, kind + "_request", content)
                rep = c.reply(c.shell, mid)
                lat.append(time.perf_counter() - t)
            assert rep["content"]["status"] == "ok", rep["content"]
            r[kind] = statistics.median(lat)
        c.drain_iopub()

        pid = cell_pid(km, name)
        before = rss_of(pid)
        t = time.perf_counter()
        for i in range(cells):
            mid = c.execute(code["cell"] % i)
            c.reply(c.shell, mid)
            if i % 100 == 0:
                c.drain_iopub()
        r["cells time"] = time.perf_counter() - t
        c.drain_iopub()
        r["RSS before"] = before
        r["RSS after"] = rss_of(pid)
        r["RSS growth"] = r["RSS after"] - before
    finally:
        c.close()
        km.shutdown_kernel(now=False)
    return r


TARGETS = {
    "cold start": ("<= 30 ms", lambda v: v <= 0.030),
    "trivial median": ("<= 0.4 ms", lambda v: v <= 0.0004),
    "trivial p95": ("<= 1 ms", lambda v: v <= 0.001),
    "10k lines": ("<= 20 ms", lambda v: v <= 0.020),
    "10k messages": ("<= 20", lambda v: v <= 20),
    "interrupt": ("<= 20 ms", lambda v: v <= 0.020),
    "complete": ("<= 5 ms", lambda v: v <= 0.005),
    "inspect": ("<= 5 ms", lambda v: v <= 0.005),
    "RSS growth": ("< 100 MB", lambda v: v < 100e6),
}


def fmt(key, v):
    if v is None:
        return "-"
    if key == "10k messages":
        return "%d" % v
    if key.startswith("RSS"):
        return "%.1f MB" % (v / 1e6)
    if key == "cells time":
        return "%.2f s" % v
    if v < 0.001:
        return "%.0f us" % (v * 1e6)
    if v < 1:
        return "%.2f ms" % (v * 1e3)
    return "%.2f s" % v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", default="goldp,python3")
    ap.add_argument("--cells", type=int, default=5000)
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--no-goclient", action="store_true",
                    help="do not also measure goldp from the Go client (bench/kernel/goclient)")
    args = ap.parse_args()
    names = args.kernels.split(",")
    results = {}
    for n in names:
        print("benchmarking %s ..." % n, file=sys.stderr, flush=True)
        results[n] = bench(n, args.cells)
    keys = ["cold start", "first result", "heartbeat rtt", "kernel_info rtt", "trivial median", "trivial p95",
            "trivial, Session", "10k lines",
            "10k messages", "interrupt", "complete", "inspect", "cells time",
            "RSS before", "RSS after", "RSS growth"]
    width = [18] + [14] * len(names) + [12]
    head = ["measure"] + names + ["goldp target"]
    print("".join(h.ljust(w) for h, w in zip(head, width)))
    for k in keys:
        row = [k if k != "cells time" else "%d cells" % args.cells]
        for n in names:
            row.append(fmt(k, results[n].get(k)))
        target = ""
        if k in TARGETS and "goldp" in results:
            t, ok = TARGETS[k]
            target = t + (" ok" if ok(results["goldp"][k]) else " MISSED")
        row.append(target)
        print("".join(str(x).ljust(w) for x, w in zip(row, width)))
    print("(machine: %d CPUs, load average %.2f)" % (os.cpu_count(), os.getloadavg()[0]))
    if "goldp" in names and not args.no_goclient:
        # The same kernel measured from a Go client (bench/kernel/goclient):
        # the difference from the table above is this Python client's share.
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        goldp = KernelSpecManager().get_kernel_spec("goldp").argv[0]
        try:
            subprocess.run(["go", "run", "./bench/kernel/goclient", "-goldp", goldp], cwd=root, check=True)
        except (OSError, subprocess.CalledProcessError) as e:
            print("(Go client not run: %s)" % e)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
