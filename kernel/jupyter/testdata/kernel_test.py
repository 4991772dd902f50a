"""Protocol tests of the transport against real Jupyter clients.

Run by TestJupyterClients (interop_test.go) with Debian's /usr/bin/python3,
JUPYTER_PATH pointing at a kernelspec "goldp-echo" for the echokernel
binary (kernel/jupyter/internal/echokernel).
"""
import queue
import time
import unittest

import jupyter_kernel_test
from jupyter_client.manager import start_new_kernel


class EchoKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "goldp-echo"
    language_name = "echo"
    file_extension = ".txt"
    code_hello_world = 'print("hello, world")'
    code_stderr = 'eprint("oops")'
    code_clear_output = "clear"
    code_generate_error = "error"
    code_execute_result = [{"code": "6*7", "result": "6*7"}]
    code_display_data = [{"code": "display", "mime": "text/plain"}]
    completion_samples = [{"text": "pri", "matches": {"print"}}]
    complete_code_samples = ["print(1)", "x"]
    incomplete_code_samples = ["print("]
    invalid_code_samples = ["print())"]
    code_inspect_sample = "print"
    code_history_pattern = "6*"
    supported_history_operations = ("tail", "range", "search")


class ClientTests(unittest.TestCase):
    """What jupyter_kernel_test does not cover: stdin, interrupt, shutdown."""

    def setUp(self):
        self.km, self.kc = start_new_kernel(kernel_name="goldp-echo")

    def tearDown(self):
        self.kc.stop_channels()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=True)

    def test_input(self):
        got = []
        reply = self.kc.execute_interactive(
            'input("name? ")',
            allow_stdin=True,
            stdin_hook=lambda msg: (got.append(msg["content"]["prompt"]), self.kc.input("Ada")),
            output_hook=lambda msg: got.append(msg["content"].get("text")) if msg["msg_type"] == "stream" else None,
            timeout=10,
        )
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(got, ["name? ", "Ada\n"])

    def test_interrupt(self):
        msg_id = self.kc.execute("sleep")
        time.sleep(0.2)
        self.km.interrupt_kernel()  # interrupt_mode "message": interrupt_request on control
        reply = self.kc.get_shell_msg(timeout=10)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "Interrupted")

    def test_stop_on_error(self):
        # The requests received while the failing cell runs are aborted;
        # the one sent once the error reply is in runs (ipykernel 6).
        ids = [self.kc.execute(c) for c in ("slow error", "1", "2")]
        statuses = {}
        while len(statuses) < 3:
            r = self.kc.get_shell_msg(timeout=10)
            statuses[r["parent_header"]["msg_id"]] = r["content"]["status"]
        self.assertEqual([statuses[i] for i in ids], ["error", "aborted", "aborted"])
        for _ in range(10):
            self.assertEqual(self.kc.execute("error", reply=True, timeout=10)["content"]["status"], "error")
            self.assertEqual(self.kc.execute("3", reply=True, timeout=10)["content"]["status"], "ok")

    def test_heartbeat_and_shutdown(self):
        self.assertTrue(self.kc.is_alive())
        self.km.shutdown_kernel(now=False)  # shutdown_request, waits for the process to exit
        self.assertFalse(self.km.is_alive())

    def test_restart(self):
        self.km.restart_kernel(now=False)
        self.kc.wait_for_ready(timeout=10)
        reply = self.kc.execute_interactive("1", timeout=10, output_hook=lambda msg: None)
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(reply["content"]["execution_count"], 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
