#!/usr/bin/python3
"""Build the walkthrough notebooks from their plain-text sources.

Each notebooks/tools/src/NAME.nb file becomes notebooks/NAME.ipynb (without
outputs; execute it afterwards with `bin/goldp nb run --inplace`). A source
file is a list of cells, each introduced by a line `%% md` (Markdown) or
`%% go` (a notebook-Go code cell); leading and trailing blank lines of a cell
are dropped.

    /usr/bin/python3 notebooks/tools/gen.py [NAME ...]     # default: every source

Run `notebooks/tools/build.sh` to generate and execute them all.
"""

import glob
import hashlib
import os
import sys

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)


def parse(text, name):
    cells = []
    kind, lines = None, []

    def flush():
        if kind is None:
            if any(l.strip() for l in lines):
                raise SystemExit(f"{name}: text before the first %% marker")
            return
        body = "\n".join(lines).strip("\n")
        if not body.strip():
            raise SystemExit(f"{name}: empty {kind} cell near cell {len(cells) + 1}")
        cells.append(new_markdown_cell(body) if kind == "md" else new_code_cell(body))

    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith("%% "):
            flush()
            kind, lines = line[3:].strip(), []
            if kind not in ("md", "go"):
                raise SystemExit(f"{name}:{i}: unknown cell kind {kind!r} (want md or go)")
        else:
            lines.append(line)
    flush()
    return cells


def build(src):
    name = os.path.splitext(os.path.basename(src))[0]
    with open(src, encoding="utf-8") as f:
        cells = parse(f.read(), src)
    # Stable cell ids (name and position), so regenerating a notebook
    # changes only what its source and outputs change.
    for i, cell in enumerate(cells):
        cell["id"] = hashlib.sha1(f"{name}:{i}".encode()).hexdigest()[:8]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "goldp", "display_name": "Go (goldp)", "language": "go"}
    nb.metadata["language_info"] = {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}
    nbformat.validate(nb)
    dst = os.path.join(OUT, name + ".ipynb")
    nbformat.write(nb, dst)
    print(dst)


def main(argv):
    names = argv[1:]
    srcs = [os.path.join(HERE, "src", n + ".nb") for n in names] if names else sorted(
        glob.glob(os.path.join(HERE, "src", "*.nb")))
    for s in srcs:
        build(s)


if __name__ == "__main__":
    main(sys.argv)
