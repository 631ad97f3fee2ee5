import type { Clock } from "../../../platform/clock.js";
import type { EventSink, ProgressEvent } from "../../../core/index.js";
import type { Output } from "./human.js";

/** `--json`: one JSON object per line, each with an ISO timestamp `ts` and a `type`. */
export class JsonPrinter implements EventSink {
  constructor(
    private readonly out: Output,
    private readonly clock: Clock,
  ) {}

  emit(event: ProgressEvent): void {
    this.out.write(`${JSON.stringify({ ts: new Date(this.clock.now()).toISOString(), ...event })}\n`);
  }
}
