import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  startScriptedOpenAIServer,
  toolResults,
  type ScriptedReply,
  type ScriptedRequest,
  type ScriptedServer,
  userText,
} from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { roleOf } from "./task-script.js";

/**
 * A skill in `.mini-cursor/skills/release-notes/`, through the built CLI and a scripted model: the researcher's
 * brief lists it (name and description, not its body), load_skill brings the body into its next request,
 * read_file reads the skill's other file, and read_file of the session database is still refused.
 */
const SKILL_MD = [
  "---",
  "name: release-notes",
  "description: Write release notes from the git log, in the team's format.",
  "---",
  "RELEASE-NOTES-BODY: start from the template, one line per change, newest first.",
  "",
].join("\n");

const STEPS = [
  { name: "load_skill", args: { name: "release-notes" } },
  { name: "read_file", args: { path: "skill://release-notes/template.md" } },
  { name: "read_file", args: { path: ".mini-cursor/sessions.sqlite" } },
  { name: "submit_findings", args: { summary: "The release-notes skill says how to write them.", findings: [] } },
];

function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    if (req.messages.some((m) => m.content.includes("There is no plan yet"))) {
      return {
        toolCalls: [
          { name: "update_plan", args: { remainingSteps: [{ agent: "researcher", goal: "Find out how release notes are written here" }], finished: false } },
        ],
      };
    }
    return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary: "Found the release-notes skill." } }] };
  }
  if (role === "researcher") {
    const next = STEPS[Math.min(toolResults(req).length, STEPS.length - 1)];
    return { toolCalls: next ? [next] : [] };
  }
  return { content: "Nothing to do." };
}

let server: ScriptedServer;
let ws: TempWorkspace;
let home: string;
let env: Record<string, string>;
beforeEach(async () => {
  server = await startScriptedOpenAIServer(script);
  ws = await makeTempWorkspace({
    "package.json": '{ "name": "demo" }\n',
    ".mini-cursor/skills/release-notes/SKILL.md": SKILL_MD,
    ".mini-cursor/skills/release-notes/template.md": "## TEMPLATE-CONTENT\n- change\n",
    ".mini-cursor/skills/broken/SKILL.md": "Just text, no frontmatter.\n",
  });
  // The user's own skills (and ~/.claude/skills) must not leak into the test: both point at an empty folder.
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-skills-home-")));
  env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "sk-test", MINI_CURSOR_MODEL: "scripted", HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
  await fs.rm(home, { recursive: true, force: true });
});

describe("skills (built CLI, scripted model)", () => {
  it("lists a skill in the researcher's brief, loads it on demand and reads its other file; the session database stays refused", async () => {
    const result = await runCli(["run", "Write the release notes for 1.2"], { cwd: ws.root, env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // One clear line for the bad skill; the good one loads.
    expect(result.stdout).toContain("Skill skipped: .mini-cursor/skills/broken/SKILL.md has no frontmatter");
    expect(result.stdout).toContain("Skills: release-notes");
    // A person watching sees which skill was loaded.
    expect(result.stdout).toMatch(/load_skill release-notes/);

    const researcher = server.requests.filter((r) => roleOf(r) === "researcher");
    expect(researcher).toHaveLength(STEPS.length);
    const [first, afterLoad, afterTemplate, afterState] = researcher as [ScriptedRequest, ScriptedRequest, ScriptedRequest, ScriptedRequest];
    // Listed: name and description, offered the tool; the body costs nothing until it is loaded.
    expect(first.toolNames).toContain("load_skill");
    expect(userText(first)).toContain("- release-notes: Write release notes from the git log, in the team's format.");
    expect(JSON.stringify(first.messages)).not.toContain("RELEASE-NOTES-BODY");

    const loaded = toolResults(afterLoad).find((t) => t.name === "load_skill");
    expect(loaded?.content).toContain("RELEASE-NOTES-BODY: start from the template");
    expect(loaded?.content).toContain("- skill://release-notes/template.md");

    const template = toolResults(afterTemplate).at(-1);
    expect(template).toMatchObject({ name: "read_file" });
    expect(template?.content).toContain("## TEMPLATE-CONTENT");

    const state = toolResults(afterState).at(-1);
    expect(state).toMatchObject({ name: "read_file" });
    expect(state?.content).toMatch(/^Error: ".mini-cursor\/sessions.sqlite" is inside \.mini-cursor\/, mini-cursor's own state/);
  });

  it("does not offer load_skill or list skills in a workspace without any", async () => {
    await fs.rm(path.join(ws.root, ".mini-cursor", "skills"), { recursive: true });
    const result = await runCli(["run", "Write the release notes for 1.2"], { cwd: ws.root, env });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("Skills:");
    const researcher = server.requests.filter((r) => roleOf(r) === "researcher");
    expect(researcher.length).toBeGreaterThan(0);
    expect(researcher[0]?.toolNames).not.toContain("load_skill");
    expect(userText(researcher[0] as ScriptedRequest)).not.toContain("load_skill");
    // Asked for anyway, it is refused as a tool the researcher does not have.
    expect(toolResults(researcher[1] as ScriptedRequest)[0]?.content).toMatch(/tool "load_skill" is not available to the researcher/);
  });
});
