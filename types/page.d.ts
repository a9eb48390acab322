// The types of the page's store (src/gamelearn/web/static/js/store.js), for TypeScript's check of
// the page's scripts (jsconfig.json) only: nothing here is served.

/** One store of state: each renderer subscribed to a slice runs once after the patches that changed it. */
interface Store<S> {
  /** The state now (never changed in place: `set` makes a new one). */
  get(): Readonly<S>;
  /** Merges `patch`; the slices it changed (by identity) render once, after this task's synchronous work. */
  set(patch: Partial<S>): void;
  /** `render(state)` after each flush in which one of `slices` changed; returns what unsubscribes it. */
  subscribe(slices: (keyof S)[], render: (state: Readonly<S>) => void): () => void;
  /** Renders what changed now (the scheduled flush then finds nothing to do). */
  flush(): void;
  /** A request's ticket for `slice`: true while no later ticket for the same slice was taken. */
  ticket(slice: string): () => boolean;
}

/** The page's state, each module's slices named after what they hold. */
interface PageState {
  /** Each game's /api/games entry, by name. */
  games: Record<string, any>;
  /** The game in play as the server sent it; null: none. */
  view: any;
  /** A request that changes the game is out: the board is locked, a click made meanwhile dropped. */
  busy: boolean;
  /** The board seen from the other side. */
  flipped: boolean;
  /** The perfect player's values for the position in play (the analysis panel), or null. */
  analysis?: any;
  /** Each side's last decision in this game (a learner's box and bead, the thesis recall). */
  decisions: Record<number, any>;
  /** What the board shows before the answer comes (a move sent, a game asked for), or null. */
  pending: any;
  /** The status line's own words ({text, state}) while a request is out or there is no game, or null. */
  line: { text: string; state: string } | null;
  /** The computers' timer while they play the game out, or null. */
  autoplay: any;
  /** The review's position as the board draws it (board.js's model, over the game in play's), or null. */
  reviewModel: any;
  /** What a game under review from elsewhere (a record file, a shared link) is, said above the board; "": none. */
  foreign: string;
  /** The page shows a shared game's review alone (/?shared=TOKEN), no game of its own. */
  shared: boolean;
  /** The page has given up on a game of its own (the game is gone, none starts for want of a table): only the
   *  status and the way to a game show.  A shared game's page is not (its review shows). */
  gone: boolean;
  /** The new-game form's controls (picker.js), once opened. */
  picker?: any;
  /** The review (review.js), once opened. */
  review?: any;
  /** The timer of a first click on Resign, or null. */
  resignArmed?: any;
  /** "kind game" pairs the server has said are warmed up. */
  warm: Set<string>;
  /** Which boxes each learner's panel lists ("opened", "emptied", "all"), by kind. */
  shows: Record<string, string>;
  /** The thesis memory's search, kept while its panel is drawn again. */
  memoryQuery: string;
  /** beyond.js: training's module once loaded, and the "game kind" its panel follows. */
  training: { module: any; key: string | null };
  /** training.js (set when it loads): the game and learner its panel follows, its poll's timer, the latest status, its ticket. */
  train?: { view: any; kind: string | null; side: number | null; timer: any; status: any; current: () => boolean };
  /** connection.js: the live stream and the server's absence. */
  live: LiveState;
  /** How many times the server has come back after being away: the panels it changes ask again. */
  back: number;
  /** An earlier position of the game in play, stepped back to (its ply and the board drawn there), or null: the game as it is. */
  peek: { ply: number; answer: any } | null;
}

interface LiveState {
  /** The game's event stream, and the game it follows. */
  source?: EventSource | null;
  id?: string | null;
  /** What main.js is told: news of the game, and the server back after it was away. */
  onNews?: ((news: any) => void) | null;
  onBack?: (() => void) | null;
  /** The server did not answer: the banner is up and it is asked again every PROBE_MS. */
  away?: boolean;
  /** When the stream last said something (performance.now()), and how many times it has. */
  heard: number;
  beats: number;
  /** A watchdog's question to the server is out; when the last one went. */
  checking?: boolean;
  lastCheck: number;
  /** The timers: the next question to a server away, and the watchdog. */
  probe?: any;
  watchdog?: any;
  /** Who waits for the server to come back (`whenBack()`). */
  waiting: (() => void)[];
}
