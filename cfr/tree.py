"""The compiled tree: :class:`CompiledGame`, its node kinds and errors, and the compact information-state table.

The layout is described in :mod:`cfr.compile`; this module only holds the container so that the producers
(:mod:`cfr.compile`'s pyspiel walk, :mod:`cfr.build`'s finisher) and the consumers (passes, solvers, evaluators)
can import it without importing each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

#: Default refusal threshold for :func:`cfr.compile_game` (number of histories).
DEFAULT_MAX_HISTORIES = 5_000_000

TERMINAL = 0
CHANCE = 1
DECISION = 2


class TreeTooLargeError(ValueError):
    """The game tree has more histories than the configured limit."""


class UnsupportedGameError(ValueError):
    """The game is not a sequential, perfect-recall game with explicit chance that the compiler can walk."""


class KeyTable(Sequence):
    """Information-state strings held as one UTF-8 blob and an offset array.

    A Python ``str`` costs about 50 bytes plus its text and a list slot; millions of them dominate a large compiled
    tree. This sequence keeps only the text and one 8-byte offset per key, and decodes a key when it is read.

    Args:
        blob: the keys' UTF-8 bytes, one after the other.
        offsets: ``len(keys) + 1`` byte offsets; key ``i`` is ``blob[offsets[i]:offsets[i + 1]]``.
    """

    def __init__(self, blob: bytes, offsets: np.ndarray):
        self._blob = bytes(blob)
        self._offsets = np.asarray(offsets, dtype=np.int64)
        if self._offsets.ndim != 1 or self._offsets.size < 1 or self._offsets[-1] != len(self._blob):
            raise ValueError("KeyTable offsets must be 1-D, start the keys and end at len(blob)")

    @classmethod
    def from_strings(cls, keys: Iterable[str]) -> KeyTable:
        """A table holding ``keys`` in order."""
        parts = bytearray()
        offsets = [0]
        for key in keys:
            parts += key.encode()
            offsets.append(len(parts))
        return cls(bytes(parts), np.asarray(offsets, dtype=np.int64))

    def __len__(self) -> int:
        return int(self._offsets.size - 1)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = int(index)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"information set {index} out of range (0..{len(self) - 1})")
        return self._blob[self._offsets[i] : self._offsets[i + 1]].decode()

    def __iter__(self) -> Iterator[str]:
        blob, offs = self._blob, self._offsets.tolist()
        for lo, hi in pairwise(offs):
            yield blob[lo:hi].decode()

    def __eq__(self, other) -> bool:
        if isinstance(other, KeyTable):
            return self._blob == other._blob and np.array_equal(self._offsets, other._offsets)
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"KeyTable({len(self)} keys, {len(self._blob)} bytes)"

    @property
    def nbytes(self) -> int:
        """Bytes held: the text and the offsets."""
        return len(self._blob) + self._offsets.nbytes

    def take(self, order: np.ndarray) -> KeyTable:
        """The keys in the order ``order`` (a permutation or selection of indices)."""
        order = np.asarray(order, dtype=np.int64)
        lengths = np.diff(self._offsets)[order]
        offsets = np.zeros(order.size + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        src = np.frombuffer(self._blob, dtype=np.uint8)
        out = np.empty(int(offsets[-1]), dtype=np.uint8)
        from cfr.kernels import gather_segments

        gather_segments(src, self._offsets, order, offsets, out)
        return KeyTable(out.tobytes(), offsets)

    def digest_update(self, digest) -> None:
        """Feed every key followed by a NUL byte into a ``hashlib`` digest (the checkpoint fingerprint's form)."""
        offs = self._offsets.tolist()
        view = memoryview(self._blob)
        for lo, hi in pairwise(offs):
            digest.update(view[lo:hi])
            digest.update(b"\0")


def _nbytes(value) -> int:
    """Bytes of the numpy arrays (and key tables) inside ``value``; nested lists, tuples and dicts followed."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, KeyTable):
        return value.nbytes
    if isinstance(value, (list, tuple)):
        return sum(_nbytes(v) for v in value)
    if isinstance(value, dict):
        return sum(_nbytes(v) for v in value.values())
    return 0


@dataclass
class CompiledGame:
    """A game tree as flat arrays (see :mod:`cfr.compile` for the layout and the producer contract).

    Node arrays have one entry per history, numbered breadth first; ``I`` below is the node index type (``int32``
    below 2**31 histories, else ``int64``).

    Attributes:
        game: the pyspiel game that was compiled.
        num_players: number of players ``P``; index ``P`` stands for chance in ``player`` and ``edge_owner``.
        depth_start: ``depth_start[d]:depth_start[d + 1]`` are the nodes at depth ``d`` (int64).
        parent: parent node of every node (``-1`` for the root), ``I``.
        kind: ``TERMINAL``, ``CHANCE`` or ``DECISION`` per node, int8.
        player: acting player per node (``-1`` for terminal, ``P`` for chance), int8.
        infoset: information set of every decision node (``-1`` elsewhere), int32.
        child_start: first child of every node (children are contiguous; ``-1`` for terminals), ``I``;
            ``child_count`` how many (the smallest signed integer type that holds the largest count).
        edge_owner: who chose the edge into each node (the parent's player; ``-1`` for the root), int8.
        edge_slot: slot of the edge into each node when the parent is a decision node, else ``-1``, int32.
        edge_action: the pyspiel action of the edge into each node (``-1`` for the root), int16 or int32.
        chance_prob: probability of the edge into each node when the parent is a chance node, else ``1``, float64.
        utility_index: row of ``utilities`` holding each terminal's utilities (``-1`` elsewhere), int32.
        utilities: ``(K, P)`` float64, the distinct utility vectors of the terminals.
        infoset_player, infoset_keys, infoset_slot_start: owner (int8), information-state string and first slot
            (int64) of every information set; ``infoset_slot_start[-1]`` is the number of slots. ``infoset_keys`` is
            a sequence of strings (a compact :class:`KeyTable` from the pyspiel walk).
        slot_infoset, slot_action: the information set and pyspiel action of every slot (int32).
        player_slots: ``player_slots[p]:player_slots[p + 1]`` are player ``p``'s slots (likewise ``player_infosets``).
        infoset_parent_slot: the player's own previous slot before reaching the information set (``-1`` if none);
            always smaller than the information set's own slots.
        infoset_level: how many own decisions the player made before reaching the information set.
        infoset_uniform_depth: per player, whether every information set's histories share one tree depth (then a
            best response needs a single bottom-up pass).
        compile_seconds: wall time of the compile.
    """

    game: object
    num_players: int
    depth_start: np.ndarray
    parent: np.ndarray
    kind: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    child_start: np.ndarray
    child_count: np.ndarray
    edge_owner: np.ndarray
    edge_slot: np.ndarray
    edge_action: np.ndarray
    chance_prob: np.ndarray
    utility_index: np.ndarray
    utilities: np.ndarray
    infoset_player: np.ndarray
    infoset_keys: Sequence[str]
    infoset_slot_start: np.ndarray
    slot_infoset: np.ndarray
    slot_action: np.ndarray
    player_slots: np.ndarray
    player_infosets: np.ndarray
    infoset_parent_slot: np.ndarray
    infoset_level: np.ndarray
    infoset_uniform_depth: np.ndarray
    compile_seconds: float
    _plan: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self._plan = _LazyPlan(self)

    # ------------------------------------------------------------------ sizes
    @property
    def num_nodes(self) -> int:
        """Number of histories (nodes) in the tree."""
        return int(self.parent.shape[0])

    @property
    def num_infosets(self) -> int:
        """Number of information sets, all players together."""
        return int(self.infoset_player.shape[0])

    @property
    def num_slots(self) -> int:
        """Number of (information set, legal action) pairs, all players together."""
        return int(self.slot_infoset.shape[0])

    @property
    def max_depth(self) -> int:
        """Depth of the deepest node (the root has depth 0)."""
        return int(self.depth_start.shape[0] - 2)

    @property
    def returns(self) -> np.ndarray:
        """``(P, N)`` float64 utilities of every terminal node (zero elsewhere).

        Built on each access from ``utilities`` and ``utility_index`` (8 * P bytes per history): the solvers never
        use it; it is here for callers that want the plain table on a small tree.
        """
        out = np.zeros((self.num_players, self.num_nodes), dtype=np.float64)
        term = np.flatnonzero(self.utility_index >= 0)
        out[:, term] = self.utilities[self.utility_index[term]].T
        return out

    @property
    def nbytes(self) -> int:
        """Bytes held by the compiled tree: its numpy arrays and its information-state table (cached pass plans
        included when built)."""
        return _nbytes([v for k, v in self.__dict__.items() if k != "_plan"]) + _nbytes(dict(self._plan))

    def summary(self) -> dict:
        """Counts, compile time and memory as a plain dict (what ``python -m cfr`` prints)."""
        return {
            "game": str(self.game),
            "histories": self.num_nodes,
            "terminals": int(np.count_nonzero(self.kind == TERMINAL)),
            "infosets_per_player": [int(n) for n in np.diff(self.player_infosets)],
            "slots": self.num_slots,
            "max_depth": self.max_depth,
            "compile_seconds": round(self.compile_seconds, 4),
            "bytes": self.nbytes,
        }

    def infoset_index(self) -> dict[str, int]:
        """Map from information-state string to information-set index."""
        return {key: i for i, key in enumerate(self.infoset_keys)}

    def uniform_policy(self) -> np.ndarray:
        """The uniform random profile as a slot array."""
        counts = np.diff(self.infoset_slot_start)
        return 1.0 / counts[self.slot_infoset]

    # ---------------------------------------------------------- pass planning
    def plan(self) -> dict:
        """Index arrays of the numpy formulation of the passes, each built on first use and kept.

        The solvers and evaluators of this package run compiled kernels straight on the node arrays and do not use
        these; they stay for callers that gather over edges with numpy (e.g. ``plan()["player_edges"][p]``: the
        nodes entered by player ``p``'s decisions). Keys: ``nonterminal``, ``child_offsets`` (per depth),
        ``decision_edges``, ``terminals``, ``player_edges``, ``player_edge_parent``, ``player_edge_local_slot`` (per
        player), ``infoset_rep``, ``level_slots``.
        """
        return self._plan


class _LazyPlan(dict):
    """The plan dict: a missing key is built from the compiled tree when first read."""

    def __init__(self, cg: CompiledGame):
        super().__init__()
        self._cg = cg

    def __missing__(self, key):
        cg = self._cg
        if key in ("nonterminal", "child_offsets"):
            starts = cg.depth_start
            nonterm, offsets = [], []
            for d in range(cg.max_depth + 1):
                nodes = np.arange(starts[d], starts[d + 1])
                nodes = nodes[cg.kind[nodes] != TERMINAL]
                nonterm.append(nodes)
                offsets.append(cg.child_start[nodes] - starts[d + 1] if nodes.size else nodes)
            self["nonterminal"], self["child_offsets"] = nonterm, offsets
        elif key == "decision_edges":
            self[key] = np.flatnonzero(cg.edge_slot >= 0)
        elif key == "terminals":
            self[key] = np.flatnonzero(cg.kind == TERMINAL)
        elif key == "player_edges":
            self[key] = [np.flatnonzero((cg.edge_owner == p) & (cg.edge_slot >= 0)) for p in range(cg.num_players)]
        elif key == "player_edge_parent":
            self[key] = [cg.parent[e] for e in self["player_edges"]]
        elif key == "player_edge_local_slot":
            self[key] = [cg.edge_slot[e] - cg.player_slots[p] for p, e in enumerate(self["player_edges"])]
        elif key == "infoset_rep":
            # A representative history for each information set (all share the owner's own reach by perfect recall).
            rep = np.full(cg.num_infosets, -1, dtype=np.int64)
            dec = np.flatnonzero(cg.kind == DECISION)
            rep[cg.infoset[dec][::-1]] = dec[::-1]
            self[key] = rep
        elif key == "level_slots":
            slot_level = cg.infoset_level[cg.slot_infoset]
            slot_parent = cg.infoset_parent_slot[cg.slot_infoset]
            slot_player = cg.infoset_player[cg.slot_infoset]
            groups_by_player = []
            for p in range(cg.num_players):
                groups = []
                for lv in range(int(cg.infoset_level.max(initial=0)) + 1):
                    slots = np.flatnonzero((slot_level == lv) & (slot_player == p))
                    if slots.size:
                        groups.append((slots, np.where(slot_parent[slots] >= 0, slot_parent[slots], cg.num_slots)))
                groups_by_player.append(groups)
            self[key] = groups_by_player
        else:
            raise KeyError(key)
        return self[key]
