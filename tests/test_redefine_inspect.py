"""Redefining a type and inspecting cell declarations through the kernel
protocol (jupyter_client, the "goldp" kernelspec): issue 11, items 7 and 9.

Run: JUPYTER_PATH=<prefix>/share/jupyter /usr/bin/python3 -m pytest -q tests/test_redefine_inspect.py
"""

import time

import pytest
from jupyter_client.manager import start_new_kernel

TIMEOUT = 30


@pytest.fixture(scope="module")
def kernel():
    km, kc = start_new_kernel(kernel_name="goldp", startup_timeout=TIMEOUT)
    yield kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def reply_to(kc, msg_id):
    deadline = time.monotonic() + TIMEOUT
    while True:
        m = kc.get_shell_msg(timeout=max(0.01, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") == msg_id:
            return m["content"]


def run(kc, code):
    """Executes code; returns (reply content, stdout, stderr, text value)."""
    msg_id = kc.execute(code, stop_on_error=False)
    reply = reply_to(kc, msg_id)
    out, err, value = "", "", None
    deadline = time.monotonic() + TIMEOUT
    while True:
        m = kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        t, c = m["msg_type"], m["content"]
        if t == "status" and c["execution_state"] == "idle":
            return reply, out, err, value
        if t == "stream":
            if c["name"] == "stdout":
                out += c["text"]
            else:
                err += c["text"]
        if t == "execute_result":
            value = c["data"]["text/plain"]


def test_edit_type_and_rerun(kernel):
    reply, _, _, value = run(kernel, "type Rec struct{ A int }\n"
                                     "func show(r Rec) string { return fmt.Sprintf(\"%+v\", r) }\n"
                                     "r := Rec{1}\nshow(r)")
    assert reply["status"] == "ok" and value == "{A:1}", reply
    reply, _, err, _ = run(kernel, "type Rec struct{ A, B int }")
    assert reply["status"] == "ok", reply
    assert "Rec redefined" in err and "show" in err and "r" in err, err
    reply, _, _, value = run(kernel, "show(Rec{1, 2})")
    assert reply["status"] == "ok" and value == "{A:1 B:2}", reply
    reply, _, _, _ = run(kernel, "r.A")
    assert reply["status"] == "error" and reply["ename"] == "CompileError", reply
    assert "undefined: r (r was declared with the old Rec" in reply["evalue"], reply


def test_inspect_cell_function(kernel):
    reply, _, _, _ = run(kernel, "// Sq squares x.\nfunc Sq(x float64) float64 { return x * x }\n"
                                 "m := mat.NewDense(2, 2, nil)")
    assert reply["status"] == "ok", reply
    code = "Sq(3)"
    r = reply_to(kernel, kernel.inspect(code, 2))
    assert r["status"] == "ok" and r["found"], r
    text = r["data"]["text/plain"]
    assert text.startswith("func Sq(x float64) float64\n") and "Sq squares x." in text, text
    r = reply_to(kernel, kernel.inspect("m", 1))
    assert r["found"] and r["data"]["text/plain"].startswith("var m *mat.Dense"), r
    r = reply_to(kernel, kernel.complete("m.", 2))
    assert r["status"] == "ok" and "At" in r["matches"] and "Dims" in r["matches"], r
