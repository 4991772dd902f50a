"""Helpers for the notebook tests: error outputs, images and RESULT lines.

A walkthrough prints its key numbers on marked lines,

    RESULT audit_good_pass=true broken_eps_lower=1.972
    RESULT iwp case=acs_income clean=0.99241 naive=0.99565 ...

A line whose first word after RESULT has no "=" is tagged: it describes one
case of a study (results(nb).cases("iwp")). Values are parsed as booleans
(true/false), numbers, or left as strings.
"""

import re

_PANIC = re.compile(r"^panic: |^goroutine \d+ \[|^fatal error: ", re.M)


def _outputs(nb):
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            yield i, out


def errors(nb):
    """Describes every error output of nb (error outputs, and panics or fatal
    errors written to stderr), one string per output."""
    found = []
    for i, out in _outputs(nb):
        if out.output_type == "error":
            found.append("cell %d: %s: %s" % (i, out.get("ename"), out.get("evalue")))
        elif out.output_type == "stream" and out.get("name") == "stderr" and _PANIC.search(out.get("text", "")):
            found.append("cell %d: stderr: %s" % (i, out["text"][:500]))
    return found


def count_images(nb):
    """Number of outputs carrying an image/png."""
    return sum(1 for _, out in _outputs(nb) if "image/png" in out.get("data", {}))


def result_lines(nb):
    """The RESULT lines printed to stdout, in order."""
    lines = []
    for _, out in _outputs(nb):
        if out.output_type == "stream" and out.get("name") == "stdout":
            lines.extend(l.strip() for l in out.get("text", "").splitlines() if l.startswith("RESULT "))
    return lines


def parse_value(s):
    if s in ("true", "false"):
        return s == "true"
    try:
        return float(s)
    except ValueError:
        return s


class Results:
    """Parsed RESULT lines: r[key] is the last value of an untagged key,
    r.all(key) every value, r.cases(tag) the dicts of the tagged lines."""

    def __init__(self, lines):
        self.values = {}
        self.tagged = {}
        for line in lines:
            words = line.split()[1:]
            if words and "=" not in words[0]:
                case = {}
                for w in words[1:]:
                    k, _, v = w.partition("=")
                    case[k] = parse_value(v)
                self.tagged.setdefault(words[0], []).append(case)
                continue
            for w in words:
                k, sep, v = w.partition("=")
                if not sep:
                    raise ValueError("RESULT line %r: word %r is not key=value" % (line, w))
                self.values.setdefault(k, []).append(parse_value(v))

    def __getitem__(self, key):
        if key not in self.values:
            raise KeyError("no RESULT value %r (have %s)" % (key, sorted(self.values)))
        return self.values[key][-1]

    def __contains__(self, key):
        return key in self.values

    def all(self, key):
        return list(self.values.get(key, []))

    def cases(self, tag):
        return list(self.tagged.get(tag, []))

    def __repr__(self):
        return "Results(%r, %r)" % (self.values, self.tagged)


def results(nb):
    return Results(result_lines(nb))
