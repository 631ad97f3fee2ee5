import type { ScriptedRequest } from "../../helpers/scripted-openai-server.js";

/** Holds the first model request `when` matches until released (several sessions at once, a kill mid-session). */
export class Gate {
  private when: ((req: ScriptedRequest) => boolean) | null = null;
  private open: () => void = () => {};
  private opened: Promise<void> = Promise.resolve();
  private arrive: () => void = () => {};
  reached: Promise<void> = Promise.resolve();

  arm(when: (req: ScriptedRequest) => boolean): void {
    this.when = when;
    this.reached = new Promise((resolve) => (this.arrive = resolve));
    this.opened = new Promise((resolve) => (this.open = resolve));
  }

  /** Waits when the request is the one held. */
  async pass(req: ScriptedRequest): Promise<void> {
    if (!this.when?.(req)) return;
    this.when = null;
    this.arrive();
    await this.opened;
  }

  release(): void {
    this.open();
  }
}
