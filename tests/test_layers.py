"""The layers point one way (README's layout): every import of src/gamelearn, at the top of a module
or inside a function, read with ``ast``, goes down the layers or stays in its own."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "gamelearn"

#: What each part of the package may import from gamelearn (besides itself).  ``paths`` is a leaf
#: every layer may use, ``jit`` (numba's njit with its disk cache) one the compiled kernels use;
#: the package's __init__ is the public facade over all of them.
ALLOWED: dict[str, set[str]] = {
    "games": set(),
    "classroom": {"games"},
    "solve": {"games", "paths", "jit"},
    "players": {"games", "solve", "paths", "jit"},
    "store": {"games", "paths"},
    "match": {"games", "players", "store", "solve", "paths", "keeper"},
    "keeper": {"games", "players", "store", "solve", "paths", "match"},
    "experiments": {"games", "solve", "players", "store", "match", "keeper", "paths"},
    "envs": {"games", "solve", "players", "store", "match", "keeper", "experiments", "paths"},
    "web": {"games", "solve", "players", "store", "match", "keeper", "experiments", "paths"},
    "cli": {"games", "solve", "players", "store", "match", "keeper", "experiments", "paths", "envs"},
    # The OpenSpiel bridge numbers actions with the environments' codec; nothing imports it.
    "openspiel": {"games", "solve", "players", "match", "paths", "envs"},
    "paths": set(),
    "jit": set(),
    "__main__": {"cli"},  # `python -m gamelearn`: the command, above every layer
}
#: The one import between interfaces: `gamelearn serve` starts the web app.
EXCEPTIONS = {("cli/web.py", "web")}


def part_of(relative: Path) -> str:
    return relative.parts[0].removesuffix(".py")


def is_part(source: Path, name: str) -> bool:
    return (source / name).is_dir() or (source / f"{name}.py").is_file()


def imported_parts(path: Path, source: Path = SOURCE) -> set[str]:
    """The parts of gamelearn that ``path`` imports, relative imports resolved."""
    relative = path.relative_to(source)
    package = list(relative.parts[:-1])
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # Imports under `if TYPE_CHECKING:` are for the type checker, not run time: skipped.
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
                names = [target] if node.module else [target + [alias.name] for alias in node.names]
            elif node.module and node.module.startswith("gamelearn"):
                names = [node.module.split(".")[1:]]
            else:
                continue
            # `from .. import __version__` names the package itself, not a part of it
            found.update(name[0] for name in names if name and is_part(source, name[0]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "gamelearn" and len(parts) > 1:
                    found.add(parts[1])
    return found


def test_no_module_imports_up_the_layers() -> None:
    wrong = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE)
        if relative == Path("__init__.py"):
            continue  # the public API gathers every layer
        part = part_of(relative)
        for target in sorted(imported_parts(path) - {part}):
            key = (relative.as_posix(), target)
            if target not in ALLOWED[part] and key not in EXCEPTIONS:
                wrong.append(f"{relative}: {part} imports {target}")
    assert wrong == []


def test_the_walker_sees_relative_absolute_and_lazy_imports(tmp_path: Path) -> None:
    module = tmp_path / "players" / "sneaky.py"
    module.parent.mkdir()
    module.write_text(
        "from .base import Player\n"
        "import gamelearn.solve.kernels\n"
        "def save():\n"
        "    from ..store.db import Store\n"
        "    from .. import match\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from ..web import app\n"
    )
    for name in ("base.py", "../store/db.py", "../match.py", "../solve/kernels.py", "../web/app.py"):
        (module.parent / name).parent.mkdir(exist_ok=True)
        (module.parent / name).touch()
    assert imported_parts(module, tmp_path) == {"players", "solve", "store", "match"}
