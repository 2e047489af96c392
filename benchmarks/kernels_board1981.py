"""The 1981 kernel's figures: ``benchmarks/kernels.py --game trustme_1981`` (one script measures and verifies every kernel).

Kept so that the commands the 1981 kernel's docs give still run: the options are kernels.py's (``--jobs`` is its
``--workers``; the old ``--skip-compile``, ``--only-verify``, ``--no-speed``, ``--no-compile`` and ``--no-memory`` are
accepted and ignored).
"""

import os
import runpy
import sys

_IGNORED = {"--skip-compile", "--only-verify", "--no-speed", "--no-compile", "--no-memory"}

if __name__ == "__main__":
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels.py")
    args = ["--workers" if a == "--jobs" else a for a in sys.argv[1:] if a not in _IGNORED]
    sys.argv = [script, "--game", "trustme_1981", *args]
    runpy.run_path(script, run_name="__main__")
