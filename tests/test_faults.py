"""Faults a cell can cause (issue 13): under the kernel and `goldp nb run`,
each gives the expected error, keeps the state where it can, writes the
notebook, and leaves no process behind.

    JUPYTER_PATH=... GOLDP_BIN=bin/goldp /usr/bin/python3 -m pytest -q tests/test_faults.py
"""

import json
import os
import re
import signal
import subprocess
import time

import nbformat
import pytest
from jupyter_client import KernelManager
from nbformat.v4 import new_code_cell, new_notebook

GOLDP = os.path.abspath(os.environ.get("GOLDP_BIN", "bin/goldp"))


def nb_run(tmp_path, cells, *flags, prefix=()):
    src = tmp_path / "f.ipynb"
    nb = new_notebook(metadata={"kernelspec": {"name": "goldp", "display_name": "Go (goldp)", "language": "go"}})
    nb.cells = [new_code_cell(c) for c in cells]
    nbformat.write(nb, str(src))
    p = subprocess.run([*prefix, GOLDP, "nb", "run", *flags, str(src)], capture_output=True, text=True, timeout=180)
    out = tmp_path / "f.out.ipynb"
    return p, (nbformat.read(str(out), as_version=4) if out.exists() else None)


def error_of(c):
    errs = [o for o in c.outputs if o.output_type == "error"]
    return errs[0] if errs else None


def value_of(c):
    for o in c.outputs:
        if o.output_type == "execute_result":
            return o.data["text/plain"]
    return None


@pytest.mark.parametrize("code,why", [
    ("os.Exit(3)", "(exit status 3)"),
    ("func f(n int) int { return f(n+1) + 1 }\nf(0)", "(stack overflow; exit status 2)"),
])
def test_nb_run_worker_death(tmp_path, code, why):
    p, nb = nb_run(tmp_path, ["x := 41", code, "y := 1\ny"], "--allow-errors")
    assert p.returncode == 1, p.stderr
    assert nb is not None, "no notebook written"
    nbformat.validate(nb)
    e = error_of(nb.cells[1])
    assert e is not None and e.ename == "WorkerDied" and why in e.evalue, nb.cells[1].outputs
    assert "state was lost" in e.evalue
    assert value_of(nb.cells[2]) == "1", "the run did not go on in a fresh worker"
    tb = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    assert tb.count("\n") < 80, "the dying worker's traceback was not trimmed"
    # Without --allow-errors the run stops there, writes, and says so.
    p, nb = nb_run(tmp_path, ["x := 41", code, "y := 1\ny"])
    assert p.returncode == 1 and "cell 1" in p.stderr
    assert error_of(nb.cells[1]) is not None and nb.cells[2].execution_count is None


def test_nb_run_goroutine_and_callback_panics_keep_state(tmp_path):
    p, nb = nb_run(tmp_path, ["x := 41",
                              'time.AfterFunc(time.Millisecond, func() { panic("boom") })\ntime.Sleep(300 * time.Millisecond)',
                              'go func() { panic("in goroutine") }()\ntime.Sleep(300 * time.Millisecond)',
                              "x + 1"], "--allow-errors")
    assert p.returncode == 1, p.stderr
    e = error_of(nb.cells[1])
    assert e is not None and e.ename == "Panic" and "panic in a callback defined at cell:1:34: boom" in e.evalue, nb.cells[1].outputs
    e = error_of(nb.cells[2])
    assert e is not None and e.ename == "Panic" and "panic in goroutine started at cell:1:1: in goroutine" in e.evalue, nb.cells[2].outputs
    assert value_of(nb.cells[3]) == "42", "the session did not survive"


def test_nb_run_huge_allocation_under_limit(tmp_path):
    limit = ("prlimit", "--as=%d" % (4 << 30))
    # Larger than the memory available: refused before it is attempted,
    # the session lives on.
    p, nb = nb_run(tmp_path, ["x := 1", "s := make([]float64, 50<<30/8)\nlen(s)",
                              "m := mat.NewDense(200000, 200000, nil)",
                              "p := new([50 << 30]byte)\nlen(p)", "x + 1"], "--allow-errors", prefix=limit)
    assert p.returncode == 1, p.stderr
    for c, name, what in ((nb.cells[1], "Panic", "makeslice: 6710886400 elements of 8 bytes need 50 GiB, more than the 4 GiB"),
                          (nb.cells[2], "Panic", "mat.NewDense: 40000000000 elements of 8 bytes need 298 GiB, more than the 4 GiB"),
                          (nb.cells[3], "CompileError", "new of type [53687091200]byte needs 50 GiB, more than the 4 GiB")):
        e = error_of(c)
        assert e is not None and e.ename == name and what in e.evalue, c.outputs
    assert value_of(nb.cells[4]) == "2", "the session did not survive"
    # Really running out: the worker is replaced, and the error says so.
    p, nb = nb_run(tmp_path, ["x := 1", "var keep [][]float64\nfor {\n\tkeep = append(keep, make([]float64, 1<<24))\n}", "2"],
                   "--allow-errors", prefix=limit)
    e = error_of(nb.cells[1])
    assert e is not None and e.ename == "WorkerDied" and "out of memory" in e.evalue, nb.cells[1].outputs
    assert value_of(nb.cells[2]) == "2"


def worker_pids(kernel_pid):
    out = subprocess.run(["pgrep", "-P", str(kernel_pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is not alive.
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.fixture
def kernel():
    km = KernelManager(kernel_name="goldp")
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=30)
    yield km, kc
    kc.stop_channels()
    if km.is_alive():
        km.shutdown_kernel(now=True)


def reply_to(kc, msg_id, timeout=60):
    deadline = time.time() + timeout
    while True:
        m = kc.get_shell_msg(timeout=max(0.1, deadline - time.time()))
        if m["parent_header"].get("msg_id") == msg_id:
            return m["content"]


def run(kc, code, timeout=60):
    return reply_to(kc, kc.execute(code, stop_on_error=False), timeout)


def test_kill_worker_mid_cell(kernel):
    km, kc = kernel
    run(kc, "x := 1")
    pid = worker_pids(km.provisioner.process.pid)[0]
    msg_id = kc.execute('cmd := exec.Command("sleep", "300")\ncmd.Start()\nfmt.Println(cmd.Process.Pid)\ntime.Sleep(30 * time.Second)')
    child = started_child(kc, msg_id)
    assert child and alive(child)
    os.kill(pid, signal.SIGKILL)
    reply = reply_to(kc, msg_id, 10)
    assert reply["status"] == "error" and reply["ename"] == "WorkerDied", reply
    assert "signal: killed" in reply["evalue"]
    # Not killed by the supervisor (its kills say why instead): by the
    # system's out-of-memory killer or another process.
    assert "by the supervisor" not in reply["evalue"] and "another process" in reply["evalue"], reply
    # The process the cell started ended with its worker.
    deadline = time.time() + 5
    while time.time() < deadline and alive(child):
        time.sleep(0.05)
    if alive(child):
        os.kill(child, signal.SIGKILL)
        pytest.fail("a process the cell started outlived its worker")
    # Right after the error reply: the next cell runs (no abort window).
    assert run(kc, "3")["status"] == "ok"


@pytest.mark.parametrize("code,why", [
    ("os.Exit(3)", "(exit status 3)"),
    ("func f(n int) int { return f(n+1) + 1 }\nf(0)", "(stack overflow; exit status 2)"),
])
def test_kernel_worker_death(kernel, code, why):
    # The faults test_nb_run_worker_death runs under goldp nb run, in the
    # kernel: the error says why, its traceback is trimmed, the next cell
    # runs at once in a fresh worker.
    km, kc = kernel
    run(kc, "x := 41")
    msg_id = kc.execute(code, stop_on_error=True)
    reply = reply_to(kc, msg_id)
    assert reply["status"] == "error" and reply["ename"] == "WorkerDied" and why in reply["evalue"], reply
    assert "state was lost" in reply["evalue"]
    text = ""
    while True:
        m = kc.get_iopub_msg(timeout=10)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "stream":
            text += m["content"]["text"]
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    assert text.count("\n") < 80, "the dying worker's traceback was not trimmed"
    assert run(kc, "x")["status"] == "error", "state survived the worker's death"
    assert run(kc, "y := 1\ny")["status"] == "ok"


def test_kernel_callback_panic_keeps_state(kernel):
    km, kc = kernel
    run(kc, "x := 41")
    r = run(kc, 'time.AfterFunc(time.Millisecond, func() { panic("boom") })\ntime.Sleep(300 * time.Millisecond)')
    assert r["status"] == "error" and r["ename"] == "Panic" and "boom" in r["evalue"], r
    # After the cell ended: reported on stderr, the worker lives on.
    run(kc, 'time.AfterFunc(10 * time.Millisecond, func() { panic("late") })')
    time.sleep(0.3)
    r = run(kc, "x + 1")
    assert r["status"] == "ok", r


def test_goroutine_storm_bounded(kernel):
    km, kc = kernel
    run(kc, "x := 41\nstop := make(chan bool)")
    r = run(kc, "for i := 0; i < 1000000; i++ {\n\tgo func() { <-stop }()\n}", timeout=120)
    assert r["status"] == "error" and "too many goroutines: 100000 started by cells are running" in r["evalue"], r
    # Interrupt still works, and the state is kept.
    msg_id = kc.execute("for {\n\tx++\n}", stop_on_error=False)
    time.sleep(0.3)
    km.interrupt_kernel()
    r = reply_to(kc, msg_id, 10)
    assert r["ename"] == "Interrupted" and "state was lost" not in r["evalue"], r
    run(kc, "close(stop)")
    assert run(kc, "x > 41")["status"] == "ok"
    # Goroutines compiled code starts for a callback (wg.Go) count too:
    # the storm stops at once, the worker lives on.
    run(kc, "stop2 := make(chan bool)\nvar wg sync.WaitGroup")
    r = run(kc, "for i := 0; i < 1000000; i++ {\n\twg.Go(func() { <-stop2 })\n}", timeout=120)
    assert r["status"] == "error" and "too many goroutines: 100000 started by cells are running" in r["evalue"], r
    run(kc, "close(stop2)\nwg.Wait()")
    assert run(kc, "x > 41")["status"] == "ok"


def test_interrupt_storm_keeps_state(kernel):
    km, kc = kernel
    run(kc, "x := 0")
    for _ in range(10):
        msg_id = kc.execute("for {\n\tx++\n}", stop_on_error=False)
        time.sleep(0.05)
        for _ in range(5):
            km.interrupt_kernel()
        reply = reply_to(kc, msg_id, 10)
        assert reply["ename"] == "Interrupted" and "state was lost" not in reply["evalue"], reply
    r = run(kc, "x > 0")
    assert r["status"] == "ok", r


def test_interrupt_when_every_processor_spins(kernel):
    # Goroutines that keep every processor of the worker busy without
    # allocating or making a system call: the worker's request reader runs
    # only because the runtime's monitor thread preempts them, and that
    # thread sleeps unless a system call, a collection or a due timer wakes
    # it. The worker reads its requests with raw system calls, which do not
    # wake it, and keeps a timer pending (worker.wakeMonitor): a build
    # without that timer lost the worker on these cells in every run.
    km, kc = kernel
    run(kc, "x := 41\nk := 2 * runtime.NumCPU()")
    for code in ["n := 0\nfor i := 0; i < k; i++ {\n\tgo func() { for { n++ } }()\n}\nfor {\n}",
                 "for i := 0; i < k; i++ {\n\tgo func() { for {\n\t} }()\n}\nfor {\n}"] * 3:
        msg_id = kc.execute(code, stop_on_error=False)
        time.sleep(0.5)
        km.interrupt_kernel()
        r = reply_to(kc, msg_id, 10)
        assert r["ename"] == "Interrupted" and "state was lost" not in r["evalue"], r
        assert run(kc, "x + 1")["status"] == "ok"


def test_shutdown_during_cell_leaves_no_process(kernel):
    km, kc = kernel
    kpid = km.provisioner.process.pid
    wpid = worker_pids(kpid)[0]
    msg_id = kc.execute('p, _ := os.StartProcess("/bin/sleep", []string{"sleep", "300"}, &os.ProcAttr{})\n'
                        'fmt.Println(p.Pid)\ntime.Sleep(time.Minute)')
    child = None
    deadline = time.time() + 10
    while child is None and time.time() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=1)
        except Exception:
            continue
        if m["msg_type"] == "stream" and m["parent_header"].get("msg_id") == msg_id:
            child = int(m["content"]["text"].split()[0])
    assert child and alive(child)
    km.shutdown_kernel(now=False)
    deadline = time.time() + 10
    while time.time() < deadline and (alive(wpid) or alive(child)):
        time.sleep(0.1)
    assert not alive(wpid), "the worker outlived the shutdown"
    assert not alive(child), "a process the cell started outlived the shutdown"


def started_child(kc, msg_id):
    """The pid a cell printed on its first stream message."""
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=1)
        except Exception:
            continue
        if m["msg_type"] == "stream" and m["parent_header"].get("msg_id") == msg_id:
            return int(m["content"]["text"].split()[0])
    return None


def test_killed_kernel_leaves_no_process(kernel):
    # jupyter_client's shutdown_kernel(now=True), and any kill -9 of the
    # kernel, ends the kernel with SIGKILL: it cannot clean up, and the
    # worker (which dies with it) must take the processes its cells
    # started along.
    km, kc = kernel
    kpid = km.provisioner.process.pid
    wpid = worker_pids(kpid)[0]
    msg_id = kc.execute('cmd := exec.Command("sleep", "300")\ncmd.Start()\nfmt.Println(cmd.Process.Pid)\ntime.Sleep(time.Minute)')
    child = started_child(kc, msg_id)
    assert child and alive(child)
    km.shutdown_kernel(now=True)
    deadline = time.time() + 10
    while time.time() < deadline and (alive(wpid) or alive(child)):
        time.sleep(0.1)
    assert not alive(wpid), "the worker outlived the kernel"
    if alive(child):
        os.kill(child, signal.SIGKILL)
        pytest.fail("a process the cell started outlived the kernel killed with SIGKILL")


def test_restart_during_cell(kernel):
    km, kc = kernel
    run(kc, "x := 1")
    kc.execute("time.Sleep(time.Minute)")
    time.sleep(0.3)
    km.restart_kernel(now=False)
    kc.wait_for_ready(timeout=30)
    while True:  # the replies sent before the restart
        try:
            kc.get_shell_msg(timeout=0.5)
        except Exception:
            break
    r = run(kc, "x")
    assert r["status"] == "error", "state survived a restart"
    run(kc, "y := 2")
    assert run(kc, "y")["status"] == "ok"


GO_PANIC_PROGRAMS = {
    "goroutine": 'go func() { panic("boom") }()',
    "callback": 'time.AfterFunc(time.Millisecond, func() { panic(fmt.Errorf("bad %d\\nline", 3)) })',
}


@pytest.mark.parametrize("kind", sorted(GO_PANIC_PROGRAMS))
def test_goldp_run_goroutine_panic_ends_like_go(tmp_path, kind):
    """Under `goldp run` a panic in a goroutine or callback the script
    started ends the process as it ends the compiled program: what was
    printed before, Go's panic line and goroutine header, exit status 2,
    nothing printed after."""
    src = tmp_path / "main.go"
    src.write_text('package main\n\nimport (\n\t"fmt"\n\t"time"\n)\n\nfunc main() {\n\tfmt.Println(0)\n\t%s\n'
                   '\ttime.Sleep(300 * time.Millisecond)\n\tfmt.Println(1)\n}\n' % GO_PANIC_PROGRAMS[kind])
    exe = tmp_path / "prog"
    subprocess.run(["go", "build", "-o", str(exe), str(src)], check=True, cwd=tmp_path, timeout=300,
                   env={**os.environ, "GO111MODULE": "off"})
    compiled = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    interpreted = subprocess.run([GOLDP, "run", str(src)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    head = lambda s: s.split("goroutine ")[0]
    for r in (compiled, interpreted):
        assert r.returncode == 2 and r.stdout == "0\n", (r.returncode, r.stdout, r.stderr)
        assert re.search(r"\n\ngoroutine \d+ \[running\]:\n", r.stderr), r.stderr
    assert head(interpreted.stderr) == head(compiled.stderr), (compiled.stderr, interpreted.stderr)


MAIN_EXIT_PROGRAMS = {
    # a panic of the main goroutine: the runtime exits 2
    "panic": ('panic("boom")', 2),
    "index": ('var xs []int\n\t_ = xs[5]', 2),
    "error value": ('panic(fmt.Errorf("bad %d", 3))', 2),
    # log.Fatal prints and exits 1; os.Exit(n) exits n
    "log.Fatal": ('log.SetFlags(0)\n\tlog.Fatalf("fatal %d", 7)', 1),
    "os.Exit": ("os.Exit(3)", 3),
}


@pytest.mark.parametrize("kind", sorted(MAIN_EXIT_PROGRAMS))
def test_goldp_run_main_exit_status_like_go(tmp_path, kind):
    """`goldp run` ends with the exit status of the compiled program when
    the script's main path panics, calls log.Fatal or os.Exit, with what
    was printed before it, and prints nothing after it."""
    body, status = MAIN_EXIT_PROGRAMS[kind]
    src = tmp_path / "main.go"
    src.write_text('package main\n\nimport (\n\t"fmt"\n\t"log"\n\t"os"\n)\n\nvar _ = log.Print\nvar _ = os.Exit\n\n'
                   'func main() {\n\tfmt.Println(0)\n\t%s\n\tfmt.Println(1)\n}\n' % body)
    exe = tmp_path / "prog"
    subprocess.run(["go", "build", "-o", str(exe), str(src)], check=True, cwd=tmp_path, timeout=300,
                   env={**os.environ, "GO111MODULE": "off"})
    compiled = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    interpreted = subprocess.run([GOLDP, "run", str(src)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    for r in (compiled, interpreted):
        assert r.returncode == status and r.stdout == "0\n", (r.returncode, r.stdout, r.stderr)
    if kind == "log.Fatal":
        assert interpreted.stderr == compiled.stderr == "fatal 7\n", (compiled.stderr, interpreted.stderr)


# ---------------------------------------------------------------------------
# The faults above that ran under one side only, under the other too
# (issue 13: "under both the kernel and goldp nb run").

def test_nb_run_goroutine_storm_bounded(tmp_path):
    """The goroutine storm of test_goroutine_storm_bounded under goldp nb
    run: the cell fails naming the limit, the session lives on."""
    p, nb = nb_run(tmp_path, ["x := 41\nstop := make(chan bool)",
                              "for i := 0; i < 1000000; i++ {\n\tgo func() { <-stop }()\n}",
                              "close(stop)\nx + 1"], "--allow-errors")
    assert p.returncode == 1, p.stderr
    e = error_of(nb.cells[1])
    assert e is not None and "too many goroutines: 100000 started by cells are running" in e.evalue, nb.cells[1].outputs
    assert value_of(nb.cells[2]) == "42", "the session did not survive the storm"


def test_nb_run_kill_worker_mid_cell(tmp_path):
    """kill -9 of the worker mid-cell under goldp nb run: the cell gets a
    WorkerDied error saying so, the notebook is written, the next cell runs
    in a fresh worker, and the process the cell started ends with its
    worker."""
    pidfile = tmp_path / "child.pid"
    src = tmp_path / "f.ipynb"
    nb = new_notebook(metadata={"kernelspec": {"name": "goldp", "display_name": "Go (goldp)", "language": "go"}})
    nb.cells = [new_code_cell(c) for c in [
        "x := 41",
        'cmd := exec.Command("sleep", "300")\ncmd.Start()\n'
        'os.WriteFile(%s, []byte(fmt.Sprint(cmd.Process.Pid)), 0o644)\ntime.Sleep(time.Minute)' % json.dumps(str(pidfile)),
        "y := 1\ny"]]
    nbformat.write(nb, str(src))
    p = subprocess.Popen([GOLDP, "nb", "run", "--allow-errors", str(src)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 30
        while time.time() < deadline and not (pidfile.exists() and pidfile.read_text().strip()):
            time.sleep(0.05)
        assert pidfile.exists(), "the cell never started its process"
        child = int(pidfile.read_text())
        workers = worker_pids(p.pid)
        assert len(workers) == 1, workers
        os.kill(workers[0], signal.SIGKILL)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 1, err
    out = nbformat.read(str(tmp_path / "f.out.ipynb"), as_version=4)
    nbformat.validate(out)
    e = error_of(out.cells[1])
    assert e is not None and e.ename == "WorkerDied" and "signal: killed" in e.evalue, out.cells[1].outputs
    assert value_of(out.cells[2]) == "1", "the run did not go on in a fresh worker"
    deadline = time.time() + 5
    while time.time() < deadline and alive(child):
        time.sleep(0.05)
    if alive(child):
        os.kill(child, signal.SIGKILL)
        pytest.fail("a process the cell started outlived its worker under goldp nb run")


def test_kernel_huge_allocation_under_limit(tmp_path):
    """The allocations of test_nb_run_huge_allocation_under_limit, and a map
    and a channel, in the kernel under a 4 GiB address-space limit: each
    fails in the cell before it is attempted, naming the size and the
    limit, and the session lives on."""
    from jupyter_client.kernelspec import KernelSpecManager
    d = tmp_path / "kernels" / "goldp-limited"
    d.mkdir(parents=True)
    (d / "kernel.json").write_text(json.dumps({
        "argv": ["prlimit", "--as=%d" % (4 << 30), GOLDP, "kernel", "-f", "{connection_file}"],
        "display_name": "Go (goldp, 4 GiB)", "language": "go"}))
    km = KernelManager(kernel_name="goldp-limited",
                       kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")]))
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=30)
        assert run(kc, "x := 1")["status"] == "ok"
        for code, what in (("s := make([]float64, 50<<30/8)\nlen(s)", "makeslice: 6710886400 elements of 8 bytes need 50 GiB, more than the 4 GiB"),
                           ("m := mat.NewDense(200000, 200000, nil)", "mat.NewDense: 40000000000 elements of 8 bytes need 298 GiB, more than the 4 GiB"),
                           ("mm := make(map[int]int, 1<<40)", "makemap: 1099511627776 elements of 16 bytes need 16 TiB, more than the 4 GiB"),
                           ("ch := make(chan [1024]byte, 1<<30)", "makechan: 1073741824 elements of 1024 bytes need 1 TiB, more than the 4 GiB")):
            r = run(kc, code)
            assert r["status"] == "error" and r["ename"] == "Panic" and what in r["evalue"], r
            assert "not attempted" in r["evalue"], r
        r = run(kc, "x + 1")
        assert r["status"] == "ok", "the session did not survive"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
