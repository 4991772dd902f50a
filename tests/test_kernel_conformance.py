"""Jupyter's own kernel conformance suite (Debian python3-jupyter-kernel-test)
run against the installed "goldp" kernelspec (tools/setup.sh installs it).

Run: /usr/bin/python3 -m pytest -q tests/test_kernel_conformance.py
"""

import unittest

import jupyter_kernel_test


class GoldpKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "goldp"
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'fmt.Fprintln(os.Stderr, "something went wrong")'

    code_execute_result = [
        {"code": "6*7", "result": "42"},
        {"code": "x := 40\nx + 2", "result": "42"},
        {"code": 'strings.ToUpper("go")', "result": "GO"},
        # A value with an HTML form is the cell's result as text/html.
        {"code": 'display.HTML("<b>hi</b>")', "mime": "text/html"},
    ]
    # Shown with display.Display, the same value is a display_data message.
    code_display_data = [
        {"code": 'display.Display(display.HTML("<b>hi</b>"))', "mime": "text/html"},
    ]
    code_generate_error = "undefinedName + 1"
    code_clear_output = 'fmt.Println("soon gone")\ndisplay.Clear(false)'

    completion_samples = [
        {"text": "fmt.Print", "matches": {"Print", "Printf", "Println"}},
        {"text": "strings.ToUp", "matches": {"ToUpper", "ToUpperSpecial"}},
    ]
    code_inspect_sample = "strings.ToUpper"

    complete_code_samples = ["x := 1", "fmt.Println(1)", "func f() int { return 1 }"]
    incomplete_code_samples = ["for i := 0; i < 3; i++ {", "fmt.Println(1,", "x := 1 +"]
    invalid_code_samples = ["x := )", "func f() { ]", "}"]

    supported_history_operations = ("tail", "range", "search")
    code_history_pattern = "6?7"


if __name__ == "__main__":
    unittest.main()
