"""The results set of a sweep: every statistic its report shows, computed once from the stored records.

A designer with a notebook, the tuning layer and the report all read the same tables::

    from trustme_analysis import results
    res = results.load("reports/out/default")      # computed and stored on first use, read back after
    res["seat_win_rates"]                            # a pandas DataFrame
    res.table("seat_win_rates").definition           # what its figures mean; .interval, .units

Tables live under ``OUTDIR/stats/`` (Parquet, CSV, ``index.json``); see :mod:`.store` and :mod:`.build`.
"""

from __future__ import annotations

from pathlib import Path

from trustme_analysis.outdir import DamagedFileError, load_manifest
from trustme_analysis.results import store
from trustme_analysis.results.build import Builder, compute, records_key
from trustme_analysis.results.table import ResultSet, Table


def load(outdir: str | Path, recompute: bool = False) -> ResultSet:
    """The results set of the sweep in ``outdir``.

    The stored set is used when it was computed by this code from the records now stored (or when the records are
    gone); otherwise it is computed from the records, stored, and read back, so a report drawn now and one drawn
    later from the stored set are the same.

    Raises:
        FileNotFoundError: neither a stored results set nor records are there.
    """
    key = records_key(outdir)
    if recompute or not store.is_current(store.read_index(outdir), key):
        if key is None:
            load_manifest(outdir)  # no manifest at all: the clearer error, "no sweep results here"
            raise FileNotFoundError(f"{outdir}: no records and no stored results set to build from")
        store.save(compute(outdir), outdir, key)
    try:
        return store.load(outdir)
    except DamagedFileError:
        if key is None:
            raise  # the stored tables are all there is
        # A damaged stored table: the records are there, so compute the set again.
        store.save(compute(outdir), outdir, key)
        return store.load(outdir)


__all__ = ["Builder", "ResultSet", "Table", "compute", "load", "store"]
