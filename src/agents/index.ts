import type { AgentName } from "../core/index.js";
import { coderSpec } from "./coder/index.js";
import { researcherSpec } from "./researcher/index.js";
import { reviewerSpec } from "./reviewer/index.js";
import type { AgentSpec } from "./types.js";

export const AGENT_SPECS: Record<AgentName, AgentSpec> = {
  researcher: researcherSpec,
  coder: coderSpec,
  reviewer: reviewerSpec,
};
