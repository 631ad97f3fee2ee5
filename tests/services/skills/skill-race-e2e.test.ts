import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { createReadFileTool } from "../../../src/tools/read-file.js";
import { createSkillLibrary } from "../../../src/services/skills/catalogue.js";
import { callTool, type CallResult } from "../../tools/helpers.js";
import { startSwapper, type Swapper } from "../../tools/swapper.js";
import { makeSkillPlaces, skillMarkdown, writeSkill, type SkillPlaces } from "./skill-fixtures.js";

/**
 * A folder inside a skill swapped nonstop with a symlink to a forbidden folder (a real process doing
 * renameat2(RENAME_EXCHANGE)): read_file of the skill's files never returns a file from there.
 */
let p: SkillPlaces | undefined;
let swapper: Swapper | undefined;
afterEach(async () => {
  await swapper?.stop();
  swapper = undefined;
  await p?.cleanup();
  p = undefined;
});

for (const target of ["outside", "state"] as const) {
  it(`read_file of a skill's file never follows a swapped-in symlink to the ${target === "outside" ? "outside" : "agent's state"}`, async () => {
    p = await makeSkillPlaces();
    const forbidden = target === "outside" ? p.outside : path.join(p.workspace, ".mini-cursor", "state");
    await fs.mkdir(forbidden, { recursive: true });
    await fs.writeFile(path.join(forbidden, "notes.txt"), "SECRET forbidden\n");
    const dir = await writeSkill(path.join(p.workspace, ".mini-cursor", "skills"), "racy", skillMarkdown("racy", "Racy."), {
      "refs/notes.txt": "inside notes\n",
    });
    await fs.symlink(forbidden, path.join(dir, "swap"));
    const tool = createReadFileTool({ root: p.workspace, skills: createSkillLibrary(p.env, () => undefined) });
    swapper = await startSwapper(path.join(dir, "refs"), path.join(dir, "swap"));
    const results: CallResult[] = [];
    for (let i = 0; i < 300; i += 1) results.push(await callTool(tool, { path: "skill://racy/refs/notes.txt" }));
    const swaps = await swapper.stop();
    swapper = undefined;
    expect(swaps).toBeGreaterThan(0);
    expect(results.filter((r) => r.content.includes("SECRET")).map((r) => r.content)).toEqual([]);
    // Not vacuous: calls still work during the attack.
    expect(results.filter((r) => r.artifact.ok && r.content.includes("inside notes")).length).toBeGreaterThan(0);
  });
}
