"""Security tests of the goldp kernel's transport, with jupyter_client and
pyzmq (libzmq) against the installed "goldp" kernelspec: a replayed signed
request does not run again, a peer without the key that claims a connected
client's routing identity gets nothing while the client gets every reply,
and IOPub subscribers that never read cost the kernel neither its memory
nor the reading client's speed.

Run: /usr/bin/python3 -m pytest -q tests/test_kernel_security.py
"""

import time

import pytest
import zmq
from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session

TIMEOUT = 30


@pytest.fixture()
def kernel():
    km, kc = start_new_kernel(kernel_name="goldp", startup_timeout=TIMEOUT)
    yield km, kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def endpoint(km, channel):
    ci = km.get_connection_info()
    return "%s://%s:%d" % (ci["transport"], ci["ip"], ci[channel + "_port"])


def reply_to(kc, msg_id, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        m = kc.get_shell_msg(timeout=max(0.01, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def run(kc, code, timeout=TIMEOUT):
    """Executes code; returns the reply content and the stdout text. It
    reads IOPub as the output comes, as a front end does, and the reply
    once the kernel is idle."""
    msg_id = kc.execute(code, stop_on_error=False)
    out = []
    deadline = time.monotonic() + timeout
    while True:
        m = kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "stream":
            out.append(m["content"]["text"])
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    return reply_to(kc, msg_id, timeout)["content"], "".join(out)


def test_replayed_request_not_executed(kernel):
    km, kc = kernel
    assert run(kc, "replays := 0")[0]["status"] == "ok"
    # A peer with the key sends one signed request three times, frame for
    # frame (as someone who captured it on the wire would).
    session = Session(key=km.session.key, signature_scheme="hmac-sha256", username="eve")
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.linger = 0
    sock.connect(endpoint(km, "shell"))
    try:
        msg = session.msg("execute_request", content={
            "code": "replays++\nfmt.Println(replays)", "silent": False, "store_history": True,
            "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        frames = session.serialize(msg)
        for _ in range(3):
            sock.send_multipart(frames)
        replies = []
        while sock.poll(1500):
            replies.append(session.deserialize(session.feed_identities(sock.recv_multipart())[1]))
        assert [r["msg_type"] for r in replies] == ["execute_reply"], replies
    finally:
        sock.close()
    reply, out = run(kc, "fmt.Println(replays)")
    assert out == "1\n", "the replayed request ran %s times" % out.strip()


def test_identity_thief_gets_nothing(kernel):
    km, kc = kernel
    assert run(kc, "fmt.Println(41 + 1)")[1] == "42\n"
    # jupyter_client's shell, control and stdin sockets use the session id
    # as routing identity; it can be read off any IOPub parent_header.
    identity = kc.session.bsession
    ctx = zmq.Context.instance()
    thieves = []
    try:
        for channel in ("shell", "control", "stdin"):
            s = ctx.socket(zmq.DEALER)
            s.linger = 0
            s.identity = identity
            s.connect(endpoint(km, channel))
            thieves.append(s)
        unsigned = Session(key=b"", username="mallory")
        unsigned.send(thieves[0], unsigned.msg("kernel_info_request"))
        time.sleep(0.3)  # the thieves are connected (and refused) before the client goes on
        for i in range(10):
            reply, out = run(kc, "fmt.Println(%d)" % i)
            assert reply["status"] == "ok" and out == "%d\n" % i, (reply, out)
        msg = kc.session.msg("kernel_info_request")
        kc.control_channel.send(msg)
        rep = kc.get_control_msg(timeout=TIMEOUT)
        assert rep["parent_header"]["msg_id"] == msg["header"]["msg_id"]
        for s in thieves:
            assert s.poll(300) == 0, "a peer without the key got a message meant for the client"
    finally:
        for s in thieves:
            s.close()


def rss_peak_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM for pid %d" % pid)


PRINT_120MB = 'chunk := strings.Repeat("x", 1<<20 - 1) + "\\n"\nfor i := 0; i < 120; i++ {\n\tfmt.Print(chunk)\n}'


def timed_output(kc):
    t0 = time.monotonic()
    reply, out = run(kc, PRINT_120MB, timeout=120)
    assert reply["status"] == "ok", reply
    return time.monotonic() - t0, len(out)


def test_stalled_iopub_subscribers(kernel):
    km, kc = kernel
    run(kc, "1")
    alone, n = timed_output(kc)
    assert n == 120 << 20
    # 32 subscribers that never read, holding as little as libzmq lets
    # them (one message, a small socket buffer), so that what piles up is
    # the kernel's.
    ctx = zmq.Context.instance()
    stalled = []
    try:
        for _ in range(32):
            s = ctx.socket(zmq.SUB)
            s.linger = 0
            s.rcvhwm = 1
            s.rcvbuf = 64 << 10
            s.setsockopt(zmq.SUBSCRIBE, b"")
            s.connect(endpoint(km, "iopub"))
            stalled.append(s)
        time.sleep(0.5)
        crowded, n = timed_output(kc)
        assert n == 120 << 20, "the reading client lost output: %d bytes" % n
        rss = rss_peak_mb(km.provisioner.pid)
        print("120 MB read in %.2f s alone, %.2f s beside 32 stalled subscribers; kernel peak RSS %.0f MB"
              % (alone, crowded, rss))
        assert rss < 300, "the kernel reached %.0f MB" % rss
        # Not a speed measurement: the reader must not be held back by the
        # stalled subscribers (before, 25 MB took 62 s).
        assert crowded < 4 * alone + 5, (alone, crowded)
        assert run(kc, "fmt.Println(1 + 1)")[1] == "2\n"
    finally:
        for s in stalled:
            s.close()
