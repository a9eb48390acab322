// @ts-check
// The page's state, in one store: what each call promises is in types/page.d.ts.  No DOM here.

/** @template S @param {S} initial @param {(flush: () => void) => void} [schedule] @returns {Store<S>} */
export function createStore(initial, schedule = queueMicrotask) {
  let state = { ...initial }, changed = new Set(), scheduled = false;
  const subscribers = [], tickets = new Map();
  const flush = () => {
    const now = changed;
    changed = new Set();
    scheduled = false;
    for (const { slices, render } of [...subscribers]) if (slices.some((slice) => now.has(slice))) render(state);
  };
  return {
    get: () => state,
    set(patch) {
      for (const slice in patch) if (!Object.is(state[slice], patch[slice])) changed.add(slice);
      state = { ...state, ...patch };
      if (changed.size && !scheduled) { scheduled = true; schedule(() => { if (scheduled) flush(); }); }
    },
    subscribe(slices, render) {
      const subscriber = { slices, render };
      subscribers.push(subscriber);
      return () => { subscribers.splice(subscribers.indexOf(subscriber), 1); };
    },
    flush,
    ticket(slice) {
      const number = (tickets.get(slice) || 0) + 1;
      tickets.set(slice, number);
      return () => tickets.get(slice) === number;
    },
  };
}

/** @type {Store<PageState>} */
export const store = createStore({  // a slice not named here starts as none (undefined)
  games: {}, view: null, pending: null, line: null, autoplay: null, reviewModel: null, busy: false, flipped: false, decisions: {}, foreign: "", shared: false, gone: false, warm: new Set(), shows: {},
  memoryQuery: "", training: { module: null, key: null },
  live: { heard: 0, beats: 0, lastCheck: 0, waiting: [] },
  back: 0, peek: null,
});
