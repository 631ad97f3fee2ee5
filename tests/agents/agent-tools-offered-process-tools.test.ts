import { describe, expect, it } from "vitest";
import { coderSpec } from "../../src/agents/coder/index.js";
import { offeredTools } from "../../src/agents/agent-tools.js";
import { researcherSpec } from "../../src/agents/researcher/index.js";
import { reviewerSpec } from "../../src/agents/reviewer/index.js";
import { PROCESS_TOOLS } from "../../src/tools/index.js";

const processTools = (names: string[]) => names.filter((n) => (PROCESS_TOOLS as readonly string[]).includes(n));

describe("offered background-process tools", () => {
  it("offers them to the coder and the reviewer where the session keeps a registry, and never to the researcher", () => {
    const auto = { approval: "auto" as const };
    expect(processTools(offeredTools(coderSpec, auto, { memory: false, processes: true }))).toEqual([...PROCESS_TOOLS]);
    expect(processTools(offeredTools(reviewerSpec, { approval: "ask" }, { memory: false, processes: true }))).toEqual([...PROCESS_TOOLS]);
    expect(processTools(offeredTools(researcherSpec, auto, { memory: false, processes: true }))).toEqual([]);
    // No registry (Studio, library use): not offered.
    expect(processTools(offeredTools(coderSpec, auto, { memory: false }))).toEqual([]);
  });

  it("offers none of them in read-only mode, which starts no process", () => {
    expect(processTools(offeredTools(coderSpec, { approval: "read-only" }, { memory: false, processes: true }))).toEqual([]);
  });
});
