import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { ChatResult } from "@langchain/core/outputs";

/**
 * What an agent is compiled with: the real model is picked for every call by middleware/model-call.ts (selectModel), so one
 * compiled agent serves every run (the CLI's model, or the one a Studio run names in its settings).
 */
export class PerRunModel extends BaseChatModel {
  _llmType(): string {
    return "per-run";
  }

  async _generate(): Promise<ChatResult> {
    throw new Error("the model is chosen per run by the agent's ModelSelect middleware");
  }
}
