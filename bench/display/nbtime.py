"""Times `goldp nb run` against nbclient + the goldp kernel on one notebook.

usage: /usr/bin/python3 bench/display/nbtime.py path/to/goldp
"""
import os
import subprocess
import sys
import tempfile
import time

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

CELLS = [
    'fmt.Println("hello")',
    "x := 0\nfor i := 0; i < 100000; i++ {\n\tx += i\n}\nx",
    'display.Display(display.HTML("<b>table</b>"))\nt := display.NewTable("eps", "acc")\nt.AddRow(1.0, 0.8)\nt',
    "p := plot.New()\npts := make(plotter.XYs, 1000)\nfor i := range pts {\n\tpts[i].X, pts[i].Y = float64(i), float64(i%31)\n}\ns, _ := plotter.NewScatter(pts)\np.Add(s)\np",
    'bar := display.NewProgress("steps", 50)\nfor i := 0; i < 50; i++ {\n\tbar.Add(1)\n}\nbar.Done()',
] * 4


def main():
    goldp = os.path.abspath(sys.argv[1])
    d = tempfile.mkdtemp()
    path = os.path.join(d, "bench.ipynb")
    nb = new_notebook(metadata={"kernelspec": {"name": "goldp", "display_name": "Go (goldp)", "language": "go"}})
    nb.cells = [new_code_cell(c) for c in CELLS]
    nbformat.write(nb, path)
    runs = 3
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([goldp, "nb", "run", "-q", path], check=True)
        best = min(best, time.perf_counter() - t)
    print("goldp nb run  %d cells: best of %d %.2f s (process start, run, write)" % (len(CELLS), runs, best))
    try:
        from jupyter_client.kernelspec import KernelSpecManager
        import nbclient
        if "goldp" not in KernelSpecManager().find_kernel_specs():
            raise RuntimeError("kernelspec goldp not installed")
    except Exception as e:  # noqa: BLE001
        print("nbclient: skipped (%s)" % e)
        return
    best = float("inf")
    for _ in range(runs):
        nb = nbformat.read(path, as_version=4)
        t = time.perf_counter()
        nbclient.NotebookClient(nb, kernel_name="goldp", timeout=300).execute()
        nbformat.write(nb, os.path.join(d, "nbclient.ipynb"))
        best = min(best, time.perf_counter() - t)
    print("nbclient+kernel %d cells: best of %d %.2f s (kernel start, run, write)" % (len(CELLS), runs, best))


if __name__ == "__main__":
    main()
