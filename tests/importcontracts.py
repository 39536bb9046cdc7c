"""An import-linter contract type of our own: ``only_imports``.

The built-in contracts say what a module may *not* import; the games' rules engines have
a rule that is a list of what they *may* import: themselves, the standard library and
the shared kit (``games.enginekit``), nothing else (no Django, no platform module, no
other game, no third-party package unless the contract names it). ``lint-imports`` finds
this module because it runs from the repository's root (pyproject ``[tool.importlinter]``
``contract_types``).

Options: ``source_modules`` (packages; each may import its own modules), ``allowed_modules``
(packages any source may import) and ``standard_library`` (default true: any module of
Python's standard library).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import grimp
from importlinter import Contract, ContractCheck, fields, output
from importlinter.domain.helpers import module_expressions_to_modules


@dataclass(frozen=True, order=True)
class Stray:
    """An import the contract does not allow: who imports what, on which lines."""

    importer: str
    imported: str
    lines: tuple[int, ...]


def _within(module: str, packages: set[str]) -> bool:
    return any(module == p or module.startswith(f"{p}.") for p in packages)


class OnlyImportsContract(Contract):
    type_name = "only_imports"

    source_modules = fields.SetField(subfield=fields.ModuleExpressionField())
    allowed_modules = fields.SetField(subfield=fields.ModuleExpressionField(), required=False)
    standard_library = fields.BooleanField(required=False, default=True)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        sources = self._names(graph, self.source_modules)
        allowed = self._names(graph, self.allowed_modules or set())
        strays = []
        for source in sorted(sources):
            own = {source}
            for module in sorted({source} | graph.find_descendants(source)):
                for imported in sorted(graph.find_modules_directly_imported_by(module)):
                    if self._allowed(imported, own | allowed):
                        continue
                    details = graph.get_import_details(importer=module, imported=imported)
                    lines = tuple(sorted(d["line_number"] for d in details))
                    strays.append(Stray(module, imported, lines))
            output.verbose_print(verbose, f"Checked what {source} imports.")
        return ContractCheck(kept=not strays, metadata={"strays": strays})

    @staticmethod
    def _names(graph: grimp.ImportGraph, expressions: object) -> set[str]:
        return {m.name for m in module_expressions_to_modules(graph, expressions)}

    def _allowed(self, imported: str, packages: set[str]) -> bool:
        if _within(imported, packages):
            return True
        return bool(self.standard_library) and imported.split(".")[0] in sys.stdlib_module_names

    def render_broken_contract(self, check: ContractCheck) -> None:
        for stray in check.metadata["strays"]:
            lines = ", ".join(f"l.{n}" for n in stray.lines)
            output.print_error(
                f"{stray.importer} is not allowed to import {stray.imported} ({lines})",
                bold=False,
            )
            output.new_line()
