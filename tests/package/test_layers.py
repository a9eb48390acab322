"""The layers point one way (README's layout): every import of src/gamelearn, at the top of a module,
inside a function or under ``if TYPE_CHECKING:`` (a type is a dependency too), read with ``ast``,
goes down the layers or stays in its own."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "gamelearn"

#: What each part of the package may import from gamelearn (besides itself).  ``paths`` and
#: ``files`` (the one atomic writer and file lock, of the standard library alone) are leaves the
#: layers that write files may use, ``jit`` (numba's njit with its disk cache) one the compiled kernels use;
#: the package's __init__ is the public facade over all of them.  The play layer is match (one
#: game, kept through a keeper it is given), keeper and knowledge_formats (the store's side), and
#: play (the public API's games, which wire the default keeper): match and keeper never meet.
BELOW_INTERFACES = {
    "games",
    "solver",
    "players",
    "store",
    "match",
    "keeper",
    "knowledge_formats",
    "play",
    "paths",
    "files",
}
ALLOWED: dict[str, set[str]] = {
    "games": set(),
    "classroom": {"games"},
    "solver": {"games", "paths", "files", "jit"},
    "players": {"games", "solver", "paths", "jit"},
    "store": {"games", "paths", "files"},
    "match": {"games", "players", "solver", "paths"},
    "knowledge_formats": {"games", "players", "store", "solver", "paths", "files"},
    "keeper": {"games", "players", "store", "solver", "paths", "files", "knowledge_formats"},
    "play": {"games", "players", "store", "solver", "paths", "files", "match", "keeper", "knowledge_formats"},
    "experiments": BELOW_INTERFACES,
    "envs": BELOW_INTERFACES | {"experiments"},
    "web": BELOW_INTERFACES | {"experiments"},
    "cli": BELOW_INTERFACES | {"experiments", "envs"},
    # The OpenSpiel bridge numbers actions with the environments' codec; nothing imports it.
    "openspiel": {"games", "solver", "players", "match", "paths", "envs"},
    "paths": set(),
    "files": set(),
    "jit": set(),
    "__main__": {"cli"},  # `python -m gamelearn`: the command, above every layer
}
#: The one import between interfaces: `gamelearn serve` starts the web app.
EXCEPTIONS = {("cli/web.py", "web")}

#: The 1999 thesis program is one package, gamelearn.thesis, whose modules stand at the layers of
#: what they do: its engine and player at the players' (the registry loads the player by name, as
#: it loads its own modules), its files and memory tables at the store's, its kept memory at the
#: play layer's, its batch, experiment and console game at the experiments', its commands at the
#: CLI's and its console page at the web's.  Each module imports what its layer may, of
#: gamelearn and of the package alike.
THESIS_LAYERS = {
    **dict.fromkeys(
        (
            "board",
            "engine",
            "evaluation",
            "fixes",
            "heuristics",
            "knowledge",
            "memory",
            "opening",
            "player",
            "rng",
            "rules",
            "search",
        ),
        "players",
    ),
    "files": "store",
    "memories": "store",
    "kept": "knowledge_formats",
    **dict.fromkeys(
        (
            "batch",
            "batch_run",
            "brain",
            "chart",
            "console",
            "console_original",
            "experiment",
            "runs",
            "screens",
            "trace",
            "transcript",
        ),
        "experiments",
    ),
    "commands": "cli",
    "web": "web",
    "web_routes": "web",
    # the package's own __init__: the player, and its kept memory registered with the play layer
    "__init__": "knowledge_formats",
}
#: The only modules outside gamelearn.thesis that import it: the interfaces wire its commands
#: and its page in, as they do their own (the registry and the knowledge formats are told of it
#: by the package itself).
THESIS_DOORS = {"cli/main.py", "web/app.py"}


def thesis_layer(parts: list[str]) -> str:
    """The layer of the module of gamelearn.thesis that ``parts`` (after ``thesis``) name."""
    return THESIS_LAYERS[parts[0].removesuffix(".py") if parts else "__init__"]


def part_of(relative: Path) -> str:
    if relative.parts[0] == "thesis":
        return thesis_layer(list(relative.parts[1:]))
    return relative.parts[0].removesuffix(".py")


def is_part(source: Path, name: str) -> bool:
    return (source / name).is_dir() or (source / f"{name}.py").is_file()


def imported_parts(path: Path, source: Path = SOURCE) -> set[str]:
    """The parts of gamelearn that ``path`` imports, relative imports resolved."""
    relative = path.relative_to(source)
    package = list(relative.parts[:-1])
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
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
            found.update(layer_of(name, source) for name in names if name and is_part(source, name[0]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "gamelearn" and len(parts) > 1:
                    found.add(layer_of(parts[1:], source))
    return found


def layer_of(name: list[str], source: Path) -> str:
    """The part a module's name (under gamelearn) stands in: a thesis module's layer."""
    if name[0] != "thesis" or not (source / "thesis").is_dir():
        return name[0]
    inner = name[1:2] if len(name) > 1 and is_part(source / "thesis", name[1]) else []
    return thesis_layer(inner)


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


def test_only_the_interfaces_import_the_thesis_program() -> None:
    """Below the interfaces nothing names gamelearn.thesis: the registry loads its player by name
    and the package registers its knowledge format and its tables itself."""
    wrong = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE)
        if relative.parts[0] == "thesis" or relative.as_posix() in THESIS_DOORS:
            continue
        if any(module.startswith("thesis/") for module in imported_modules(path)):
            wrong.append(relative.as_posix())
    assert wrong == []


def test_every_thesis_module_has_a_layer() -> None:
    assert {path.stem for path in (SOURCE / "thesis").glob("*.py")} <= set(THESIS_LAYERS)


def test_the_walker_sees_relative_absolute_and_lazy_imports(tmp_path: Path) -> None:
    module = tmp_path / "players" / "sneaky.py"
    module.parent.mkdir()
    module.write_text(
        "from .base import Player\n"
        "import gamelearn.solver.kernels\n"
        "def save():\n"
        "    from ..store.store import Store\n"
        "    from .. import match\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from ..web import app\n"
    )
    for name in ("base.py", "../store/store.py", "../match.py", "../solver/kernels.py", "../web/app.py"):
        (module.parent / name).parent.mkdir(exist_ok=True)
        (module.parent / name).touch()
    assert imported_parts(module, tmp_path) == {"players", "solver", "store", "match", "web"}


def test_the_walker_gives_each_thesis_module_its_layer(tmp_path: Path) -> None:
    """An import of a thesis module counts as an import of its module's layer: the engine may not
    reach the batch (experiments) or the store, nor the package's __init__ (the play layer's)."""
    package = tmp_path / "thesis"
    package.mkdir()
    for name in ("__init__", "engine", "batch", "memories", "commands"):
        (package / f"{name}.py").touch()
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "store.py").touch()
    (package / "engine.py").write_text(
        "from .batch import run\nfrom ..store.store import Store\nfrom . import memories\nimport gamelearn.thesis\n",
        encoding="utf-8",
    )
    assert part_of(Path("thesis/engine.py")) == "players"
    assert imported_parts(package / "engine.py", tmp_path) == {"experiments", "store", "knowledge_formats"}


def test_match_and_keeper_never_import_each_other() -> None:
    """Match keeps only through a keeper it is given (a protocol), and the keeper knows no match:
    not at run time, not for types."""
    assert "keeper" not in imported_parts(SOURCE / "match.py")
    assert "match" not in imported_parts(SOURCE / "keeper.py")
    assert "store" not in imported_parts(SOURCE / "match.py")  # a match opens no store of its own


def module_file(parts: list[str], source: Path = SOURCE) -> Path | None:
    """The file of the module ``parts`` name under ``source`` (a package's __init__), or None."""
    place = source.joinpath(*parts)
    if parts and place.with_suffix(".py").is_file():
        return place.with_suffix(".py")
    return place / "__init__.py" if (place / "__init__.py").is_file() else None


def imported_modules(path: Path, source: Path = SOURCE) -> set[str]:
    """The modules of gamelearn that ``path`` imports (at the top, inside a function or for types
    only), as paths under ``source``: ``from .x import y`` is the module ``x/y.py`` where there is
    one, else ``x``."""
    relative = path.relative_to(source)
    package = list(relative.parts[:-1])
    found: set[Path | None] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                module = package[: len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "gamelearn":
                module = node.module.split(".")[1:]
            else:
                continue
            found.update(
                module_file(module + [alias.name], source) or module_file(module, source) for alias in node.names
            )
        elif isinstance(node, ast.Import):
            found.update(
                module_file(alias.name.split(".")[1:], source)
                for alias in node.names
                if alias.name.split(".")[0] == "gamelearn"
            )
    return {module.relative_to(source).as_posix() for module in found if module is not None} - {relative.as_posix()}


#: The pairs of modules that still import each other: none (issue "a house by its parts" cut the
#: last of them along their seams), and none may be added.
STILL_MUTUAL: set[tuple[str, str]] = set()


def mutual_pairs(source: Path = SOURCE) -> set[tuple[str, str]]:
    graph = {path.relative_to(source).as_posix(): imported_modules(path, source) for path in source.rglob("*.py")}
    return {(a, b) for a, imported in graph.items() for b in imported if a < b and a in graph.get(b, set())}


def test_no_new_pair_of_modules_imports_each_other() -> None:
    """Two modules that import each other are one idea cut in two, or two ideas tangled: a module
    holds one idea whole, however long (there is no line cap), and ideas depend one way."""
    found = mutual_pairs()
    assert found - STILL_MUTUAL == set()
    assert STILL_MUTUAL - found == set(), "cut apart: take the pair off STILL_MUTUAL"


def test_the_pair_finder_sees_a_pair_through_any_kind_of_import(tmp_path: Path) -> None:
    package = tmp_path / "players"
    package.mkdir()
    (package / "__init__.py").touch()
    (package / "a.py").write_text("def f():\n    from .b import g\n", encoding="utf-8")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n", encoding="utf-8"
    )
    (package / "c.py").write_text("from gamelearn.players.a import f\n", encoding="utf-8")
    assert mutual_pairs(tmp_path) == {("players/a.py", "players/b.py")}
