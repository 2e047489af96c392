"""numba's on-disk cache, keyed by more source than the compiled function's own file.

numba decides whether a cached function is stale by the stamp (modification time and size) of the file that defines
it. A function that calls compiled functions of *other* files compiles their code into its own, so after one of those
files changes its cache still holds the old code: a kernel producer or a search player would silently run stale
rules. :func:`tie_cache_to_sources` adds a hash of those files to the stamp, so any change to them recompiles.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import ModuleType


def source_digest(*modules: ModuleType) -> str:
    """A SHA-256 of the modules' source files, in the given order."""
    h = hashlib.sha256()
    for module in modules:
        h.update(Path(module.__file__).read_bytes())
    return h.hexdigest()


def tie_cache_to_sources(functions, *modules: ModuleType) -> str:
    """Key the on-disk cache of each compiled function (``@njit(cache=True)`` dispatchers) by the source of
    ``modules`` as well as its own file; returns the digest used.

    The stamp numba compares is a private attribute (``_cache._cache_file._source_stamp``); where a numba release
    lays its cache out otherwise, caching is switched off for these functions: each process compiles them anew,
    slower to start, never stale. Call it at import, before a function is first called.
    """
    digest = source_digest(*modules)
    for fn in functions:
        cache_file = getattr(getattr(fn, "_cache", None), "_cache_file", None)
        if cache_file is not None and hasattr(cache_file, "_source_stamp"):
            cache_file._source_stamp = (cache_file._source_stamp, digest)
        else:
            from numba.core.caching import NullCache

            fn._cache = NullCache()
    return digest
