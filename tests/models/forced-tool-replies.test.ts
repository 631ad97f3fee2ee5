import { BaseChatModel, type BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { describe, expect, it } from "vitest";
import { ForcedToolReplies } from "../../src/models/forced-tool-replies.js";

type Options = BaseChatModelCallOptions & { tool_choice?: unknown; tools?: unknown[] };

/** An endpoint stand-in: answers with `text`, and refuses any tool_choice with a 400 when `refuses` is set. */
class Endpoint extends BaseChatModel<Options> {
  choices: unknown[] = [];
  constructor(
    private readonly text: string,
    private readonly refuses: boolean,
  ) {
    super({});
  }
  _llmType(): string {
    return "endpoint";
  }
  async _generate(_messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    this.choices.push(options.tool_choice);
    if (this.refuses && options.tool_choice !== undefined) throw Object.assign(new Error("tool_choice is not supported"), { status: 400 });
    return { generations: [{ text: this.text, message: new AIMessage({ content: this.text }) }] };
  }
}

const planTool = {
  type: "function",
  function: {
    name: "update_plan",
    description: "plan",
    parameters: { type: "object", properties: { remainingSteps: { type: "array" }, finished: { type: "boolean" } } },
  },
};

async function ask(model: ForcedToolReplies): Promise<AIMessage> {
  const reply = await model.bindTools([planTool], { tool_choice: "required" } as Partial<Options>).invoke([new HumanMessage("plan")]);
  return reply as AIMessage;
}

describe("ForcedToolReplies", () => {
  it("asks again without tool_choice when the endpoint refuses it, says so once, and never sends it again", async () => {
    const endpoint = new Endpoint('{"remainingSteps": [], "finished": true}', true);
    const said: string[] = [];
    const model = new ForcedToolReplies(endpoint, { textTool: "update_plan", onRefused: (s) => said.push(s) });
    await ask(model);
    await ask(model);
    expect(endpoint.choices).toEqual(["required", undefined, undefined]);
    expect(said).toHaveLength(1);
  });

  it("turns a text answer holding the tool's arguments as JSON (fenced or bare) into that tool call", async () => {
    for (const text of ['Here it is:\n```json\n{"remainingSteps": [], "finished": true}\n```', 'Plan: {"remainingSteps": [], "finished": true} done']) {
      const reply = await ask(new ForcedToolReplies(new Endpoint(text, false), { textTool: "update_plan" }));
      expect(reply.tool_calls).toEqual([expect.objectContaining({ name: "update_plan", args: { remainingSteps: [], finished: true } })]);
    }
  });

  it("leaves prose alone, and JSON that is not the tool's arguments", async () => {
    for (const text of ["First I would write greet, then test it.", 'The config is {"port": 8080}.', "an object {not json}"]) {
      const reply = await ask(new ForcedToolReplies(new Endpoint(text, false), { textTool: "update_plan" }));
      expect(reply.tool_calls ?? []).toEqual([]);
      expect(reply.text).toBe(text);
    }
  });

  it("passes other failures through", async () => {
    class Down extends Endpoint {
      override async _generate(): Promise<ChatResult> {
        throw Object.assign(new Error("bad gateway"), { status: 502 });
      }
    }
    await expect(ask(new ForcedToolReplies(new Down("", false), { textTool: "update_plan" }))).rejects.toThrow(/bad gateway/);
  });
});
