import { clip, type EventSink } from "../core/index.js";
import type { ModelProvider } from "../models/chat-model.js";
import { encode, RECORDING_FORMAT } from "../models/recording-codec.js";
import { recordingProvider } from "../models/recording-model.js";
import { DEFAULT_RECORDING_CAP_BYTES } from "../sessions/recordings.js";
import type { RecordingRows } from "../sessions/session-records.js";

export interface SessionRecording {
  /** The graph's event sink: passes every event on and follows which plan step is running. */
  events: EventSink;
  /** The session's models, each call recorded after its answer. */
  models(provider: ModelProvider): ModelProvider;
  /** Settles when every call so far is written (PostgreSQL writes in the background). */
  flush(): Promise<void>;
  /** The plan step a resumed run continues in: it is not started again, so no step_started names it. */
  resumedIn(step: string | null): void;
}

/** What a run records with its first call (RecordedRequest.settings). */
export interface RecordedRunSettings {
  /** The settings this run has, as the session row's `options` JSON. */
  settings: string;
  /** A follow-up turn starts (`resume --message`): noted with its first call, so a replay can give the same instruction. */
  followUp?: string;
}

/**
 * Records a session's model traffic in its database (src/sessions/recordings.ts), in call order, for `replay`.
 * Written after each answer: SQLite synchronously (well under a millisecond beside a model call), PostgreSQL queued.
 */
export async function recordSession(
  store: RecordingRows,
  sessionId: string,
  events: EventSink,
  run: RecordedRunSettings,
  capBytes = DEFAULT_RECORDING_CAP_BYTES,
): Promise<SessionRecording> {
  const writer = await store.writer(sessionId, capBytes, (why) =>
    events.emit({
      type: "notice",
      level: "warn",
      message:
        why.kind === "capped"
          ? `Model calls are no longer recorded: this session's recording reached ${Math.round(capBytes / 1024 / 1024)} MB (a replay stops where it ends).`
          : `Model calls are no longer recorded: the session database refused a write (${clip(why.detail.replace(/\s+/g, " ").trim(), 200)}); a replay stops where the recording ends.`,
    }),
  );
  let step: string | null = null;
  let turn = run.followUp;
  let settings: string | undefined = run.settings;
  const watching: EventSink = {
    emit(event) {
      if (event.type === "step_started") step = event.stepId;
      else if (event.type === "step_finished") step = null;
      events.emit(event);
    },
  };
  return {
    events: watching,
    flush: () => writer.flush(),
    resumedIn(resumed) {
      step ??= resumed;
    },
    models: (provider) =>
      recordingProvider(
        provider,
        (call) => {
          const row = {
            role: call.role,
            step: call.step,
            model: call.model,
            format: RECORDING_FORMAT,
            request: encode(settings === undefined ? call.request : { ...call.request, settings }),
            response: encode(call.response),
          };
          writer.append(turn === undefined ? row : { ...row, turn });
          turn = undefined;
          settings = undefined;
        },
        () => step,
      ),
  };
}
