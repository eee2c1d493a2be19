"""The shape of the package, read from its source: no import cycle among sim's modules, and the
world's mutations reached only by the systems (rendering only reads).

Every import statement counts, the ones inside functions too: an import moved into a function
to dodge a cycle still runs, so the cycle is still there, only hidden (DESIGN.md)."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from source_trees import parsed

SIM = Path(__file__).resolve().parents[1] / "sim"


def modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package at ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (anywhere in its body). ``from a import b``
    names module ``a.b`` when there is one, else ``a``; a name that is not one of the package's
    modules stands for the closest package that is. (sim's own is worked out once per test
    process: a copy of it.)"""
    if root == SIM:
        return {m: set(d) for m, d in _sim_graph().items()}
    return _import_graph(root)


@lru_cache(maxsize=1)
def _sim_graph() -> dict[str, set[str]]:
    return _import_graph(SIM)


def _import_graph(root: Path) -> dict[str, set[str]]:
    mods = modules(root)

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        found = set()
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.Import):
                found |= {known(a.name) for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the importing module's package
                    up = package
                    for _ in range(node.level - 1):
                        up = up.rpartition(".")[0]
                    base = f"{up}.{base}" if base else up
                found |= {known(f"{base}.{a.name}") if f"{base}.{a.name}" in mods else known(base)
                          for a in node.names}
        found.discard(None)
        found.discard(mod)
        graph[mod] = found
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path [a, b, ..., a], or None (depth-first, in sorted order)."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(m: str) -> list[str] | None:
        path.append(m)
        on_path.add(m)
        for n in sorted(graph.get(m, ())):
            if n in on_path:
                return path[path.index(n):] + [n]
            if n not in done:
                found = visit(n)
                if found:
                    return found
        path.pop()
        on_path.discard(m)
        done.add(m)
        return None

    for m in sorted(graph):
        if m not in done:
            found = visit(m)
            if found:
                return found
    return None


def test_sim_has_no_import_cycle():
    graph = import_graph(SIM)
    assert "sim.commands" in graph["sim.battle"]  # (the graph is read)
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_planning_imports_nothing_of_the_phase_machine():
    """sim.phases (the battle round's state machine) reads sim.plan (who may fight, 12.04); the
    plan never reads the phases back, so the two packages do not import each other. The
    vocabulary both name (phases, steps, players) is sim.rules.turn."""
    graph = import_graph(SIM)
    plan = sorted(m for m in graph if m == "sim.plan" or m.startswith("sim.plan."))
    assert "sim.plan.fight" in graph["sim.phases.fight_order"]  # (the graph is read)
    reached = {m: sorted(d for d in graph[m] if d == "sim.phases" or d.startswith("sim.phases."))
               for m in plan}
    assert {m: d for m, d in reached.items() if d} == {}


def test_errors_import_nothing_of_sim():
    """Everyone may import sim.errors because it imports nothing back."""
    assert import_graph(SIM)["sim.errors"] == set()


def reachable(graph: dict[str, set[str]], start, through=lambda m: True) -> set[str]:
    """The modules importing ``start`` loads, following only modules ``through`` accepts."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            if through(m):
                todo += graph[m]
    return seen


CARRY_OUT = ("sim.systems.", "sim.phases.", "sim.commands.", "sim.stratagems.")
"""The packages that carry out what a battle does: the systems, the battle round, the commands'
and the stratagems' records (their apply and effects, which only the systems run)."""


def test_only_what_carries_out_commands_imports_the_world_mutations():
    graph = import_graph(SIM)
    importers = sorted(m for m, deps in graph.items() if "sim.world.mutations" in deps)
    assert importers and all(m.startswith(CARRY_OUT) for m in importers), importers


RECORDS = ("sim.commands", "sim.stratagems")


def test_the_sandbox_reaches_the_world_mutations_only_through_the_battle():
    """Rendering only reads (DESIGN.md): no sandbox module imports sim.world.mutations, nor any
    module that does, except by way of sim.battle (whose systems run the commands the sandbox
    submits) and the records of the commands and stratagems (sim.commands, sim.stratagems: the
    sandbox builds commands and reads records; their apply and effects run only in the battle's
    systems)."""
    graph = import_graph(SIM)
    sandbox = [m for m in graph if m.startswith("sim.sandbox")]
    assert "sim.world.queries" in reachable(graph, sandbox)  # (it does read the world)
    seen = reachable(graph, sandbox, through=lambda m: m != "sim.battle" and not m.startswith(RECORDS))
    assert "sim.world.mutations" not in seen
    assert "sim.world.mutations" in reachable(graph, ["sim.battle"])  # (the check can fail)


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    """The checker itself: the cycle this project once had (battle -> systems -> validate ->
    battle, closed by an import inside a function) is reported."""
    pkg = tmp_path / "sim"
    (pkg / "systems").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "errors.py").write_text("class Refusal(Exception):\n    pass\n")
    (pkg / "battle.py").write_text("from sim.errors import Refusal\n\n"
                                   "def start():\n    from sim.systems import register\n")
    (pkg / "systems" / "__init__.py").write_text("def register():\n    from . import selection\n")
    (pkg / "systems" / "selection.py").write_text("from sim import validate\n")
    (pkg / "validate.py").write_text("def answer():\n    from sim.battle import Refusal\n")
    graph = import_graph(pkg)
    assert graph["sim.systems"] == {"sim.systems.selection"}
    assert find_cycle(graph) == ["sim.battle", "sim.systems", "sim.systems.selection",
                                 "sim.validate", "sim.battle"]
    (pkg / "validate.py").write_text("def answer():\n    from sim.errors import Refusal\n")
    assert find_cycle(import_graph(pkg)) is None


def package_of(module: str) -> str:
    """The top-level package a module belongs to (sim.rules.visibility.index -> sim.rules);
    a top-level module is its own (sim.battle)."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Top-level package -> the other top-level packages its modules import."""
    out: dict[str, set[str]] = {}
    for m, deps in graph.items():
        a = package_of(m)
        out.setdefault(a, set()).update(package_of(d) for d in deps if package_of(d) != a)
    return out


def test_sims_packages_import_each_other_without_a_cycle():
    """The layers of DESIGN.md, read off the code: the rules import no other package but its
    own; the world, the plan, the systems, the battle round, the commands and the stratagems each
    import only what lies below them; no two packages import each other, however indirectly."""
    packages = package_graph(import_graph(SIM))
    assert "sim.plan" in packages["sim.commands"]  # (the graph is read)
    cycle = find_cycle(packages)
    assert cycle is None, "package import cycle: " + " -> ".join(cycle)
    assert packages["sim.rules"] == set(), packages["sim.rules"]  # (pure: nothing of sim but itself)


def test_the_package_cycle_check_can_fail():
    assert find_cycle(package_graph({"sim.a.x": {"sim.b.y"}, "sim.b.y": {"sim.c"}, "sim.c": {"sim.a.z"},
                                     "sim.a.z": set()})) == ["sim.a", "sim.b", "sim.c", "sim.a"]


def private_imports(root: Path = SIM) -> list[str]:
    """``from sim.x import _name`` across top-level packages: a private name is its package's own."""
    found = []
    for mod, path in modules(root).items():
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(root.name):
                for a in node.names:
                    if a.name.startswith("_") and package_of(node.module) != package_of(mod):
                        found.append(f"{mod} imports {node.module}.{a.name}")
    return sorted(found)


def test_no_package_imports_another_ones_private_names():
    assert private_imports() == []


def test_the_private_import_check_can_fail(tmp_path):
    pkg = tmp_path / "sim"
    (pkg / "a").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a" / "__init__.py").write_text("def _secret():\n    pass\n")
    (pkg / "b.py").write_text("from sim.a import _secret\n")
    assert private_imports(pkg) == ["sim.b imports sim.a._secret"]
