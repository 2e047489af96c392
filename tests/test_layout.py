"""The layout's promises that import-linter's contracts (pyproject.toml, checked by ``lint-imports`` in CI) do not
state per module: a game's engine modules import only their own package and the shared engine helpers, and the
core finds every game through the registry."""

import grimp
import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.registry import PARTS, game_entry, game_names

#: Modules of a game package that read the engine from outside (everything else in the package is the engine).
#: (``abstraction``, ``training``, ``trained_play``: the trained player built on trustme_analysis.train.)
READERS = {"bots", "records", "stats", "strategy", "pages", "describe", "abstraction", "training", "trained_play"}
ALLOWED_FOR_ENGINES = ("trustme_analysis.engine", "trustme_analysis.registry")


def _engine_modules(graph, package: str) -> list[str]:
    return sorted(m for m in graph.find_descendants(package) if m.split(".")[-1] not in READERS)


def test_engine_modules_import_only_their_package_and_the_engine_helpers():
    graph = grimp.build_graph("trustme_analysis")
    packages = sorted({m.rsplit(".", 1)[0] for m in graph.find_descendants("trustme_analysis.games")
                       if m.count(".") == 3})
    assert {"trustme_analysis.games.pinocchio", "trustme_analysis.games.board1981",
            "trustme_analysis.games.liar"} <= set(packages)
    offending = []
    for package in packages:
        for module in _engine_modules(graph, package):
            for imported in graph.find_modules_directly_imported_by(module):
                inside = imported == package or imported.startswith(package + ".")
                if not inside and not imported.startswith(ALLOWED_FOR_ENGINES):
                    offending.append(f"{module} -> {imported}")
    assert offending == []


def test_every_registered_game_loads_and_names_parts_that_exist():
    assert {"trustme_pinocchio", "trustme_1981", "trustme_1981_investment", "trustme_liar"} <= set(game_names())
    for name in game_names():
        entry = game_entry(name)
        assert pyspiel.load_game(name).get_type().short_name == name
        for part in PARTS:
            if getattr(entry, part) is not None:
                assert entry.part(part) is not None, (name, part)
