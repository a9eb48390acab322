"""``gamelearn train GAME az --name NAME`` (self-play training, kept in the store by the keeper) and
``gamelearn curves GAME SPEC [SPEC...]`` (learning curves graded against the perfect player).
Parsing and rendering only: the work is in gamelearn.experiments.training and .curves."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..experiments import curves as curves_module
from ..experiments.training import Checkpoint, grading_positions, train_self_play
from ..games import GAME_NAMES, get_game
from ..keeper import Keeper
from ..match import DEFAULT_MAX_PLIES
from ..players.knowledge import Learner
from ..players.registry import make_player
from ..solve import solve
from ..store.db import Store
from .common import SEED_MAX, SEED_MIN, check_name, console, err_console, fail, output_dir, print_json

#: The checkpoint lines' header, aligned with checkpoint_line (fits 80 columns).
CHECKPOINT_HEADER = f"{'time':>7} {'games':>9} {'steps':>8} {'loss':>6} {'v.loss':>6} {'games/s':>8} {'pos/s':>8} {'best':>6} {'keeps':>6}"


def checkpoint_line(point: Checkpoint, graded: bool) -> str:
    best = f"{100 * point.best_share:.1f}%" if graded else "-"
    keeps = f"{100 * point.keeps_share:.1f}%" if graded else "-"
    return (
        f"{point.seconds:>6.0f}s {point.games:>9,} {point.steps:>8,} {point.loss:>6.3f} {point.value_loss:>6.3f} "
        f"{point.games_per_second:>8.1f} {point.positions_per_second:>8,.0f} {best:>6} {keeps:>6}"
    )


def register(app: typer.Typer) -> None:
    @app.command()
    def train(
        game_name: Annotated[str, typer.Argument(metavar="GAME", help=f"one of {', '.join(GAME_NAMES)}")],
        learner: Annotated[str, typer.Argument(metavar="LEARNER", help="a self-play learner: az")],
        name: Annotated[str, typer.Option("--name", help="the name the learner is kept under in the store")],
        minutes: Annotated[float | None, typer.Option("--minutes", help="train for this long")] = None,
        games: Annotated[int | None, typer.Option("--games", help="train for this many self-play games")] = None,
        seed: Annotated[
            int, typer.Option("--seed", help="seed of a new learner (a kept one goes on with its own)")
        ] = 0,
        checkpoints: Annotated[int, typer.Option("--checkpoints", help="graded checkpoints along the way")] = 5,
        positions: Annotated[
            int, typer.Option("--positions", help="positions from real games graded at each checkpoint")
        ] = 300,
        grade: Annotated[
            bool, typer.Option("--grade/--no-grade", help="grade checkpoints against the perfect player")
        ] = True,
        parallel: Annotated[
            int | None, typer.Option("--parallel", help="self-play games at once (default per game; hundreds on a GPU)")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print the checkpoints as JSON")] = False,
    ) -> None:
        """Train a self-play learner (az) for --minutes or --games and keep it in the store under
        --name (a name already kept goes on from where it was); checkpoints show the loss, the
        self-play speed and the share of best moves on positions from real games."""
        try:
            game = get_game(game_name)
        except ValueError as error:
            fail(str(error))
        if minutes is None and games is None:
            fail("say how long to train: --minutes M or --games N")
        if minutes is not None and not minutes > 0:
            fail(f"--minutes must be above 0, not {minutes}")
        if games is not None and games < 1:
            fail(f"--games must be at least 1, not {games}")
        if checkpoints < 1 or positions < 1:
            fail("--checkpoints and --positions must be at least 1")
        name = check_name("--name", name)
        spec = f"{learner}:name={name}" if ":" not in learner else f"{learner},name={name}"
        try:
            player = make_player(game, spec, seed=seed)
        except ValueError as error:
            fail(str(error))
        if not isinstance(player, Learner) or not hasattr(player, "self_play"):
            fail(
                f"{learner!r} does not learn by self-play; train learns az (the others learn from games: play, curves)"
            )
        solution = None
        if grade:
            try:
                solution = solve(game)
            except ValueError as error:
                fail(
                    f"grading needs {game.name}'s solution: run `gamelearn solve {game.name}` first, or --no-grade ({error})"
                )
        shown: Console = err_console if as_json else console
        with Store() as store:
            keeper = Keeper(store)
            try:
                resumed = keeper.attach(player)
            except ValueError as error:
                fail(str(error))
            if parallel is not None:
                try:
                    getattr(player, "trainer").play_in_batches_of(parallel)  # noqa: B009 - az's, checked above
                except ValueError as error:
                    fail(f"--parallel: {error}")
            counts = player.describe()
            shown.print(
                f"{'Going on with' if resumed else 'A new'} az {name!r} for {game.name}: "
                f"{counts['games']:,} games, {counts['steps']:,} steps, {counts['weights']:,} weights."
            )
            grading = grading_positions(game, positions) if solution is not None else []
            shown.print(
                "Checkpoints: loss (policy + value), self-play speed after the first batch, and the share of "
                f"best moves (keeps: value-keeping) on {len(grading)} positions from real games.",
                markup=False,
            )
            shown.print(CHECKPOINT_HEADER, markup=False)
            columns: list[Any] = [TextColumn("{task.description}"), BarColumn()]
            columns += [MofNCompleteColumn()] if games else []
            columns += [TimeElapsedColumn(), TimeRemainingColumn()]
            with Progress(*columns, console=shown, transient=True) as progress:
                task = progress.add_task("self-play", total=games if games else 60 * (minutes or 0))
                started = time.perf_counter()

                def on_batch(played: int, of: int) -> None:
                    progress.update(task, completed=played if of else time.perf_counter() - started)

                def on_checkpoint(point: Checkpoint) -> None:
                    progress.console.print(checkpoint_line(point, solution is not None), markup=False)

                try:
                    points = train_self_play(
                        player,
                        solution,
                        grading,
                        minutes,
                        games,
                        checkpoints,
                        on_batch=on_batch,
                        on_checkpoint=on_checkpoint,
                    )
                except ValueError as error:
                    fail(str(error))
            keeper.save(player)
        if as_json:
            print_json({"game": game.name, "name": name, "checkpoints": [p.to_dict() for p in points]})
            return
        console.print(f"Kept as az {name!r} ({len(grading)} graded positions); play it with --second az:name={name}.")

    @app.command()
    def curves(
        game_name: Annotated[str, typer.Argument(metavar="GAME", help=f"one of {', '.join(GAME_NAMES)}")],
        specs: Annotated[
            list[str], typer.Argument(metavar="SPEC [SPEC...]", help="learner specs: her, him, menace, td, thesis, az")
        ],
        against: Annotated[
            str, typer.Option("--against", help="the opponent they train and are measured against")
        ] = "random",
        games: Annotated[int, typer.Option("--games", help="training games per learner")] = 100,
        every: Annotated[int, typer.Option("--every", help="measure a frozen copy every this many games")] = 10,
        seeds: Annotated[int, typer.Option("--seeds", help="independent learners per spec")] = 5,
        eval_games: Annotated[int, typer.Option("--eval-games", help="games a measurement plays")] = 20,
        seed: Annotated[
            int, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="seed of every game (same seed, same curves)")
        ] = 0,
        max_plies: Annotated[
            int, typer.Option("--max-plies", help="ply limit; reaching it is a draw")
        ] = DEFAULT_MAX_PLIES,
        workers: Annotated[int | None, typer.Option("--workers", help="local processes (1: in this process)")] = None,
        dask: Annotated[
            str | None, typer.Option("--dask", metavar="ADDRESS|local", help="run on a Dask cluster")
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option(
                "--out", metavar="DIR", help="folder for the CSV and PNG (default: plots/ in the data directory)"
            ),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    ) -> None:
        """Learning curves: each learner SPEC trained --seeds times for --games games against
        --against, a frozen copy measured every --every games (score, and its moves graded by the
        perfect player); mean and 95% band over seeds as PNG and CSV, kept in the store."""
        try:
            game = get_game(game_name)
        except ValueError as error:
            fail(str(error))
        if max_plies < 1:
            fail(f"--max-plies must be at least 1, not {max_plies}")
        try:
            curves_module.check_arguments(game, specs, against, games, every, seeds, eval_games, workers or 1)
        except ValueError as error:
            fail(str(error))
        shown: Console = err_console if as_json else console
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        started = time.perf_counter()
        with Progress(*columns, console=shown, transient=as_json) as progress:
            task = progress.add_task("learners", total=len(specs) * seeds)
            try:
                result = curves_module.run_curves(
                    game,
                    specs,
                    against,
                    games,
                    every,
                    seeds,
                    seed=seed,
                    eval_games=eval_games,
                    max_plies=max_plies,
                    workers=workers,
                    dask=dask,
                    progress=lambda n: progress.advance(task, n),
                )
            except ValueError as error:
                fail(str(error))
        payload = result.to_dict()
        payload["seconds"] = round(time.perf_counter() - started, 3)
        folder = output_dir(out, "plots")
        with Store() as store:
            number = store.save_result("curves", payload)
        try:
            csv_path, png_path = curves_module.write_files(result, folder / f"curves-{game.name}-seed{seed}")
        except (ValueError, OSError) as error:
            fail(f"--out: {error} (the result is saved: curves #{number})")
        if as_json:
            print_json({**payload, "result_id": number, "files": [str(csv_path), str(png_path)]})
            return
        table = Table(box=box.SIMPLE_HEAD, title=f"{game.name} against {against}, % (mean [95% band], {seeds} seed(s))")
        for name in ("spec", "games", "score", "best", "keeps", "mistakes", "blunders"):
            table.add_column(name, justify="left" if name == "spec" else "right")
        for row in result.rows():
            cells = [row["spec"], str(row["games"])]
            for measure in curves_module.MEASURES:
                mean, low, high = row[f"{measure}_mean"], row[f"{measure}_low"], row[f"{measure}_high"]
                if mean != mean:  # NaN: no move was graded
                    cells.append("-")
                elif measure in ("score", "best"):
                    cells.append(f"{100 * mean:.0f} [{100 * low:.0f}-{100 * high:.0f}]")
                else:
                    cells.append(f"{100 * mean:.0f}")
            table.add_row(*cells)
        console.print(table)
        console.print(f"{csv_path} and {png_path} written; kept in the store as result {number}.")
