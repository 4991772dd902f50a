"""Side-by-side latency of the transport: echokernel (package jupyter with a
toy interpreter) against ipykernel, both driven by jupyter_client.

    go build -o /tmp/echokernel ./kernel/jupyter/internal/echokernel
    /usr/bin/python3 kernel/jupyter/testdata/latency.py /tmp/echokernel

Prints, for each kernel, the time from launch to the first kernel_info_reply
and the median (and 90th percentile) of kernel_info and trivial execute
round trips (request sent -> reply received; and -> status idle on IOPub).
"""
import json
import os
import statistics
import sys
import tempfile
import time

from jupyter_client.manager import KernelManager


def measure(name, n=300):
    km = KernelManager(kernel_name=name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.kernel_info()
    kc.get_shell_msg(timeout=30)
    start = time.perf_counter() - t0
    kc.wait_for_ready(timeout=30)

    def pct(xs, p):
        return sorted(xs)[int(p * (len(xs) - 1))] * 1e3

    rows = {}
    lat = []
    for _ in range(n):
        t = time.perf_counter()
        kc.kernel_info()
        kc.get_shell_msg(timeout=10)
        lat.append(time.perf_counter() - t)
    rows["kernel_info -> reply"] = lat
    lat = []
    for _ in range(n):
        t = time.perf_counter()
        kc.execute("1", store_history=False)
        kc.get_shell_msg(timeout=10)
        lat.append(time.perf_counter() - t)
    rows["execute '1' -> reply"] = lat
    lat = []
    for _ in range(n):
        t = time.perf_counter()
        kc.execute_interactive("1", store_history=False, output_hook=lambda m: None, timeout=10)
        lat.append(time.perf_counter() - t)
    rows["execute '1' -> idle"] = lat
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    print(f"{name}: launch -> first kernel_info_reply {start * 1e3:.1f} ms (includes jupyter_client's own start-up work)")
    for k, v in rows.items():
        print(f"  {k:24s} median {statistics.median(v) * 1e3:.3f} ms  p90 {pct(v, 0.9):.3f} ms")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: latency.py /path/to/echokernel")
    d = tempfile.mkdtemp()
    kdir = os.path.join(d, "kernels", "goldp-echo")
    os.makedirs(kdir)
    with open(os.path.join(kdir, "kernel.json"), "w") as f:
        json.dump({"argv": [os.path.abspath(sys.argv[1]), "-f", "{connection_file}"],
                   "display_name": "echo", "language": "echo", "interrupt_mode": "message"}, f)
    os.environ["JUPYTER_PATH"] = d + os.pathsep + os.environ.get("JUPYTER_PATH", "")
    measure("goldp-echo")
    measure("python3")


if __name__ == "__main__":
    main()
