"""What the games' rules engines share, written once: pure Python like the engines.

Evergreen's engine (``games.evergreen.rules``) and Verdant's (``games.verdant.rules``)
both import it; it imports neither of them, nothing of Django and nothing of the
platform (import-linter contracts in ``pyproject.toml``). Its modules:

* ``rng``: the seeded generator kept inside a game state (SplitMix64), bots' seeds;
* ``errors``: the one error hierarchy, every error with a stable ``code``;
* ``records``: the envelope of a game record (format, version, seed, players, options,
  moves, result) and the replay of its moves;
* ``editions``: the editions shipped as JSON beside an engine (a ``Shelf``);
* ``titles``: the solo title a score earns;
* ``jsonread``: small readers of a move's JSON values;
* ``cli``: what both command lines do alike (reading input, exit status, replay checks);
* ``bench``: the benchmarks' figures, CPU pinning, timing loops and worker processes.
"""
