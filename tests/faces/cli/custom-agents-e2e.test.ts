import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolResults, type ScriptedReply, type ScriptedRequest, userText } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { useCliSession } from "./cli-session.js";
import { roleOf } from "./task-script.js";

/**
 * A team's agent in `.mini-cursor/agents/docs-writer.md`: the planner is offered it and routes the docs step to it;
 * it runs with exactly the tools its file lists, on the model its file names. A broken agent file beside it is one
 * notice, and the session finishes without that agent.
 */
const DOCS_WRITER = [
  "---",
  "name: docs-writer",
  "description: Writes and updates the Markdown docs in docs/.",
  "tools: [read_file, write_file]",
  "model: docs-model",
  "---",
  "You write short, plain documentation.",
  "",
].join("\n");
const BROKEN = "---\nname: Bad Name\ndescription: never loads\n---\nHi.\n";

const finish = (summary: string): ScriptedReply => ({
  toolCalls: [{ name: "update_plan", args: { remainingSteps: [], finished: true, outcome: "done", summary } }],
});

function script(req: ScriptedRequest): ScriptedReply {
  const role = roleOf(req);
  if (role === "planner") {
    const context = userText(req);
    if (context.includes("There is no plan yet")) {
      return { toolCalls: [{ name: "update_plan", args: { remainingSteps: [{ agent: "docs-writer", goal: "Write docs/usage.md" }], finished: false } }] };
    }
    return finish("docs/usage.md is written and reviewed.");
  }
  if (role === "reviewer") return { toolCalls: [{ name: "submit_review", args: { decision: "approve", summary: "The docs are fine." } }] };
  if (req.toolNames.includes("submit_result")) {
    if (toolResults(req).length === 0) return { toolCalls: [{ name: "write_file", args: { path: "docs/usage.md", content: "# Usage\n\nRun it.\n" } }] };
    return { toolCalls: [{ name: "submit_result", args: { summary: "Wrote docs/usage.md.", findings: [] } }] };
  }
  return { content: "?" };
}

const session = useCliSession(script, {
  "package.json": '{ "name": "demo", "type": "module" }\n',
  ".mini-cursor/agents/docs-writer.md": DOCS_WRITER,
  ".mini-cursor/agents/broken.md": BROKEN,
});

// The user's own agent folders (~/.claude/agents, ~/.config/mini-cursor/agents) are an empty temporary home here.
let home: TempWorkspace | null = null;
beforeEach(async () => {
  home = await makeTempWorkspace();
});
afterEach(async () => {
  await home?.cleanup();
});

describe("custom agents from .mini-cursor/agents (built CLI)", () => {
  it("the planner routes a step to docs-writer, which runs with only its tools and its model; a bad file is one notice", async () => {
    const homeDir = home?.root ?? "";
    const result = await runCli(["run", "--approval", "auto", "Document how to use the project"], {
      cwd: session.root,
      env: { ...session.env, HOME: homeDir, XDG_CONFIG_HOME: path.join(homeDir, ".config") },
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const notice = 'Agent file .mini-cursor/agents/broken.md skipped: name "Bad Name" must be lowercase words joined by - or _ (e.g. docs-writer).';
    expect(result.stdout.split(notice)).toHaveLength(2);
    expect(result.stdout).toContain("Custom agents: docs-writer (.mini-cursor/agents/docs-writer.md)");

    const requests = session.server.requests;
    const planner = requests.find((r) => roleOf(r) === "planner");
    expect(planner?.messages[0]?.content).toContain("- docs-writer: Writes and updates the Markdown docs in docs/.");
    expect(JSON.stringify(planner?.body)).toContain('"enum":["researcher","coder","reviewer","docs-writer"]');

    const writer = requests.filter((r) => r.toolNames.includes("submit_result"));
    expect(writer).toHaveLength(2);
    for (const r of writer) {
      // Exactly its listed tools, its finish tool, and ask_user, which every agent has (a question changes nothing).
      expect([...r.toolNames].sort()).toEqual(["ask_user", "read_file", "submit_result", "write_file"]);
      expect(r.model).toBe("docs-model");
    }
    expect(writer[0]?.messages[0]?.content).toContain("You write short, plain documentation.");
    expect(await readFile(path.join(session.root, "docs/usage.md"), "utf8")).toBe("# Usage\n\nRun it.\n");
    // Its change got the final review, on the session's model.
    expect(requests.filter((r) => roleOf(r) === "reviewer").map((r) => r.model)).toEqual(["scripted"]);
    expect(result.stdout).toContain("docs/usage.md is written and reviewed.");
  });
});
