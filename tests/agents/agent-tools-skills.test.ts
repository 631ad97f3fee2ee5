import { describe, expect, it } from "vitest";
import { renderBrief } from "../../src/agents/brief.js";
import { AGENT_SPECS } from "../../src/agents/index.js";
import { offeredTools, renderSkillList } from "../../src/agents/agent-tools.js";
import type { BriefContext } from "../../src/agents/types.js";

const ctx: BriefContext = {
  task: "Write the release notes",
  workspace: "/w",
  step: { id: "s1", agent: "coder", goal: "Write RELEASE.md", acceptanceCriteria: [], status: "in_progress", result: "" },
  plan: [],
  findings: [],
  filesChanged: [],
  lastReview: null,
};

describe("skills in the agents' briefs", () => {
  it("lists names and descriptions only, and nothing when there are no skills", () => {
    const skills = [
      { name: "release-notes", description: "Write release notes\nfrom the git log." },
      { name: "pdf", description: "Fill PDF forms." },
    ];
    const brief = renderBrief({ ...ctx, skills });
    expect(brief).toContain("call load_skill with its name");
    expect(brief).toContain("- release-notes: Write release notes from the git log.\n- pdf: Fill PDF forms.");
    expect(renderBrief(ctx)).not.toContain("Skills");
    expect(renderBrief({ ...ctx, skills: [] })).toBe(renderBrief(ctx));
  });

  it("names skills past the 40th without their descriptions", () => {
    const many = Array.from({ length: 45 }, (_, i) => ({ name: `s${i}`, description: `Description ${i}.` }));
    const lines = renderSkillList(many);
    expect(lines.filter((l) => l.startsWith("- s"))).toHaveLength(40);
    expect(lines.at(-1)).toBe("- also: s40, s41, s42, s43, s44");
  });

  it("offers load_skill to every built-in agent only when the workspace has skills", () => {
    for (const spec of Object.values(AGENT_SPECS)) {
      expect(offeredTools(spec, { approval: "auto" }, { memory: false, skills: true }), spec.name).toContain("load_skill");
      expect(offeredTools(spec, { approval: "read-only" }, { memory: false, skills: true }), spec.name).toContain("load_skill");
      expect(offeredTools(spec, { approval: "auto" }, { memory: false }), spec.name).not.toContain("load_skill");
      expect(offeredTools(spec, { approval: "auto" }, { memory: false }), spec.name).not.toContain("load_skill");
    }
  });
});
