import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { doctorCommand, type DoctorReport } from "../../../src/faces/cli/commands/doctor.js";
import type { CliIo } from "../../../src/faces/cli/io.js";
import { SCRIPTED_MODEL_ID, startScriptedOpenAIServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";

let endpoint: ScriptedServer;
let base: string;
let workspace: string;
beforeAll(async () => {
  endpoint = await startScriptedOpenAIServer(() => ({ content: "OK" }));
});
afterAll(async () => {
  await endpoint.close();
});
beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-doctor-skills-")));
  workspace = path.join(base, "workspace");
  await fs.mkdir(workspace);
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function doctor(json: boolean): Promise<string> {
  let text = "";
  const sink = { write: (chunk: string) => void (text += chunk) };
  const env = {
    PATH: process.env.PATH,
    HOME: base,
    XDG_CONFIG_HOME: path.join(base, "xdg"),
    MINI_CURSOR_MEMORY: "off",
    OPENAI_API_KEY: "k",
    OPENAI_BASE_URL: endpoint.baseUrl,
    MINI_CURSOR_MODEL: SCRIPTED_MODEL_ID,
  };
  const io: CliIo = { stdin: process.stdin, stdout: sink, stderr: sink, env, cwd: workspace };
  await doctorCommand(json ? ["--json"] : [], io, { now: () => 0 });
  return text;
}

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

describe("doctor reports skills", () => {
  it("lists the skills a session would see and the SKILL.md files it would skip", async () => {
    await write(path.join(workspace, ".mini-cursor/skills/release-notes/SKILL.md"), "---\nname: release-notes\ndescription: Release notes.\n---\nBody\n");
    await write(path.join(base, "xdg/mini-cursor/skills/mine/SKILL.md"), "---\nname: mine\ndescription: Mine.\n---\n");
    await write(path.join(workspace, ".claude/skills/broken/SKILL.md"), "---\nname: broken\n---\n");
    const report = JSON.parse(await doctor(true)) as DoctorReport;
    expect(report.skills).toEqual({
      found: [
        { name: "release-notes", scope: "workspace", at: ".mini-cursor/skills/release-notes" },
        { name: "mine", scope: "user", at: path.join(base, "xdg/mini-cursor/skills/mine") },
      ],
      problems: ["Skill skipped: .claude/skills/broken/SKILL.md has no `description` in its frontmatter."],
    });
    const text = await doctor(false);
    expect(text).toContain(`  Skills     warn  2: release-notes (.mini-cursor/skills/release-notes), mine (${path.join(base, "xdg/mini-cursor/skills/mine")})`);
    expect(text).toContain("\n            Skill skipped: .claude/skills/broken/SKILL.md has no `description` in its frontmatter.");
  });

  it("says when there are none", async () => {
    expect(await doctor(false)).toContain("  Skills     info  none found");
  });
});
