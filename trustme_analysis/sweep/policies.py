"""The policies a sweep's policy seats play: where they are for this run, and which ones they are.

A policy seat names its policy in one of two ways (see :mod:`trustme_analysis.players.policy`):

- ``knobs = {solve = "duel"}``: the ``[[solve]]`` section ``duel`` of the same spec, whose policy is
  ``OUTDIR/solve/duel/policy.json`` in *this run's* output folder, wherever ``--out`` puts it;
- ``knobs = {policy = "PATH"}``: a stored policy from elsewhere, by its path.

:func:`resolve_policies` gives every such seat the file to read and the fingerprint of the policy stored there, and
records the fingerprints in :attr:`~trustme_analysis.sweep.spec.Spec.policies`, which is part of the spec's data
fingerprint: an output folder whose games were played by another policy (a solve with other settings, a replaced file)
is refused instead of resumed, so games of two policies never mix.

A *trained* seat (bot kind ``"trained"``, :mod:`trustme_analysis.players.trained`, and a probe whose base is one) plays
the policy its knobs and its variant name, stored under ``OUTDIR/train/<fingerprint>/`` by the sweep's train stage
(:func:`trainings` lists what it trains). :func:`resolve_trained` gives every such seat the ``outdir`` knob of this
run's output folder (a seat that sets its own keeps it: a check's sub-sweep plays the main sweep's policies) and
records ``trained:<fingerprint>`` -> the stored policy's digest in :attr:`Spec.policies`, so games played by a
policy trained again differently (a seconds budget, changed training code) are never mixed with the stored ones.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyspiel

from trustme_analysis.players.lineup import LineUp, Seat
from trustme_analysis.players.policy import POLICY, load_policy
from trustme_analysis.solve import storage
from trustme_analysis.sweep.spec import Spec


class PolicyError(RuntimeError):
    """A policy seat's policy is missing or not the one it must be (the runner reports it as a sweep error)."""


def resolve_policies(spec: Spec, outdir: str | Path, *, require: bool) -> Spec:
    """``spec`` with its policy seats (and its trained seats, :func:`resolve_trained` without ``require``) resolved
    against the output folder ``outdir``.

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
    # The trained policies' entries are resolve_trained's: kept as they are.
    policies: dict[str, str | None] = {k: v for k, v in spec.policies.items() if k.startswith(TRAINED_KEY)}
    seats_resolved = False

    def resolve_seat(seat: Seat) -> Seat:
        nonlocal seats_resolved
        if seat.bot != "policy":
            return seat
        seats_resolved = True
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
    if seats_resolved:
        # From the spec's own line-ups (a seat resolved before would keep an old fingerprint knob); the trained
        # seats' knobs are added again just below.
        variants = tuple(dataclasses.replace(v, lineup=resolved[v.lineup.name]) for v in spec.variants)
        spec = dataclasses.replace(spec, variants=variants, policies=policies)
    # Trained seats too (every caller that checks a folder against the spec needs them): a policy not trained yet
    # counts as the one the folder's games were played with until the train stage has trained it (and checked it).
    return resolve_trained(spec, outdir, require=False, recorded=recorded_policies(outdir))


def recorded_policies(outdir: str | Path) -> dict[str, Any]:
    """The policies' entries of the data fingerprint the stored manifest of ``outdir`` records (empty: no manifest,
    or a damaged one)."""
    from trustme_analysis.outdir import DamagedFileError, load_manifest, manifest_path

    if not manifest_path(outdir).is_file():
        return {}
    try:
        fingerprint = load_manifest(outdir).get("fingerprint")
    except DamagedFileError:
        return {}  # the runner's check of the folder says what is wrong with it
    policies = fingerprint.get("policies") if isinstance(fingerprint, dict) else None
    return dict(policies) if isinstance(policies, dict) else {}


# ---------------------------------------------------------------------------------------------------- trained seats

#: The prefix of a trained policy's entry in :attr:`Spec.policies` (``trained:<fingerprint>``).
TRAINED_KEY = "trained:"
TRAINED = "trained"
OUTDIR_KNOB = "outdir"


@dataclasses.dataclass(frozen=True)
class Training:
    """One policy the sweep's trained seats play: a variant's game string and the training settings."""

    game_string: str
    #: The training settings (:class:`trustme_analysis.train.TrainSettings`).
    settings: Any
    #: The folder whose ``train/`` holds the policy (the seat's ``outdir`` knob).
    outdir: str
    #: ``OUTDIR/train/<fingerprint>/``'s name: the variant's and the settings' fingerprint.
    fingerprint: str
    #: The variants whose seats play it.
    variants: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """Its entry in :attr:`Spec.policies`."""
        return TRAINED_KEY + self.fingerprint


@functools.lru_cache(maxsize=64)
def _version(game_string: str) -> str:
    from trustme_analysis.train import trainer_for

    return trainer_for(pyspiel.load_game(game_string)).version


def _trained_knobs(seat: Seat) -> tuple[Mapping[str, Any] | None, str | None]:
    """The training knobs of a seat that plays a trained policy (a trained seat, a probe over one, or a search seat
    whose rollouts play one) and where in its knobs they are (``None``: the seat's own knobs; ``"base_knobs"``,
    ``"rollout_knobs"``); ``(None, None)`` for any other seat."""
    if seat.bot == TRAINED:
        return seat.knobs, None
    if seat.bot == "probe" and seat.knobs.get("base") == TRAINED:
        base = seat.knobs.get("base_knobs", {})
        return (base, "base_knobs") if isinstance(base, dict) else (None, None)
    if seat.bot == "search" and seat.knobs.get("rollout") == TRAINED:  # a search player over the trained policy
        base = seat.knobs.get("rollout_knobs", {})
        return (base, "rollout_knobs") if isinstance(base, dict) else (None, None)
    return None, None


def _training(game_string: str, knobs: Mapping[str, Any], outdir: str | Path) -> Training:
    from trustme_analysis.players.trained import settings_from
    from trustme_analysis.train import fingerprint

    where = str(knobs.get(OUTDIR_KNOB, os.path.abspath(outdir)))
    settings = settings_from({k: v for k, v in knobs.items() if k != OUTDIR_KNOB}, game_string)
    return Training(game_string, settings, where, fingerprint(game_string, settings, _version(game_string)))


def _variant_seats(variant: Any) -> tuple[Seat, ...]:
    lu = variant.lineup
    return tuple(lu.seats_for(variant.num_players)) if lu.seats is not None else tuple(lu.pool or ())


def trainings(spec: Spec, outdir: str | Path) -> list[Training]:
    """Every distinct policy the spec's trained seats play (one per variant and settings; variants that share a game
    string and settings share it), in variant order; each seat's ``outdir`` knob, else ``outdir``, holds it."""
    found: dict[tuple[str, str], Training] = {}
    for variant in spec.variants:
        for seat in _variant_seats(variant):
            knobs, _ = _trained_knobs(seat)
            if knobs is None:
                continue
            t = _training(variant.game_string, knobs, outdir)
            key = (t.outdir, t.fingerprint)
            if key not in found:
                found[key] = t
            if variant.id not in found[key].variants:
                found[key] = dataclasses.replace(found[key], variants=(*found[key].variants, variant.id))
    return list(found.values())


def resolve_trained(spec: Spec, outdir: str | Path, *, require: bool,
                    recorded: Mapping[str, Any] | None = None) -> Spec:
    """``spec`` with its trained seats resolved against the output folder ``outdir``: each gets the ``outdir`` knob
    (absolute, kept out of the manifest's description: :attr:`Seat.local`) unless it sets one, and
    :attr:`Spec.policies` maps ``trained:<fingerprint>`` to the stored policy's digest.

    Args:
        require: every policy must be stored and current (after the train stage). Without it (before training), a
            policy not stored, or stale, has the digest ``recorded`` holds for it (the stored sweep's manifest: the
            train stage trains it again, and the sweep goes on only if it comes out the same), else ``None``.

    Raises:
        PolicyError: with ``require``, a policy is not stored or is stale.
    """
    from trustme_analysis.train import stored

    policies: dict[str, str | None] = dict(spec.policies)
    recorded = recorded or {}
    touched = False
    read: set[str] = set()  # each policy is read once per call (and always anew: it may have been trained since)

    def resolve_seat(variant: Any, seat: Seat) -> Seat:
        nonlocal touched
        knobs, where = _trained_knobs(seat)
        if knobs is None:
            return seat
        touched = True
        t = _training(variant.game_string, knobs, outdir)
        if t.key not in read:
            read.add(t.key)
            policy = stored(t.game_string, t.settings, t.outdir)
            if policy is None and require:
                raise PolicyError(f"trained seat of variant {variant.id}: the policy {t.fingerprint} is not stored "
                                  f"under {t.outdir}/train (or is stale); the train stage trains it")
            digest = str(policy.summary["policy_digest"]) if policy is not None else None
            policies[t.key] = digest if digest is not None else recorded.get(t.key)
        if OUTDIR_KNOB in knobs:
            return seat
        if where is None:
            return dataclasses.replace(seat, knobs={**dict(seat.knobs), OUTDIR_KNOB: t.outdir},
                                       local=seat.local | {OUTDIR_KNOB})
        return dataclasses.replace(seat, knobs={**dict(seat.knobs), where: {**dict(knobs), OUTDIR_KNOB: t.outdir}})

    def resolve_lineup(variant: Any) -> LineUp:
        lu = variant.lineup
        if lu.seats is not None:
            return dataclasses.replace(lu, seats=tuple(resolve_seat(variant, s) for s in lu.seats))
        return dataclasses.replace(lu, pool=tuple(resolve_seat(variant, s) for s in lu.pool or ()))

    variants = tuple(dataclasses.replace(v, lineup=resolve_lineup(v)) for v in spec.variants)
    if not touched:
        return spec
    return dataclasses.replace(spec, variants=variants, policies=policies)
