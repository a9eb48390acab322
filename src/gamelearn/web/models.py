"""The JSON API's answers: the services build each answer as one of these models, the routes
return it, and /openapi.json documents it from the same class.

Each answer allows keys beyond those declared (``extra="allow"``): a learner's view carries its
own counts (TD's entries, the network's weights), a learner's ``explain`` its own words.  A route
whose answer leaves keys out sends only the keys the service set
(``response_model_exclude_unset``), never a declared key filled in with a default the service did
not give: the page tells "not said" from a default (a decision without a box).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

#: A value a game's or a player's option takes (a count, a switch, a word).
OptionValue = str | int | float | bool | None


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


# A game --------------------------------------------------------------------------------------------


class RecallRow(Answer):
    """A position the thesis memory holds that a legal move reaches."""

    move: str
    board: str
    record: int = Field(description="the record's index in the memory, in file order")
    x_wins: int
    o_wins: int
    score: int
    chosen: bool


class Decision(Answer):
    """What a learner looked at for a move: a matchbox's box and bead, the thesis memory's recall."""

    learner: str | None = None
    box: str | None = Field(default=None, description="the board of the box it opened")
    mirrored: bool = Field(default=False, description="the box is for the board turned or mirrored")
    bead: str | None = Field(default=None, description="the bead it drew")
    resigned: bool = Field(default=False, description="the box was empty: it gave up")
    note: str = ""
    move: str | None = None
    adviser: str | None = Field(default=None, description="which of the thesis program's advisers chose the move")
    recall: list[RecallRow] = Field(default_factory=list, description="the first rows of the recall")
    recall_total: int = 0
    error: str = ""


class PlyEventOut(Answer):
    ply: int
    side: int
    move: str = Field(description="empty for a resignation")
    by: str = Field(description="the player spec that moved")
    human: bool
    decision: Decision | None = None


class BeadChangeOut(Answer):
    box: str | None = Field(description="the box whose beads changed; None for a change in words")
    removed: list[str]
    added: list[str]
    text: str = ""


class LessonOut(Answer):
    """What a learner learned from the game that just ended."""

    side: int
    kind: str
    text: str = Field(description="the lesson in one line")
    lost: bool = Field(description="the learner lost this game")
    changes: list[BeadChangeOut]


class BoxOut(Answer):
    board: str
    beads: list[tuple[str, int]] = Field(description="(move, count) pairs; a count of 0 is a lost bead's empty ring")
    count: int = Field(description="the beads in the box")


class LearnerPanel(Answer):
    """A learner at the table, as it knows things now, with the server's words about it."""

    side: int
    kind: str
    name: str = Field(default="", description="how the page names the learner in a sentence (HER, MENACE)")
    learns_when: str = Field(default="", description="when the learner learns, for a game that taught it nothing")
    export_label: str = Field(default="", description="the label of the link that downloads the learner")
    error: str = ""
    available: bool = Field(default=True, description="false: the learner cannot show what it knows here (see reason)")
    reason: str = ""
    boxes_total: int = 0
    beads_total: int = 0
    games: int = 0
    boxes: list[BoxOut] = Field(default_factory=list)
    memory_entries: int = 0
    advice: AdviceOut | None = Field(default=None, description="why the learner is stuck, and its remedies")


class GameView(Answer):
    """A game as the page draws it, with what happened in the request and the learners at the table."""

    id: str
    game: str
    spec: str = Field(description="the game's spec (a form of Teeko names its options)")
    players: list[str]
    humans: list[bool]
    symbols: list[str]
    rows: int
    columns: int
    square_names: list[str]
    rules: str
    board: str
    to_move: int | None = Field(description="the side to move; None once the game is over")
    pawn_side: int | None = Field(
        description="whose pawn the next ply puts down or moves: in an Alternate drop round, not the side to move"
    )
    legal_moves: list[str]
    human_to_move: bool
    computer_to_move: bool
    moves: list[str]
    last_move: str | None
    last_squares: list[int]
    drops: dict[str, int] = Field(
        default_factory=dict,
        description="a column game's (connect4) legal moves, each with the square its disc lands on",
    )
    over: bool
    winner: int | None
    end: str | None
    result: str = Field(description="the game's state in a sentence")
    why: str
    winning_squares: list[int]
    can_take_back: bool
    seed: int
    max_plies: int
    events: list[PlyEventOut] = Field(default_factory=list)
    learning: list[LessonOut] = Field(default_factory=list)
    learners: list[LearnerPanel] = Field(default_factory=list)
    no_learner: str = Field(default="", description="what the page says at a table with no learner")


class OptionOut(Answer):
    """An option of a game (Teeko's forms) or of a player, as the page offers it."""

    name: str
    default: OptionValue = None
    help: str = ""
    type: str = Field(default="", description="a player option's kind: int, switch or text")
    min: int | None = None
    max: int | None = None
    values: list[str] = Field(default_factory=list)
    labels: dict[str, str] = Field(default_factory=dict)
    pattern: str | None = None


class PlayerInfo(Answer):
    name: str
    title: str = Field(description="how the page names the player in a sentence (HER, MENACE)")
    first_move_wait: str = Field(description="what the page says while the player's first move is slow to come")
    trains: bool = Field(
        default=False, description="it trains from the page in this game (POST /api/learners/{kind}/training)"
    )
    summary: str | None = Field(default=None, description="what the player is (left out with players=false)")
    options: list[OptionOut] | None = Field(default=None, description="its options (left out with players=false)")


class GameInfo(Answer):
    """A game and the players it accepts."""

    name: str
    spec: str
    options: list[OptionOut]
    symbols: list[str]
    rows: int
    columns: int
    square_names: list[str]
    rules: str
    players: list[PlayerInfo] = Field(
        description="the player kinds the game accepts; with players=false each only by name and words"
    )
    defaults: list[str] = Field(description="the players the page seats first")
    form_defaults: list[str] = Field(description="the players the page seats first for a form of the game")


class MoveValue(Answer):
    value: int = Field(description="+1 win, 0 draw, -1 loss with best play, for the side to move")
    distance: int | None = Field(
        default=None, description="plies to the end with best play, this move counted; None: a draw"
    )
    grade: str = ""
    squares: list[int] = Field(default_factory=list, description="the squares the move joins (the analysis board's)")


class LineStep(Answer):
    move: str
    side: int = Field(description="the side that plays the move")


class Analysis(Answer):
    available: bool
    reason: str
    moves: dict[str, MoveValue]
    value: int | None = Field(default=None, description="the position's value for the side to move")
    distance: int | None = Field(default=None, description="plies to the end with best play; None: a draw")
    best_line: list[LineStep] = Field(
        default_factory=list,
        description="the perfect player's line from here: each `move` and its `side` (12 plies at most)",
    )
    best_line_over: bool = Field(
        default=True, description="the game is over at the best line's end (else it is cut short)"
    )


class MoveView(Answer):
    """What a learner makes of one legal move, in its own terms."""

    text: str = Field(description="in words: the beads for it, its record, its value")
    score: int | float | None = Field(description="the number the words give (beads, a value), to rank moves by")
    bead: str | None = Field(default=None, description="a matchbox learner's bead for the move")


class MoveViews(Answer):
    """A learner's view of a position: ``note`` on the position as a whole, ``moves`` each legal
    move it has something to say of."""

    note: str
    box: str | None = Field(default=None, description="a matchbox learner's box for the position")
    moves: dict[str, MoveView]


class SeatView(Answer):
    """What the player seated on the side to move makes of each legal move, in its own terms."""

    side: int
    spec: str
    kind: str
    name: str
    view: MoveViews | None = Field(
        description="`note` on the position and `moves`: each move's `text` and `score` (None: no view)"
    )
    none: str = Field(description="why there is no view (a person, a player that keeps no knowledge)")


class AnalysisBoard(Answer):
    """A position of the analysis board: what the page draws and what each move is worth."""

    game: str
    spec: str
    moves: list[str]
    board: str
    to_move: int | None
    pawn_side: int | None
    legal_moves: list[str]
    last_squares: list[int]
    drops: dict[str, int] = Field(
        default_factory=dict,
        description="a column game's (connect4) legal moves, each with the square its disc lands on",
    )
    over: bool
    winner: int | None
    winning_squares: list[int]
    perfect: Analysis
    value: int | None = Field(default=None, description="the exact value from the first player's side")
    distance: int | None = None
    learners: list[SeatView]


# Review ------------------------------------------------------------------------------------------


class PositionValue(Answer):
    board: str
    to_move: int
    value: int = Field(description="the exact value from the first player's side")
    distance: int | None
    over: bool
    winning_squares: list[int] = Field(default_factory=list, description="where a won game's win is, to light")


class Measure(Answer):
    """The yardstick's tally of one side's moves in a game: positions, moves kept, best, blunders."""

    positions: int
    keeps: int
    best: int
    blunders: int


class GradedPly(Answer):
    ply: int
    side: int
    move: str
    squares: list[int]
    grade: str = Field(description="best, keeps, mistake or blunder")
    best: list[str]
    best_squares: list[int]


class Review(Answer):
    game: str
    spec: str
    moves: list[str]
    rows: int = Field(default=0, description="the board of the game's form: rows, columns and square names")
    columns: int = 0
    square_names: list[str] = Field(default_factory=list)
    available: bool
    reason: str
    positions: list[PositionValue] = Field(default_factory=list)
    plies: list[GradedPly] = Field(default_factory=list)
    grades: list[dict[str, int]] = Field(default_factory=list)
    measure: list[Measure] = Field(default_factory=list)
    id: str = ""
    record: int = 0
    players: list[str] = Field(default_factory=list)
    seats: list[str] = Field(
        default_factory=list,
        description="the players as the analysis board seats them: a record's person (a name, no kind) as human",
    )
    shared: str = Field(default="", description="the share token of a shared game's review (read-only)")


class ShareLink(Answer):
    token: str = Field(description="unguessable: whoever has the link sees the game's review")
    url: str = Field(description="the page at the shared game: /?shared=TOKEN")


class RecordRow(Answer):
    id: int
    game: str
    players: list[str]
    winner: int | None
    end: str
    plies: int


class TableStatus(Answer):
    game: str
    ready: bool
    reason: str
    buildable: bool
    building: bool
    stage: str
    fraction: float
    elapsed: float | None
    error: str


# Learners ----------------------------------------------------------------------------------------


class KeptLearner(Answer):
    kind: str
    name: str


class ResetAnswer(Answer):
    kind: str
    game: str
    deleted: bool = Field(description="there was something to forget")


class BoxesPage(Answer):
    kind: str
    show: str
    total: int = Field(description="the boxes shown, over all pages")
    boxes_total: int
    beads_total: int | None
    offset: int
    boxes: list[BoxOut]


class FirstBox(Answer):
    kind: str
    box: str
    empty_board: bool
    opened_first: int
    moves: list[str]
    games: int
    from_game: int | None = Field(description="after how many games the box first exists (None: not yet)")
    series: list[dict[str, int] | None] = Field(description="the beads of each move after each game")


class MemoryRecord(Answer):
    record: int
    board: str
    x_wins: int
    o_wins: int


class MemoryPage(Answer):
    kind: str
    entries: int
    total: int
    offset: int
    records: list[MemoryRecord]


class Chart(Answer):
    """Gardner's chart: a letter a game from the learner's side."""

    game: str
    learner: str | None
    letters: str = Field(description="W won, L lost, D drawn, oldest first")
    games: int
    wins: int
    losses: int
    draws: int


class TrainingPoint(Answer):
    games: int
    keeps: float
    best: float
    blunders: float
    run: int = Field(default=0, description="which of the runs (0: the first) the point was graded in")
    side: int | None = Field(default=None, description="the side the learner was graded on (None: both)")
    positions: int = Field(default=0, description="the positions of the suite it was graded in")


class RemedyOut(Answer):
    label: str
    text: str
    options: str = Field(default="", description="the learner's options that make the remedy (restock=on)")
    opponent: str = Field(default="", description="the opponent to train against, a player spec (perfect:random=0.5)")


class AdviceOut(Answer):
    """Why a learner is stuck, in its own terms (its empty boxes), and the remedies it offers."""

    text: str
    places: list[str] = Field(default_factory=list, description="where: the boards of its empty boxes (some)")
    remedies: list[RemedyOut] = Field(default_factory=list)


class TrainingRunOut(Answer):
    """One run of this browser's learner: whom it played, with which options, and its results."""

    opponent: str
    options: str = ""
    played: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


class TrainingStatus(Answer):
    kind: str
    game: str
    running: bool
    played: int
    games: int
    points: list[TrainingPoint]
    max_games: int = 0
    opponents: list[str] = Field(default_factory=list)
    opponent: str = ""
    side: int | None = None
    seed: int = 0
    fraction: float = 0.0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    error: str | None = None
    suite: str = ""
    options: str = Field(default="", description="the learner's options in this run (restock=on)")
    opponent_specs: dict[str, str] = Field(
        default_factory=dict, description="each opponent's player spec (self: the learner)"
    )
    runs: list[TrainingRunOut] = Field(default_factory=list, description="this browser's runs, oldest first")
    advice: AdviceOut | None = Field(default=None, description="why the learner is stuck now, once no run is going")


class WarmUpState(Answer):
    kinds: dict[str, dict[str, str]] = Field(
        description="each player kind warmed up, with its state per game: waiting, loading, ready or skipped"
    )


class EveryBoxOut(BoxOut):
    opened: bool = Field(description="the learner has opened the box (else: its beads as it will open)")


class EveryBox(Answer):
    kind: str
    side: int
    total: int
    opened: int
    offset: int
    boxes: list[EveryBoxOut]
