"""The board of Trust Me (1981) as data: spaces, their kinds, connections, and movement by exact count.

A board is a TOML file (the default is ``trustme_analysis/games/board1981/engine/board.toml``) with ``[[property]]``
tables (``name``, ``street``) and ``[[space]]`` tables (``id``, ``kind``, ``links``, and ``property`` for a colored
property space or ``area`` -- a street -- for a Hot Tip space; ``pos = [x, y]`` only for drawing). :func:`load_board` checks it
and fails naming the space and the problem (unknown kind, link to an unknown space, unreachable space, no Company, ...).

Movement (the rule "move ... the number of spaces that you roll. You may move either forward or backward, but not
diagonally") is defined on the graph as a *walk without reversing*: a path of exactly ``k`` steps along connections in
which no step goes straight back to the space just left. At a junction (a space with three or more connections) the
walk may take any branch but the one it came from; between turns the direction is free again. The destinations of a
roll are the end spaces of all such walks. A player with a claim may also stop on the Company as soon as a walk of at
most ``k`` steps reaches it (rule "you don't have to land on this space by exact count").
"""

from __future__ import annotations

import tomllib
from collections import deque
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

#: The space kinds of the rule text, by their names in the board file.
PROPERTY = "property"
WHITE = "white"
HOT_TIP = "hot_tip"
WILD_GOOSE_CHASE = "wild_goose_chase"
COMPANY = "company"
SPACE_KINDS = (PROPERTY, WHITE, HOT_TIP, WILD_GOOSE_CHASE, COMPANY)

#: The parameter value meaning "the built-in board".
DEFAULT_BOARD = "default"
#: The path of a small ring board shipped beside the default one (4 briefcases: the ``board`` parameter's example).
SMALL_BOARD = str(Path(__file__).with_name("small_board.toml"))


class BoardError(ValueError):
    """A board file is malformed; the message names the file, the space (or table) and the problem."""

    def __init__(self, source: str, where: str, problem: str):
        self.source = source
        self.where = where
        self.problem = problem
        super().__init__(f"board {source}: {where}: {problem}")


@dataclass(frozen=True)
class Board:
    """A checked board: spaces indexed ``0..S-1``, properties ``0..P-1``, all fixed data (kept on the Game).

    Attributes:
        name: the board's title.
        source: where it was read from (``"default"`` or a path).
        space_ids: the ``id`` of each space.
        kinds: the kind of each space (one of :data:`SPACE_KINDS`).
        neighbours: for each space, the sorted indices of connected spaces.
        space_property: for each space, the property index of a colored space, else -1.
        hot_tip_area: for each space, the street index a Hot Tip points at, else -1.
        positions: ``(x, y)`` per space for drawing, or ``None`` where the file gives none.
        property_names: the name of each property.
        property_street: the street index of each property.
        streets: the street names, in order of first appearance.
        company: the index of the Trust Me Investment Company space.
        wild_goose_chase: the indices of the Wild Goose Chase spaces, in file order.
        property_spaces: for each property, the indices of its colored spaces in file order.
    """

    name: str
    source: str
    space_ids: tuple[str, ...]
    kinds: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    space_property: tuple[int, ...]
    hot_tip_area: tuple[int, ...]
    positions: tuple[tuple[float, float] | None, ...]
    property_names: tuple[str, ...]
    property_street: tuple[int, ...]
    streets: tuple[str, ...]
    company: int
    wild_goose_chase: tuple[int, ...]
    property_spaces: tuple[tuple[int, ...], ...]
    _moves: dict = field(default_factory=dict, compare=False, repr=False)

    def __deepcopy__(self, memo: dict) -> "Board":
        # Immutable once built: clones of a state share it (pyspiel clones Python states with copy.deepcopy).
        return self

    @property
    def num_spaces(self) -> int:
        """How many spaces the board has."""
        return len(self.space_ids)

    @property
    def num_properties(self) -> int:
        """How many properties (briefcases) the board has."""
        return len(self.property_names)

    def area_properties(self, street: int) -> tuple[int, ...]:
        """The properties on ``street`` (a Hot Tip's area)."""
        return tuple(p for p, s in enumerate(self.property_street) if s == street)

    def destinations(self, start: int, steps: int) -> tuple[tuple[int, ...], bool]:
        """Where a roll of ``steps`` can end from ``start``, and whether the Company is reached on the way.

        Returns:
            ``(exact, company_within)``: the sorted end spaces of all walks of exactly ``steps`` steps without
            reversing, and whether some such walk of 1 to ``steps`` steps reaches the Company (a claimant may stop
            there). Cached per ``(start, steps)``.
        """
        key = (start, steps)
        cached = self._moves.get(key)
        if cached is not None:
            return cached
        company_within = False
        # Each frontier entry is (space, space just left); -1 means "no previous space" at the start of a turn.
        frontier = {(start, -1)}
        for _ in range(steps):
            nxt = set()
            for space, prev in frontier:
                for n in self.neighbours[space]:
                    if n != prev:
                        nxt.add((n, space))
                        if n == self.company:
                            company_within = True
            frontier = nxt
        result = (tuple(sorted({space for space, _ in frontier})), company_within)
        self._moves[key] = result
        return result


def _read(board: str) -> tuple[dict, str]:
    if board == DEFAULT_BOARD:
        text = resources.files(__package__).joinpath("board.toml").read_text("utf-8")
        return tomllib.loads(text), DEFAULT_BOARD
    path = Path(board)
    if not path.is_file():
        raise BoardError(board, "file", "no such file (give 'default' or the path of a board TOML file)")
    try:
        return tomllib.loads(path.read_text("utf-8")), str(path)
    except tomllib.TOMLDecodeError as err:
        raise BoardError(board, "file", f"not valid TOML: {err}") from None


def load_board(board: str = DEFAULT_BOARD) -> Board:
    """Read and check a board file (``"default"`` for the built-in board).

    Raises:
        BoardError: naming the space or table and the problem.
    """
    data, src = _read(board)
    props = data.get("property")
    if not isinstance(props, list) or not props:
        raise BoardError(src, "[[property]]", "no properties: the board needs [[property]] tables (name, street)")
    property_names: list[str] = []
    streets: list[str] = []
    property_street: list[int] = []
    for i, table in enumerate(props):
        name, street = table.get("name"), table.get("street")
        if not isinstance(name, str) or not name:
            raise BoardError(src, f"property #{i + 1}", "missing 'name' (a string)")
        if not isinstance(street, str) or not street:
            raise BoardError(src, f"property {name!r}", "missing 'street' (a string)")
        if name in property_names:
            raise BoardError(src, f"property {name!r}", "listed twice")
        if street not in streets:
            streets.append(street)
        property_names.append(name)
        property_street.append(streets.index(street))
    if len(property_names) < 3:
        # The game ends when two briefcases remain, so fewer than three leaves nothing to play for.
        raise BoardError(src, "[[property]]", f"{len(property_names)} properties; at least 3 are needed")

    spaces = data.get("space")
    if not isinstance(spaces, list) or not spaces:
        raise BoardError(src, "[[space]]", "no spaces: the board needs [[space]] tables (id, kind, links)")
    ids: list[str] = []
    for i, table in enumerate(spaces):
        sid = table.get("id")
        if not isinstance(sid, str) or not sid:
            raise BoardError(src, f"space #{i + 1}", "missing 'id' (a string)")
        if sid in ids:
            raise BoardError(src, f"space {sid!r}", "id used twice")
        ids.append(sid)
    index = {sid: i for i, sid in enumerate(ids)}
    kinds: list[str] = []
    space_property: list[int] = []
    hot_tip_area: list[int] = []
    positions: list[tuple[float, float] | None] = []
    links: list[set[int]] = [set() for _ in ids]
    for i, table in enumerate(spaces):
        sid = ids[i]
        where = f"space {sid!r}"
        kind = table.get("kind")
        if kind not in SPACE_KINDS:
            raise BoardError(src, where, f"unknown kind {kind!r}; allowed: {', '.join(SPACE_KINDS)}")
        kinds.append(kind)
        prop = table.get("property")
        if kind == PROPERTY:
            if prop not in property_names:
                raise BoardError(src, where, f"property {prop!r} is not one of the [[property]] names")
            space_property.append(property_names.index(prop))
        else:
            if prop is not None:
                raise BoardError(src, where, f"only 'property' spaces name a property (kind is {kind!r})")
            space_property.append(-1)
        area = table.get("area")
        if kind == HOT_TIP:
            if area not in streets:
                raise BoardError(src, where, f"Hot Tip area {area!r} is not a street; streets: {', '.join(streets)}")
            hot_tip_area.append(streets.index(area))
        else:
            if area is not None:
                raise BoardError(src, where, f"only 'hot_tip' spaces have an area (kind is {kind!r})")
            hot_tip_area.append(-1)
        for other in table.get("links", []):
            if other not in index:
                raise BoardError(src, where, f"link to unknown space {other!r}")
            if other == sid:
                raise BoardError(src, where, "links to itself")
            links[i].add(index[other])
            links[index[other]].add(i)
        pos = table.get("pos")
        if pos is None:
            positions.append(None)
        elif isinstance(pos, list) and len(pos) == 2 and all(isinstance(v, (int, float)) for v in pos):
            positions.append((float(pos[0]), float(pos[1])))
        else:
            raise BoardError(src, where, f"pos {pos!r} is not [x, y]")

    companies = [i for i, k in enumerate(kinds) if k == COMPANY]
    if not companies:
        raise BoardError(src, "[[space]]", "no Company: one space must have kind 'company'")
    if len(companies) > 1:
        raise BoardError(src, f"space {ids[companies[1]]!r}", "a second Company; the board has exactly one")
    company = companies[0]
    wgc = tuple(i for i, k in enumerate(kinds) if k == WILD_GOOSE_CHASE)
    if not wgc:
        raise BoardError(src, "[[space]]", "no Wild Goose Chase space (kind 'wild_goose_chase')")
    property_spaces = tuple(
        tuple(i for i, p in enumerate(space_property) if p == q) for q in range(len(property_names))
    )
    for q, sp in enumerate(property_spaces):
        if not sp:
            raise BoardError(src, f"property {property_names[q]!r}", "has no colored space in front of it")
    # Every space must be reachable from the Company, where every piece starts.
    seen = {company}
    queue = deque([company])
    while queue:
        for n in links[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    for i, sid in enumerate(ids):
        if i not in seen:
            raise BoardError(src, f"space {sid!r}", "unreachable from the Company")
        if len(links[i]) < 2:
            # A dead end would stop a walk without reversing; the rule text's board has none.
            raise BoardError(src, f"space {sid!r}", f"has {len(links[i])} connection(s); every space needs 2 or more")

    return Board(
        name=str(data.get("name", src)),
        source=src,
        space_ids=tuple(ids),
        kinds=tuple(kinds),
        neighbours=tuple(tuple(sorted(s)) for s in links),
        space_property=tuple(space_property),
        hot_tip_area=tuple(hot_tip_area),
        positions=tuple(positions),
        property_names=tuple(property_names),
        property_street=tuple(property_street),
        streets=tuple(streets),
        company=company,
        wild_goose_chase=wgc,
        property_spaces=property_spaces,
    )
