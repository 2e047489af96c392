"""cfr.numba_cache: a compiled function that inlines another file's compiled code goes stale in numba's on-disk cache
when that file changes; tied to the file's source it recompiles. Played in fresh processes with a private cache."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

HELPER = "from numba import njit\n\n\n@njit(cache=True)\ndef rule():\n    return {value}\n"
USER = textwrap.dedent("""
    from numba import njit

    import helper
    from cfr.numba_cache import tie_cache_to_sources


    @njit(cache=True)
    def tied():
        return helper.rule()


    @njit(cache=True)
    def plain():
        return helper.rule()


    tie_cache_to_sources((tied,), helper)
    print(tied(), plain())
""")


def _run(folder: Path) -> str:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(folder / "cache"),
               PYTHONPATH=os.pathsep.join([str(folder), str(Path(__file__).resolve().parents[2])]))
    done = subprocess.run([sys.executable, str(folder / "user.py")], env=env, capture_output=True, text=True, check=False,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_tied_cache_recompiles_when_the_inlined_file_changes(tmp_path):
    (tmp_path / "user.py").write_text(USER)
    (tmp_path / "helper.py").write_text(HELPER.format(value=1))
    assert _run(tmp_path) == "1 1"
    (tmp_path / "helper.py").write_text(HELPER.format(value=22))
    # The plain function's cache still holds the old rule (numba checks its own file only): what the tie prevents.
    assert _run(tmp_path) == "22 1"


def test_source_digest_depends_on_every_module_and_their_order():
    import cfr.build
    import cfr.trie
    from cfr.numba_cache import source_digest

    one = source_digest(cfr.trie)
    assert len(one) == 64
    assert source_digest(cfr.trie, cfr.build) not in (one, source_digest(cfr.build, cfr.trie))
