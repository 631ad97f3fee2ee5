/** A repeating timer, injected so tests can drive the live view's redraws frame by frame. */
export interface Ticker {
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export const realTicker: Ticker = {
  every(ms, tick) {
    const handle = setInterval(tick, ms);
    // The redraw alone never keeps the process alive.
    handle.unref();
    return () => clearInterval(handle);
  },
};
