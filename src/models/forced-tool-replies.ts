import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { endpointSaid, isRejectedRequest } from "./model-errors.js";
import { toolName } from "./recording-model.js";

type CallOptions = BaseChatModelCallOptions & { tools?: unknown[] };

export interface ForcedToolRepliesOptions {
  /** The tool whose JSON arguments a text answer may hold (the planner's update_plan). */
  textTool: string;
  /** Told once, with the endpoint's words, when the endpoint refuses `tool_choice`. */
  onRefused?: (said: string) => void;
}

/** A JSON object in a reply's text (fenced or bare), or undefined. */
function jsonFromText(text: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const candidate = fenced ?? text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  if (!candidate.trim()) return undefined;
  try {
    const value: unknown = JSON.parse(candidate);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The parameter names of a bound tool, as the model was shown them. */
function parameterNames(tool: unknown): string[] {
  const fn = (tool as { function?: { parameters?: { properties?: unknown } } } | undefined)?.function;
  const properties = fn?.parameters?.properties;
  return typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
}

/**
 * A model whose calls must end in one tool call (LangChain's structured output sends `tool_choice`), made to work on
 * endpoints with weak tool calling. An endpoint that refuses `tool_choice` (HTTP 400/422) is asked again without it,
 * and every later call of this adapter goes without it; a text answer that holds the tool's arguments as JSON (which
 * such models often give) becomes that tool call, so the agent validates it like any other.
 */
export class ForcedToolReplies extends BaseChatModel<CallOptions> {
  private refused = false;
  private converted = 0;

  constructor(
    private readonly inner: BaseChatModel,
    private readonly options: ForcedToolRepliesOptions,
  ) {
    super({});
  }

  _llmType(): string {
    return "forced-tool-replies";
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<CallOptions>) {
    return this.withConfig({ tools, ...kwargs });
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const { tool_choice: choice, ...free } = options as this["ParsedCallOptions"] & { tool_choice?: unknown };
    let result: ChatResult;
    if (choice === undefined || this.refused) {
      result = await this.inner._generate(messages, free as this["ParsedCallOptions"], runManager);
    } else {
      try {
        result = await this.inner._generate(messages, options, runManager);
      } catch (error) {
        if (!isRejectedRequest(error)) throw error;
        this.refused = true;
        this.options.onRefused?.(endpointSaid(error));
        result = await this.inner._generate(messages, free as this["ParsedCallOptions"], runManager);
      }
    }
    return this.withTextToolCall(result, options.tools ?? []);
  }

  /** A text-only answer whose JSON has the tool's parameters becomes a call of that tool. */
  private withTextToolCall(result: ChatResult, tools: readonly unknown[]): ChatResult {
    const first = result.generations[0];
    const message = first?.message;
    if (!first || !message || !AIMessage.isInstance(message) || (message.tool_calls ?? []).length > 0 || (message.invalid_tool_calls ?? []).length > 0)
      return result;
    const tool = tools.find((t) => toolName(t) === this.options.textTool);
    const args = jsonFromText(message.text);
    const names = parameterNames(tool);
    if (!tool || !args || !Object.keys(args).some((k) => names.includes(k))) return result;
    const call = new AIMessage({
      content: message.content,
      id: message.id,
      tool_calls: [{ id: `${this.options.textTool}_from_text_${++this.converted}`, name: this.options.textTool, args, type: "tool_call" }],
      usage_metadata: message.usage_metadata,
      response_metadata: message.response_metadata,
    });
    return { ...result, generations: [{ ...first, message: call }, ...result.generations.slice(1)] };
  }
}
