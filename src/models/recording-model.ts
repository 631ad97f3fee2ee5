import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { logger } from "../platform/logger.js";
import type { ModelProvider } from "./chat-model.js";
import { recordRequest, recordResponse, type RecordedRequest, type RecordedResponse } from "./recording-codec.js";
import { errorMessage } from "../platform/error-info.js";

export interface ModelCallRecord {
  role: string;
  step: string | null;
  model: string;
  request: RecordedRequest;
  response: RecordedResponse;
}

/** Where recorded calls go (the session database); it must not throw and should return at once. */
export type RecordCall = (call: ModelCallRecord) => void;

type CallOptions = BaseChatModelCallOptions & { tools?: unknown[] };

/** A tool's name whatever form it was bound in (OpenAI definition, LangChain tool, plain definition). */
export function toolName(tool: unknown): string {
  if (typeof tool !== "object" || tool === null) return "";
  const fn = (tool as { function?: unknown }).function;
  if (typeof fn === "object" && fn !== null && typeof (fn as { name?: unknown }).name === "string") return (fn as { name: string }).name;
  const name = (tool as { name?: unknown }).name;
  return typeof name === "string" ? name : "";
}

/**
 * A chat model that forwards every call to `inner` unchanged (tools and tool_choice travel in the call options, which
 * the OpenAI client converts itself) and, after the answer, hands the call to `record`. Only answers are recorded:
 * an attempt that failed for good has nothing to replay, and retries happen inside `inner`.
 */
export class RecordingChatModel extends BaseChatModel<CallOptions> {
  constructor(
    private readonly inner: BaseChatModel,
    private readonly role: string,
    private readonly model: string,
    private readonly record: RecordCall,
    private readonly currentStep: () => string | null,
  ) {
    super({});
  }

  // Called by the base constructor too, before the fields are set.
  _llmType(): string {
    return "recording";
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<CallOptions>) {
    return this.withConfig({ tools, ...kwargs });
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const result = await this.inner._generate(messages, options, runManager);
    const first = result.generations[0];
    if (first) {
      try {
        this.record({
          role: this.role,
          step: this.currentStep(),
          model: this.model,
          request: recordRequest(messages, (options.tools ?? []).map(toolName)),
          response: recordResponse(first.message, first.generationInfo?.["finish_reason"]),
        });
      } catch (error) {
        // A recording problem never fails the session's call.
        logger.warn(`model recording: call not recorded: ${errorMessage(error)}`);
      }
    }
    return result;
  }
}

/** The provider with every role's model recorded; one wrapper per role, so callers that key on the instance still can. */
export function recordingProvider(inner: ModelProvider, record: RecordCall, currentStep: () => string | null): ModelProvider {
  const wrapped = new Map<string, { of: BaseChatModel; model: RecordingChatModel }>();
  return {
    forRole(role) {
      const model = inner.forRole(role);
      const known = wrapped.get(role);
      if (known && known.of === model) return known.model;
      const made = new RecordingChatModel(model, role, inner.describe(role), record, currentStep);
      wrapped.set(role, { of: model, model: made });
      return made;
    },
    describe: (role) => inner.describe(role),
  };
}
