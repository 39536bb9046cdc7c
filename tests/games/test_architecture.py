"""The layout the import contracts describe, checked module by module: no import cycle
anywhere in the platform, the games, tournaments or the daily challenges (``lint-imports`` checks the
contracts between packages and siblings; this checks every pair of modules)."""

from __future__ import annotations

import grimp


def test_no_module_of_games_or_tournaments_imports_itself_back() -> None:
    graph = grimp.build_graph(
        "games", "tournaments", "challenges", "evergreen", exclude_type_checking_imports=True
    )
    ours = ("games", "tournaments", "challenges")
    cycles = [
        (module, imported)
        for module in sorted(m for m in graph.modules if m.startswith(ours))
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.startswith(ours) and graph.chain_exists(imported, module)
    ]
    assert cycles == []


def test_the_rules_engine_imports_without_django() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import games.evergreen.rules as r; "
        "r.new_game(2, 1); assert 'django' not in sys.modules, 'django was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_only_imports_contract_names_each_import_outside_its_list() -> None:
    """The contract behind "an engine imports only itself, the standard library and the
    kit" (tests/importcontracts.py) fails on Django, another game and the platform."""
    from tests.importcontracts import OnlyImportsContract, Stray

    graph = grimp.ImportGraph()
    for module in ("games", "games.a", "games.a.rules", "games.a.rules.engine", "games.b"):
        graph.add_module(module)
    for module in ("games.kit", "games.kit.rng", "games.b.rules", "games.kinds"):
        graph.add_module(module)
    graph.add_module("django", is_squashed=True)
    graph.add_module("json", is_squashed=True)
    engine = "games.a.rules.engine"
    for line, imported in enumerate(
        ("games.a.rules", "games.kit.rng", "json", "django", "games.b.rules", "games.kinds"), 1
    ):
        graph.add_import(importer=engine, imported=imported, line_number=line, line_contents="")
    contract = OnlyImportsContract(
        name="engines",
        session_options={},
        contract_options={"source_modules": ["games.*.rules"], "allowed_modules": ["games.kit"]},
    )

    check = contract.check(graph, verbose=False)

    assert not check.kept
    assert check.metadata["strays"] == [
        Stray(engine, "django", (4,)),
        Stray(engine, "games.b.rules", (5,)),
        Stray(engine, "games.kinds", (6,)),
    ]
