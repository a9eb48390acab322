"""Recover the classroom page's hexapawn programs from its saved text, where they lost their line breaks.

The page ("Can a Machine Learn a Game by Itself?") was saved as text in which every line break of a
program vanished and each blank line became one space; paragraphs are still separated by a blank
line, and a program's printed output is the paragraph after it (its line breaks gone too).  So
``if a:\\n    b = 1\\n\\nc = 2`` reads ``if a:    b = 1 c = 2``.  The loss is undone in two steps:

1. **Runs of spaces.**  Outside string literals, a run of two or more spaces is a line break
   followed by the next line's indentation (4 spaces a level; one more when a blank line came
   first).  Inside brackets it was a continuation line; before a ``#`` it pads an inline comment
   (unless it follows a ``:`` and is whole indentation: then the comment opens the block); inside
   a comment it ends the comment, since the page's comments have single spaces.
2. **Statements at the margin.**  A line at the margin follows the one before with nothing between
   them (``show(board)board, bead = ...``, ``...mirror, showimport random``) or with one space
   where a blank line was.  A name that the program never uses again and that is two known names
   run together (``showimport``, ``randomrandom``, ``0for``) is cut between them; known names are
   keywords, builtins, the names the program imports and the names its code uses.  A statement
   that does nothing (a bare name, a constant, an annotation alone) is taken for prose, never for
   a line of the program.  A comment ends where the rest of its line, from a known
   name on, reads as statements (``# White moves its left pawnshow(board)...``).  The rest is cut
   at spaces into the fewest statements that each parse; if the fewest are not unique the
   extractor refuses rather than guess.

The result is checked whole: it parses, and putting the losses back (line breaks dropped, a blank
line turned into one space) gives the page's paragraph character for character.  The tests then
run each program and compare what it prints with the page.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
import warnings
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

NAME_RUN = re.compile(r"[A-Za-z0-9_]+")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
INDENT = 4


class ExtractionError(ValueError):
    """The text cannot be read back as a program without guessing."""


@dataclass(frozen=True)
class PageProgram:
    source: str  # the program with its line breaks back
    printed: str  # the page's printed output, its line breaks lost as on the page


@dataclass(frozen=True)
class _Piece:
    indent: int
    blank_before: bool
    text: str


def programs_on_page(page: str, imported_names: Iterable[str], first_line: str) -> list[PageProgram]:
    """Every program on the page (a paragraph beginning with ``first_line``), with the output after it."""
    paragraphs = page.split("\n\n")
    found = []
    for index, paragraph in enumerate(paragraphs):
        if paragraph.startswith(first_line):
            if index + 1 >= len(paragraphs):
                raise ExtractionError(f"the program in paragraph {index + 1} has no output after it")
            found.append(PageProgram(recover(paragraph, imported_names), paragraphs[index + 1]))
    return found


def flatten(source: str) -> str:
    """What saving the page did to a program: a blank line became one space, line breaks vanished."""
    return "".join(" " if line.strip() == "" else line for line in source.rstrip("\n").split("\n"))


def recover(paragraph: str, imported_names: Iterable[str] = ()) -> str:
    """The program whose saved text is ``paragraph`` (see the module's docstring)."""
    names = _known_names(paragraph, imported_names)
    lines: list[str] = []
    for piece in _split_runs(paragraph):
        for number, statement in enumerate(_split_statements(piece.text, names)):
            # The first statement keeps the run's indentation; the rest start at the margin, one
            # space before them standing for a blank line.
            blank = piece.blank_before if number == 0 else statement.startswith(" ")
            if blank:
                lines.append("")
            lines.append(" " * piece.indent + statement if number == 0 else statement[1:] if blank else statement)
    source = "\n".join(lines) + "\n"
    try:
        ast.parse(source)
    except SyntaxError as error:
        raise ExtractionError(f"the recovered program does not parse: {error}") from None
    if flatten(source) != paragraph:
        raise ExtractionError("the recovered program does not flatten back to the page's text")
    return source


# Step 1: runs of spaces -------------------------------------------------------------------------


def _split_runs(paragraph: str) -> list[_Piece]:
    pieces: list[_Piece] = []
    current: list[str] = []
    indent, blank_before = 0, False
    quote: str | None = None
    comment = False
    depth = 0  # open brackets
    k = 0
    while k < len(paragraph):
        ch = paragraph[k]
        if quote:
            current.append(ch)
            if ch == quote:
                quote = None
            k += 1
            continue
        if ch == " ":
            end = k
            while end < len(paragraph) and paragraph[end] == " ":
                end += 1
            run = end - k
            before = "".join(current).rstrip()
            opens_block = before.endswith(":") and run % INDENT == 0
            pads_a_comment = not comment and paragraph.startswith("#", end) and not opens_block
            if run >= 2 and depth > 0 and not comment:
                current.append("\n" + paragraph[k:end])  # a continuation line, indented as it likes
            elif run >= 2 and not pads_a_comment:
                if run % INDENT not in (0, 1):
                    raise ExtractionError(f"a run of {run} spaces at offset {k} is no indentation")
                pieces.append(_Piece(indent, blank_before, "".join(current)))
                blank_before = run % INDENT == 1
                indent = run - (1 if blank_before else 0)
                current, comment = [], False
            else:
                current.append(paragraph[k:end])
            k = end
            continue
        if not comment:
            if ch == "#":
                comment = True
            elif ch in "'\"":
                quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
        current.append(ch)
        k += 1
    if quote or depth:
        raise ExtractionError("a string literal or a bracket is not closed")
    pieces.append(_Piece(indent, blank_before, "".join(current)))
    return pieces


# Step 2: statements at the margin ---------------------------------------------------------------


def _code_spans(text: str) -> tuple[str, int]:
    """``text`` with string literals blanked, and where its comment starts (len(text) if none)."""
    out = []
    quote: str | None = None
    for k, ch in enumerate(text):
        if quote:
            out.append(" ")
            if ch == quote:
                quote = None
            continue
        if ch == "#":
            return "".join(out), k
        if ch in "'\"":
            quote = ch
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out), len(text)


@dataclass(frozen=True)
class _Names:
    """What names the program knows: keywords, builtins, what it imports, what its code uses."""

    imported: frozenset[str]
    uses: Counter[str]  # whole names in the code (comments and strings left out)

    def known(self, word: str) -> bool:
        return keyword.iskeyword(word) or hasattr(builtins, word) or word in self.imported or self.uses[word] > 0

    def whole(self, word: str) -> bool:
        return word.isdigit() or self.known(word)


def _outside_strings(text: str) -> list[bool]:
    """For each offset, whether it is outside every string literal (a closing quote is inside)."""
    outside = []
    quote: str | None = None
    for ch in text:
        outside.append(quote is None and ch not in "'\"")
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
    return outside


def _known_names(paragraph: str, imported_names: Iterable[str]) -> _Names:
    code_parts = []
    for piece in _split_runs(paragraph):
        code, comment_at = _code_spans(piece.text)
        code_parts.append(code[:comment_at])
    return _Names(frozenset(imported_names), Counter(NAME_RUN.findall(" ".join(code_parts))))


def _forced_cuts(code: str, names: _Names) -> set[int]:
    """Cuts inside a name used once that is two known names run together."""
    forced = set()
    for match in NAME_RUN.finditer(code):
        run = match.group()
        if run.isdigit() or keyword.iskeyword(run) or hasattr(builtins, run) or run in names.imported:
            continue
        if names.uses[run] > 1:
            continue
        splits = [
            j for j in range(1, len(run)) if names.whole(run[:j]) and WORD.fullmatch(run[j:]) and names.known(run[j:])
        ]
        if len(splits) > 1:
            raise ExtractionError(f"{run!r} splits into known names in {len(splits)} ways")
        if splits:
            forced.add(match.start() + splits[0])
    return forced


def _parses(statement: str) -> bool:
    body = statement.strip()
    if not body:
        return False
    candidates = [body]
    if _code_spans(body)[0][: _code_spans(body)[1]].rstrip().endswith(":"):
        # A compound statement's header: its body follows at a deeper indentation.
        candidates = [f"{body}\n    pass", f"if 1:\n    pass\n{body}\n    pass", f"try:\n    pass\n{body}\n    pass"]
    for candidate in candidates:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # "1for" and the like: most pieces tried are not code
            try:
                tree = ast.parse(candidate)
            except SyntaxError:
                continue
        # A statement that does nothing (a bare name, a constant, an annotation) is prose, not the
        # program's: "gives up" or "box: HER" parse, but no program line is like that.
        first = tree.body[0]
        if isinstance(first, ast.AnnAssign) and first.value is None:
            return False
        if isinstance(first, ast.Expr) and isinstance(first.value, (ast.Name, ast.Constant, ast.Attribute)):
            return False
        return True
    return False


def _fewest_statements(text: str, names: _Names) -> list[str] | None:
    """``text`` (no comment) cut into the fewest statements that parse, or None if it cannot be."""
    code, _ = _code_spans(text)
    forced = _forced_cuts(code, names)
    outside = _outside_strings(text)
    optional = {k for k in range(1, len(text)) if outside[k] and text[k] == " "}
    optional |= {k for k in range(1, len(text)) if outside[k] and WORD.match(text[k]) and text[k - 1] in ")]}'\""}
    cuts = sorted({0, len(text), *forced, *optional})
    best: list[tuple[int, int, int] | None] = [None] * len(cuts)  # (statements, ways, previous cut)
    best[0] = (0, 1, -1)
    for j in range(1, len(cuts)):
        for i in range(j - 1, -1, -1):
            entry = best[i]
            if entry is not None and _parses(text[cuts[i] : cuts[j]]):
                candidate = (entry[0] + 1, entry[1], i)
                current = best[j]
                if current is None or candidate[0] < current[0]:
                    best[j] = candidate
                elif candidate[0] == current[0]:
                    best[j] = (current[0], current[1] + entry[1], current[2])
            if cuts[i] in forced:
                break  # a statement never spans a forced cut
    final = best[-1]
    if final is None:
        return None
    if final[1] != 1:
        raise ExtractionError(f"{final[1]} equally short ways to read {text!r} as statements")
    statements = []
    j = len(cuts) - 1
    while j > 0:
        entry = best[j]
        assert entry is not None
        statements.append(text[cuts[entry[2]] : cuts[j]])
        j = entry[2]
    return statements[::-1]


def _split_statements(text: str, names: _Names) -> list[str]:
    _, comment_at = _code_spans(text)
    before = _fewest_statements(text[:comment_at], names) if comment_at else []
    if before is None:
        raise ExtractionError(f"no way to read {text[:comment_at]!r} as statements")
    if comment_at == len(text):
        return before
    # The comment ends at the first known name, run onto its text, from which the rest reads as
    # statements; else it runs to the end of the line.
    comment = text[comment_at:]
    for j in range(2, len(comment)):
        word = WORD.match(comment, j)
        if word is None or comment[j - 1] == " " or not names.known(word.group()):
            continue
        try:
            after = _fewest_statements(comment[j:], names)
        except ExtractionError:  # prose read more than one way: not where the comment ends
            continue
        if after is not None:
            return _attach(before, comment[:j]) + after
    return _attach(before, comment)


def _attach(statements: list[str], comment: str) -> list[str]:
    """The comment on the last statement's line, or on a line of its own."""
    if statements:
        return [*statements[:-1], statements[-1] + comment]
    return [comment]
