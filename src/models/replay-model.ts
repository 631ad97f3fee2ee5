import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { ModelProvider } from "./chat-model.js";
import { ModelCallError } from "./model-errors.js";
import { recordMessage, replayedMessage, requestTail, type RecordedRequest, type RecordedResponse } from "./recording-codec.js";
import { compareToolResults, type EnvironmentParts } from "./replay-compare.js";

export interface ReplayCall {
  seq: number;
  role: string;
  step: string | null;
  model: string;
  request: RecordedRequest;
  response: RecordedResponse;
}

export interface Divergence {
  /** The recorded call whose request differed (1-based, in the recording's order). */
  seq: number;
  role: string;
  step: string | null;
  tool: string;
  toolCallId: string;
  diff: string;
}

export interface ReplayOptions {
  normalize: (text: string) => string;
  /** Stop before the first agent call of this plan step (`replay --until`). */
  until?: string;
  /** What the environment adds to tool results: differences there are kept apart, not counted as divergences. */
  environment?: EnvironmentParts;
  /** The plan step the replay is in, for a call the recording names no step for (recorded before steps were kept across a resume). */
  currentStep?: () => string | null;
}

/**
 * Ends a replay run: the graph asked for a call the recording does not have, `--until` was reached, or the recorded
 * session was resumed here with other settings (the replay resumes too, with those: `pause`).
 */
export class ReplayStop extends ModelCallError {
  override name = "ReplayStop";
  constructor(
    line: string,
    readonly reason: "diverged" | "until" | "pause",
  ) {
    super({ kind: "other", status: null, said: "" }, 1, line);
  }
}

/**
 * Answers every model call from a recording, in the recording's order: no endpoint, no key, no network. Each call must
 * be the one the recording has next (same role); its tool results (the new messages of its request) are compared with
 * the recorded ones, and differences are kept as divergences while the replay goes on with the recorded answer.
 */
export class ReplayProvider implements ModelProvider {
  readonly divergences: Divergence[] = [];
  /** Tool results that differed only in what the environment adds (a diagnostics or sandbox note, memory). */
  readonly environmentDifferences: Divergence[] = [];
  private next = 0;
  private readonly models = new Map<string, ReplayChatModel>();
  stopped: ReplayStop | null = null;
  /** The current run stopped where the recorded session was resumed with other settings (see `beginRun`). */
  paused: ReplayStop | null = null;
  private settings: string | undefined;
  private callsInRun = 0;

  constructor(
    private readonly calls: readonly ReplayCall[],
    private readonly options: ReplayOptions,
  ) {}

  get answered(): number {
    return this.next;
  }

  get exhausted(): boolean {
    return this.next >= this.calls.length;
  }

  forRole(role: string): BaseChatModel {
    let model = this.models.get(role);
    if (!model) {
      model = new ReplayChatModel((messages) => this.answer(role, messages));
      this.models.set(role, model);
    }
    return model;
  }

  describe(role: string): string {
    return this.calls.find((c) => c.role === role)?.model ?? "replay";
  }

  /**
   * A replay run starts with these settings (the session row's options JSON). A later call recorded as the first of
   * a run with other settings (`resume --approval ask` after a Ctrl-C) ends this run there, as the recorded one ended.
   */
  beginRun(settings: string | undefined): void {
    this.settings = settings;
    this.callsInRun = 0;
    this.paused = null;
  }

  /** The settings recorded with the call the replay makes next (the first call of a recorded run), if any. */
  get nextSettings(): string | undefined {
    return this.calls[this.next]?.request.settings;
  }

  answer(role: string, messages: readonly BaseMessage[]): RecordedResponse {
    const expected = this.calls[this.next];
    const position = this.next + 1;
    const settings = expected?.request.settings;
    if (settings !== undefined && this.callsInRun > 0 && this.settings !== undefined && settings !== this.settings && !this.stopped) {
      this.paused = new ReplayStop(`the recorded session was resumed at call ${position} with other settings`, "pause");
      throw this.paused;
    }
    if (!expected) {
      throw this.stop(
        new ReplayStop(`replay diverged: call ${position} (${role}) is not in the recording, which ends after ${this.calls.length} calls`, "diverged"),
      );
    }
    if (expected.role !== role) {
      const where = expected.step ? ` in step ${expected.step}` : "";
      throw this.stop(
        new ReplayStop(`replay diverged: call ${position} went to the ${role}, the recording has the ${expected.role}${where} there`, "diverged"),
      );
    }
    if (this.options.until && expected.step === this.options.until && role !== "planner") {
      throw this.stop(new ReplayStop(`replay stopped before step ${this.options.until} (--until)`, "until"));
    }
    const recorded = requestTail(messages).map(recordMessage);
    const step = expected.step ?? (role === "planner" ? null : (this.options.currentStep?.() ?? null));
    for (const { environment, ...d } of compareToolResults(expected.request.tail, recorded, this.options.normalize, this.options.environment)) {
      (environment ? this.environmentDifferences : this.divergences).push({ seq: expected.seq, role, step, ...d });
    }
    this.next += 1;
    this.callsInRun += 1;
    return expected.response;
  }

  /**
   * What the recording says a tool call of the last answered reply produced: that reply's call of `tool` (the one
   * whose arguments hold `subject`, when it made several) and its result in the recording's next request. Null when
   * the recording does not have it. A replay answers the session's approvals and clarifying questions from it.
   */
  recordedResult(tool: string, subject: string): { content: string; status?: string } | null {
    const last = this.calls[this.next - 1];
    const following = this.calls[this.next];
    if (!last || !following) return null;
    const candidates = last.response.toolCalls.filter((c) => c.name === tool);
    const call = candidates.find((c) => Object.values(c.args).includes(subject)) ?? candidates[0];
    const result = call ? following.request.tail.find((m) => m.role === "tool" && m.toolCallId === call.id) : undefined;
    return result ? { content: result.content, ...(result.status ? { status: result.status } : {}) } : null;
  }

  private stop(error: ReplayStop): ReplayStop {
    this.stopped ??= error;
    return error;
  }
}

type CallOptions = BaseChatModelCallOptions & { tools?: unknown[] };

/** One role's model in a replay: binding tools only records them in the call options; the answer comes from the recording. */
export class ReplayChatModel extends BaseChatModel<CallOptions> {
  constructor(private readonly respond: (messages: readonly BaseMessage[]) => RecordedResponse) {
    super({});
  }

  _llmType(): string {
    return "replay";
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<CallOptions>) {
    return this.withConfig({ tools, ...kwargs });
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const message = replayedMessage(this.respond(messages));
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}
