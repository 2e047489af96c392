"""The layout's promises that import-linter's contracts (pyproject.toml, checked by ``lint-imports`` in CI) do not
state per module: a game package shows its parts as sub-packages (``engine/``, ``kernel/``, ``players/``,
``analysis/``), the modules of its ``engine/`` import only that folder and the shared engine helpers, so the rules
live in the engine alone, and the core finds every game through the registry."""

import grimp
import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.registry import PARTS, game_entry, game_names

#: The sub-packages of a game package; its own modules beside them are only its ``__init__``.
PARTS_OF_A_GAME = {"engine", "kernel", "players", "analysis"}
ALLOWED_FOR_ENGINES = ("trustme_analysis.engine",)


def _game_packages(graph) -> list[str]:
    return sorted({".".join(m.split(".")[:3]) for m in graph.find_descendants("trustme_analysis.games")
                   if m.count(".") >= 3})


def test_each_game_package_is_made_of_its_parts():
    graph = grimp.build_graph("trustme_analysis")
    packages = _game_packages(graph)
    assert {"trustme_analysis.games.pinocchio", "trustme_analysis.games.board1981",
            "trustme_analysis.games.liar"} <= set(packages)
    loose = sorted(m for p in packages for m in graph.find_children(p) if m.rsplit(".", 1)[1] not in PARTS_OF_A_GAME)
    assert loose == []
    for package in packages:
        assert f"{package}.engine" in graph.find_children(package), package


def test_engine_modules_import_only_their_engine_folder_and_the_engine_helpers():
    graph = grimp.build_graph("trustme_analysis")
    offending = []
    for package in _game_packages(graph):
        engine = f"{package}.engine"
        for module in sorted(graph.find_descendants(engine) | {engine}):
            for imported in graph.find_modules_directly_imported_by(module):
                inside = imported == engine or imported.startswith(engine + ".")
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
