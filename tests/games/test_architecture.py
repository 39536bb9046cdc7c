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
