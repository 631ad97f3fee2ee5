import type { Timers } from "../../src/host/service-scope.js";

/** Timers a test moves by hand: nothing fires until advance() passes its time. */
export class ManualTimers implements Timers {
  private now = 0;
  private pending: { at: number; run: () => void; done: boolean }[] = [];
  after(ms: number, run: () => void) {
    const timer = { at: this.now + ms, run, done: false };
    this.pending.push(timer);
    return { cancel: () => void (timer.done = true) };
  }
  advance(ms: number): void {
    this.now += ms;
    for (const timer of this.pending.filter((t) => !t.done && t.at <= this.now)) {
      timer.done = true;
      timer.run();
    }
  }
}
