"""Protocol and robustness tests of the goldp kernel with jupyter_client,
against the installed "goldp" kernelspec (tools/setup.sh installs it):
signatures, the control channel, interrupts, goroutine panics, output
batching, stdin, restarts and the worker's kill-and-restart fallback.

Run: /usr/bin/python3 -m pytest -q tests/test_kernel_protocol.py
"""

import os
import queue
import signal
import tempfile
import time

import pytest
import zmq
from jupyter_client.manager import KernelManager, start_new_kernel
from jupyter_client.session import Session

TIMEOUT = 30


def start():
    return start_new_kernel(kernel_name="goldp", startup_timeout=TIMEOUT)


@pytest.fixture(scope="module")
def kernel():
    km, kc = start()
    yield km, kc
    kc.stop_channels()
    km.shutdown_kernel(now=False)


def collect(kc, msg_id, timeout=TIMEOUT):
    """Returns the iopub messages of request msg_id up to its idle status."""
    msgs = []
    deadline = time.monotonic() + timeout
    while True:
        m = kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            return msgs
        if m["msg_type"] != "status":
            msgs.append(m)


def shell_reply(kc, msg_id, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        m = kc.get_shell_msg(timeout=max(0.01, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def run(kc, code, timeout=TIMEOUT, **kw):
    """Executes code; returns (reply content, iopub messages)."""
    kw.setdefault("stop_on_error", False)
    msg_id = kc.execute(code, **kw)
    reply = shell_reply(kc, msg_id, timeout)
    return reply["content"], collect(kc, msg_id, timeout)


def stdout_of(msgs):
    return "".join(m["content"]["text"] for m in msgs
                   if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")


def stderr_of(msgs):
    return "".join(m["content"]["text"] for m in msgs
                   if m["msg_type"] == "stream" and m["content"]["name"] == "stderr")


def value_of(reply_and_msgs):
    reply, msgs = reply_and_msgs
    assert reply["status"] == "ok", reply
    res = [m for m in msgs if m["msg_type"] == "execute_result"]
    assert len(res) == 1, msgs
    return res[0]["content"]["data"]["text/plain"]


def test_forged_signature_ignored(kernel):
    km, kc = kernel
    ci = km.get_connection_info()
    forger = Session(key=b"not-the-key", signature_scheme="hmac-sha256", username="mallory")
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.linger = 0
    sock.connect("%s://%s:%d" % (ci["transport"], ci["ip"], ci["shell_port"]))
    try:
        msg = forger.msg("execute_request", content={
            "code": "forged := 1", "silent": False, "store_history": True,
            "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        forger.send(sock, msg)
        # An unsigned message is dropped too.
        unsigned = Session(key=b"", username="mallory")
        unsigned.send(sock, unsigned.msg("kernel_info_request"))
        assert sock.poll(1000) == 0, "the kernel answered a forged message"
    finally:
        sock.close()
    reply, msgs = run(kc, "forged")
    assert reply["status"] == "error", "the forged cell was executed"
    assert value_of(run(kc, "1 + 1")) == "2"


def test_control_replies_on_control(kernel):
    km, kc = kernel
    msg_id = kc.execute("time.Sleep(3 * time.Second)", stop_on_error=False)
    time.sleep(0.1)
    msg = kc.session.msg("kernel_info_request")
    t0 = time.monotonic()
    kc.control_channel.send(msg)
    rep = kc.get_control_msg(timeout=TIMEOUT)
    took = time.monotonic() - t0
    assert rep["parent_header"]["msg_id"] == msg["header"]["msg_id"]
    assert rep["msg_type"] == "kernel_info_reply"
    assert rep["content"]["status"] == "ok"
    assert took < 2, "control request waited for the running cell (%.3fs)" % took
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
    collect(kc, msg_id)
    with pytest.raises(queue.Empty):
        kc.get_shell_msg(timeout=0.2)  # nothing was answered on shell


@pytest.mark.parametrize("code", ["for {\n}", "time.Sleep(time.Hour)"])
def test_interrupt_keeps_state(kernel, code):
    km, kc = kernel
    run(kc, "kept := 7")
    msg_id = kc.execute(code, stop_on_error=False)
    time.sleep(0.3)
    t0 = time.monotonic()
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout=10)
    took = time.monotonic() - t0
    collect(kc, msg_id)
    assert reply["content"]["status"] == "error"
    assert "state was lost" not in reply["content"]["evalue"]
    assert took < 1.5, "interrupt took %.3fs" % took
    assert value_of(run(kc, "kept")) == "7"


def test_sigint_interrupts_and_kernel_survives(kernel):
    km, kc = kernel
    run(kc, "kept2 := 8")
    msg_id = kc.execute("for {\n}", stop_on_error=False)
    time.sleep(0.3)
    km.signal_kernel(signal.SIGINT)
    reply = shell_reply(kc, msg_id, timeout=10)
    collect(kc, msg_id)
    assert reply["content"]["status"] == "error"
    assert km.is_alive()
    assert value_of(run(kc, "kept2")) == "8"


def test_goroutine_panic_reported(kernel):
    km, kc = kernel
    run(kc, "before := 3")
    reply, msgs = run(kc, 'go func() { panic("boom in a goroutine") }()\ntime.Sleep(200 * time.Millisecond)')
    text = stderr_of(msgs) + " ".join(m["content"].get("evalue", "") for m in msgs if m["msg_type"] == "error")
    assert "boom in a goroutine" in text, msgs
    assert value_of(run(kc, "before")) == "3"


def test_ten_thousand_lines_in_order(kernel):
    km, kc = kernel
    reply, msgs = run(kc, "for i := 0; i < 10000; i++ {\n\tfmt.Println(i)\n}")
    assert reply["status"] == "ok", reply
    streams = [m for m in msgs if m["msg_type"] == "stream"]
    lines = stdout_of(msgs).splitlines()
    assert lines == [str(i) for i in range(10000)]
    assert len(streams) <= 20, "10,000 lines took %d stream messages" % len(streams)


def test_output_before_display_stays_before(kernel):
    km, kc = kernel
    reply, msgs = run(kc, 'fmt.Println("first")\ndisplay.Display(display.HTML("<i>second</i>"))\nfmt.Println("third")')
    assert reply["status"] == "ok", reply
    kinds = [(m["msg_type"], m["content"].get("text", "")) for m in msgs
             if m["msg_type"] in ("stream", "display_data")]
    assert kinds == [("stream", "first\n"), ("display_data", ""), ("stream", "third\n")], kinds


def test_stdout_and_stderr_in_write_order(kernel):
    # Each stream is batched, but text of the other one is sent first:
    # a client sees stdout and stderr in the order the cell wrote them
    # (expected order as printed by `go run` with 2>&1 on a terminal).
    km, kc = kernel
    code = ('import "log"\nlog.SetFlags(0)\nfmt.Println("a"); println("b"); fmt.Println("c"); '
            'log.Print("d"); fmt.Fprintln(os.Stderr, "e"); fmt.Println("f")')
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok", reply
    merged = []
    for m in msgs:
        if m["msg_type"] != "stream":
            continue
        name, text = m["content"]["name"], m["content"]["text"]
        if merged and merged[-1][0] == name:
            merged[-1] = (name, merged[-1][1] + text)
        else:
            merged.append((name, text))
    assert merged == [("stdout", "a\n"), ("stderr", "b\n"), ("stdout", "c\n"),
                      ("stderr", "d\ne\n"), ("stdout", "f\n")], merged


def test_stdin_round_trip(kernel):
    km, kc = kernel
    msg_id = kc.execute('name, err := display.Input("name? ")\nfmt.Println("hello", name, err)',
                        allow_stdin=True, stop_on_error=False)
    req = kc.get_stdin_msg(timeout=TIMEOUT)
    assert req["msg_type"] == "input_request"
    assert req["content"]["prompt"] == "name? "
    assert req["content"]["password"] is False
    kc.input("Ada")
    reply = shell_reply(kc, msg_id)
    msgs = collect(kc, msg_id)
    assert reply["content"]["status"] == "ok", reply["content"]
    assert stdout_of(msgs) == "hello Ada <nil>\n"


def test_compiled_call_ignoring_interrupt_restarts_worker(kernel):
    km, kc = kernel
    run(kc, "lost := 1")
    # A long compiled computation that never looks at the context: the
    # interpreter gives up on it, but it keeps the worker busy.
    msg_id = kc.execute('import "math/big"\nn := new(big.Int).MulRange(1, 50000000)\nn.BitLen()',
                        stop_on_error=False)
    time.sleep(0.3)
    t0 = time.monotonic()
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout=15)
    took = time.monotonic() - t0
    msgs = collect(kc, msg_id)
    content = reply["content"]
    assert content["status"] == "error"
    assert "state was lost" in content["evalue"], content
    assert took < 5, "the worker restart took %.1fs" % took
    reply, msgs = run(kc, "lost")
    assert reply["status"] == "error", "state survived a worker restart?"
    assert value_of(run(kc, "6 * 7")) == "42"


def test_worker_crash_reported_and_replaced(kernel):
    km, kc = kernel
    run(kc, "gone := 1")
    # A fatal runtime error no recover can catch kills the worker process.
    reply, msgs = run(kc, "m := map[int]int{}\nfor k := 0; k < 4; k++ {\n\tgo func() {\n"
                          "\t\tfor j := 0; ; j++ {\n\t\t\tm[j%100] = j\n\t\t}\n\t}()\n}\n"
                          "time.Sleep(5 * time.Second)")
    assert reply["status"] == "error" and reply["ename"] == "WorkerDied", reply
    assert "state was lost" in reply["evalue"]
    assert "concurrent map writes" in stderr_of(msgs)
    assert run(kc, "gone")[0]["status"] == "error"
    assert value_of(run(kc, "gone := 2\ngone")) == "2"


def test_rss_limit_restarts_between_cells():
    km = KernelManager(kernel_name="goldp")
    km.start_kernel(env=dict(os.environ, GOLDP_WORKER_MAX_RSS="300M"))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=TIMEOUT)
        assert value_of(run(kc, "small := 1\nsmall")) == "1"
        reply, msgs = run(kc, 'import "bytes"\nbig := bytes.Repeat([]byte{1}, 400<<20)\nlen(big)')
        assert reply["status"] == "ok", reply
        assert "GOLDP_WORKER_MAX_RSS" in stderr_of(msgs)
        assert run(kc, "small")[0]["status"] == "error", "state survived the restart"
        assert value_of(run(kc, "small := 2\nsmall")) == "2"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)


def test_shutdown_with_restart():
    km, kc = start()
    try:
        run(kc, "y := 5")
        msg_id = kc.execute('fmt.Println("flushed before shutdown")', stop_on_error=False)
        shell_reply(kc, msg_id)
        assert stdout_of(collect(kc, msg_id)) == "flushed before shutdown\n"
        km.restart_kernel(now=False)
        kc.wait_for_ready(timeout=TIMEOUT)
        reply, msgs = run(kc, "y")
        assert reply["status"] == "error", "state survived a restart"
        assert value_of(run(kc, "y := 6\ny")) == "6"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    assert not km.is_alive()


def test_next_cell_runs_right_after_error_reply(kernel):
    """Only the requests received before the error reply are aborted
    (ipykernel 6): a cell sent as soon as the reply is in runs."""
    km, kc = kernel
    for i in range(10):
        failed = kc.execute("undefinedName + 1", stop_on_error=True)
        assert shell_reply(kc, failed)["content"]["status"] == "error"
        nxt = kc.execute("fmt.Println(%d)" % i, stop_on_error=True)
        assert shell_reply(kc, nxt)["content"]["status"] == "ok", "round %d: the next cell was aborted" % i
        collect(kc, failed)
        assert stdout_of(collect(kc, nxt)) == "%d\n" % i


def test_next_cell_runs_right_after_interrupt_reply(kernel):
    """After an interrupt, a request queued before it is aborted and one
    sent once the interrupt_reply is in runs."""
    km, kc = kernel
    for i in range(3):
        looping = kc.execute("for {\n}", stop_on_error=True)
        time.sleep(0.2)
        queued = kc.execute("fmt.Println(\"queued\")", stop_on_error=True)
        time.sleep(0.1)
        msg = kc.session.msg("interrupt_request", {})
        kc.control_channel.send(msg)
        rep = kc.get_control_msg(timeout=TIMEOUT)
        assert rep["msg_type"] == "interrupt_reply" and rep["content"]["status"] == "ok"
        nxt = kc.execute("fmt.Println(%d)" % i, stop_on_error=True)
        assert shell_reply(kc, looping)["content"]["status"] == "error"
        assert shell_reply(kc, queued)["content"]["status"] == "aborted"
        assert shell_reply(kc, nxt)["content"]["status"] == "ok", "round %d: the next cell was aborted" % i
        for m in (looping, queued):
            collect(kc, m)
        assert stdout_of(collect(kc, nxt)) == "%d\n" % i


def test_ipc_transport():
    """The kernel binds where the connection file says: ipc sockets named
    <ip>-<port>, as jupyter_client lays them out."""
    d = tempfile.mkdtemp(prefix="gk", dir="/tmp")  # unix socket paths are short
    km = KernelManager(kernel_name="goldp", transport="ipc", ip=os.path.join(d, "k"))
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=TIMEOUT)
        ci = km.get_connection_info()
        assert ci["transport"] == "ipc"
        for ch in ("shell", "iopub", "stdin", "control", "hb"):
            assert os.path.exists("%s-%d" % (ci["ip"], ci[ch + "_port"])), ch
        reply, msgs = run(kc, 'fmt.Println("over ipc")')
        assert reply["status"] == "ok" and stdout_of(msgs) == "over ipc\n"
        assert kc.is_alive()
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
