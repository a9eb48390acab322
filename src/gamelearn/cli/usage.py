"""One error style for every mistake on the command line: Click's own usage errors (an unknown
command or option, a value out of range, a missing argument) read as gamelearn's own do, one line
``gamelearn: error: ...`` on stderr and exit status 2, instead of Typer's boxed panel.  A mistyped
option gets the one it most likely meant, as a mistyped game, player or command does."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from ..games import did_you_mean
from .common import err_console

#: Click's own suggestion for a mistyped command, written as gamelearn writes its own.
_CLICKS_HINT = re.compile(r"\. Did you mean (.+)\?$")


def usage_line(error: Any) -> str:
    """The one line that names a usage error: what is wrong, the likeliest meant name, where to look."""
    message = error.format_message().strip()
    if type(error).__name__ == "NoSuchOption":  # Typer bundles its own Click: known by name, as Typer does
        ctx = error.ctx
        known = [name for param in ctx.command.params for name in param.opts] if ctx is not None else []
        known += list(error.possibilities or ())
        message = f"no such option {error.option_name}{did_you_mean(error.option_name, known)}"
    message = " ".join(message.split())  # Click breaks long messages over lines: one line here
    message = _CLICKS_HINT.sub(r" (did you mean \1?)", message).rstrip(".")
    ctx = getattr(error, "ctx", None)
    if ctx is not None and ctx.command.get_help_option(ctx) is not None:
        message += f" (see {ctx.command_path} {ctx.help_option_names[0]})"
    return f"gamelearn: error: {message[:1].lower()}{message[1:]}"


class OneLineErrors(TyperGroup):
    """The top-level command group: Click's usage errors in gamelearn's one-line style."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as error:  # Click's errors (Typer's ClickException is one)
            code = getattr(error, "exit_code", 2)
            if type(error).__name__ != "NoArgsIsHelpError":  # `gamelearn` alone has shown its help
                err_console.print(usage_line(error), markup=False, soft_wrap=True)
            sys.exit(code)
        except typer.Abort:  # EOF at a Click prompt
            err_console.print("gamelearn: aborted", markup=False)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)
