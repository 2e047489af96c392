"""The policies a sweep's policy seats play: where they are for this run, and which ones they are.

A policy seat names its policy in one of two ways (see :mod:`trustme_analysis.players.policy`):

- ``knobs = {solve = "duel"}``: the ``[[solve]]`` section ``duel`` of the same spec, whose policy is
  ``OUTDIR/solve/duel/policy.json`` in *this run's* output folder, wherever ``--out`` puts it;
- ``knobs = {policy = "PATH"}``: a stored policy from elsewhere, by its path.

:func:`resolve_policies` gives every such seat the file to read and the fingerprint of the policy stored there, and
records the fingerprints in :attr:`~trustme_analysis.sweep.spec.Spec.policies`, which is part of the spec's data
fingerprint: an output folder whose games were played by another policy (a solve with other settings, a replaced file)
is refused instead of resumed, so games of two policies never mix.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from trustme_analysis.players.lineup import LineUp, Seat
from trustme_analysis.players.policy import POLICY, load_policy
from trustme_analysis.solve import storage
from trustme_analysis.sweep.spec import Spec


class PolicyError(RuntimeError):
    """A policy seat's policy is missing or not the one it must be (the runner reports it as a sweep error)."""


def resolve_policies(spec: Spec, outdir: str | Path, *, require: bool) -> Spec:
    """``spec`` with its policy seats resolved against the output folder ``outdir``.

    Every policy seat gets a ``fingerprint`` knob (the stored policy's); a seat that names a solve also gets the
    ``policy`` knob ``OUTDIR/solve/<name>/policy.json`` (absolute, and kept out of the manifest's description of the
    seat: :attr:`~trustme_analysis.players.lineup.Seat.local`). :attr:`Spec.policies` maps ``solve:<name>`` and
    ``file:<path>`` to the fingerprints. The spec's own line-ups (and so the manifest's ``spec``) are unchanged; the
    variants carry the resolved line-ups.

    Args:
        spec: the validated spec.
        outdir: the run's output folder.
        require: every policy must be stored (after the solves). Without it (the check before solving), a missing
            policy, or one made by another ``[[solve]]`` section, has fingerprint ``None``.

    Raises:
        PolicyError: with ``require``, a policy is missing, unreadable, made by another section, or not the
            fingerprint a seat's ``fingerprint`` knob asks for.
    """
    solves = {s.name: s for s in spec.solves}
    policies: dict[str, str | None] = {}

    def resolve_seat(seat: Seat) -> Seat:
        if seat.bot != "policy":
            return seat
        knobs = dict(seat.knobs)
        local: frozenset[str] = seat.local
        if "solve" in knobs:
            name = knobs["solve"]
            key, label = f"solve:{name}", f"solve = {name!r}"
            path = os.path.abspath(storage.solution_dir(outdir, name) / POLICY)
            if key not in policies:
                fingerprint, why = storage.stored_policy(outdir, solves[name])
                if fingerprint is None and require:
                    raise PolicyError(f"policy seat {label}: {why}")
                policies[key] = fingerprint
            knobs["policy"] = path
            local = local | {"policy"}
        else:
            path = knobs["policy"]
            key, label = f"file:{path}", f"policy = {path!r}"
            if key not in policies:
                try:
                    policies[key] = load_policy(path)["fingerprint"]
                except (OSError, ValueError) as exc:
                    if require:
                        raise PolicyError(f"policy seat {label}: {exc}") from None
                    policies[key] = None
        fingerprint = policies[key]
        wanted = knobs.get("fingerprint")
        if require and wanted is not None and wanted != fingerprint:
            raise PolicyError(f"policy seat {label}: the stored policy has fingerprint "
                              f"{fingerprint}, the spec asks for {wanted}")
        if fingerprint is not None:
            knobs["fingerprint"] = fingerprint
        return dataclasses.replace(seat, knobs=knobs, local=local)

    def resolve_lineup(lineup: LineUp) -> LineUp:
        if lineup.seats is not None:
            return dataclasses.replace(lineup, seats=tuple(resolve_seat(s) for s in lineup.seats))
        return dataclasses.replace(lineup, pool=tuple(resolve_seat(s) for s in lineup.pool or ()))

    resolved = {name: resolve_lineup(lu) for name, lu in spec.lineups.items()}
    if not policies:
        return spec
    variants = tuple(dataclasses.replace(v, lineup=resolved[v.lineup.name]) for v in spec.variants)
    return dataclasses.replace(spec, variants=variants, policies=policies)
