import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditFileTool } from "../../../src/tools/edit-file.js";
import { createListDirectoryTool } from "../../../src/tools/list-directory.js";
import { createLoadSkillTool } from "../../../src/tools/load-skill.js";
import { createReadFileTool } from "../../../src/tools/read-file.js";
import { createSkillLibrary, type SkillLibrary } from "../../../src/services/skills/catalogue.js";
import type { ToolDeps } from "../../../src/tools/types.js";
import { createWriteFileTool } from "../../../src/tools/write-file.js";
import { callTool, exists } from "../../tools/helpers.js";
import { makeSkillPlaces, skillMarkdown, writeSkill, type SkillPlaces } from "./skill-fixtures.js";

let p: SkillPlaces;
let skills: SkillLibrary;
let skillDir: string;
let deps: ToolDeps;
beforeEach(async () => {
  p = await makeSkillPlaces();
  await fs.mkdir(path.join(p.workspace, ".mini-cursor"));
  await fs.writeFile(path.join(p.workspace, ".mini-cursor", "sessions.sqlite"), "SESSION STATE\n");
  await fs.writeFile(path.join(p.workspace, "README.md"), "A project.\n");
  skillDir = await writeSkill(
    path.join(p.workspace, ".mini-cursor", "skills"),
    "release-notes",
    skillMarkdown("release-notes", "Write release notes.", "# Release notes\nStart from template.md, then run scripts/collect.sh."),
    { "template.md": "## What changed\n", "scripts/collect.sh": "git log --oneline\n" },
  );
  await writeSkill(path.join(p.xdg, "mini-cursor", "skills"), "user-skill", skillMarkdown("user-skill", "The user's own.", "User body."), {
    "notes.txt": "user notes\n",
  });
  skills = createSkillLibrary(p.env, () => undefined);
  deps = { root: p.workspace, skills };
});
afterEach(async () => {
  await p.cleanup();
});

const read = (args: Record<string, unknown>) => callTool(createReadFileTool(deps), args);

describe("load_skill", () => {
  it("returns the skill's body (not its frontmatter) and its other files as skill:// paths", async () => {
    const { content, artifact } = await callTool(createLoadSkillTool(deps), { name: "release-notes" });
    expect(artifact.ok).toBe(true);
    expect(content).toContain("# Release notes\nStart from template.md, then run scripts/collect.sh.");
    expect(content).not.toContain("description: Write release notes.");
    expect(content).toContain("- skill://release-notes/scripts/collect.sh\n- skill://release-notes/template.md");
    expect(content).not.toContain("skill://release-notes/SKILL.md");
  });

  it("lists a symlink only when read_file would follow it (to a file inside the skill's folder)", async () => {
    await fs.symlink("template.md", path.join(skillDir, "alias.md"));
    await fs.symlink(path.join(p.outside, "secret.txt"), path.join(skillDir, "secret.txt"));
    await fs.symlink("scripts", path.join(skillDir, "scripts-link"));
    const { content } = await callTool(createLoadSkillTool(deps), { name: "release-notes" });
    expect(content).toContain("- skill://release-notes/alias.md\n- skill://release-notes/scripts/collect.sh\n- skill://release-notes/template.md");
    expect(content).not.toMatch(/secret\.txt|scripts-link/);
  });

  it("loads a user's skill too", async () => {
    const { content } = await callTool(createLoadSkillTool(deps), { name: "user-skill" });
    expect(content).toContain("User body.");
    expect(content).toContain("- skill://user-skill/notes.txt");
  });

  it("names the skills there are when asked for one that is not", async () => {
    const { content, artifact } = await callTool(createLoadSkillTool(deps), { name: "nope" });
    expect(artifact.ok).toBe(false);
    expect(content).toBe('Error: there is no skill "nope". Skills here: release-notes, user-skill.');
    const climbing = await callTool(createLoadSkillTool(deps), { name: "release-notes/../user-skill" });
    expect(climbing.content).toBe('Error: there is no skill "release-notes/../user-skill". Skills here: release-notes, user-skill.');
  });

  it("says so when a SKILL.md was broken after the session found it", async () => {
    expect(skills.catalogue(p.workspace).find("release-notes")).toBeDefined();
    await fs.writeFile(path.join(skillDir, "SKILL.md"), "No frontmatter any more.\n");
    const { content, artifact } = await callTool(createLoadSkillTool(deps), { name: "release-notes" });
    expect(artifact.ok).toBe(false);
    expect(content).toMatch(/^Error: the SKILL.md of skill "release-notes" has no frontmatter .*\(it changed since the session started\)/);
  });

  it("caps a long body like other tool output and says how to read the rest", async () => {
    await writeSkill(path.join(p.workspace, ".mini-cursor", "skills"), "long", skillMarkdown("long", "Long.", "word ".repeat(5000)));
    const library = createSkillLibrary(p.env, () => undefined);
    const { content } = await callTool(createLoadSkillTool({ root: p.workspace, skills: library, outputLimitChars: 1000 }), { name: "long" });
    expect(content.length).toBeLessThan(1400);
    expect(content).toContain('[the instructions are cut here at 1000 characters; read the rest with read_file path "skill://long/SKILL.md"');
  });
});

describe("read_file of a skill's files", () => {
  it("reads the files load_skill lists, SKILL.md included", async () => {
    expect((await read({ path: "skill://release-notes/template.md" })).content).toBe("   1| ## What changed");
    expect((await read({ path: "skill://release-notes/scripts/collect.sh" })).content).toBe("   1| git log --oneline");
    expect((await read({ path: "skill://user-skill/notes.txt" })).content).toBe("   1| user notes");
    expect((await read({ path: "skill://release-notes/SKILL.md", startLine: 2, endLine: 2 })).content).toContain("name: release-notes");
  });

  it("keeps the rest of .mini-cursor/ refused, also the skill folder by its workspace path", async () => {
    for (const refused of [
      ".mini-cursor/sessions.sqlite",
      ".mini-cursor/skills/release-notes/template.md",
      path.join(p.workspace, ".mini-cursor/skills/release-notes/SKILL.md"),
    ]) {
      const { content, artifact } = await read({ path: refused });
      expect(artifact.ok, refused).toBe(false);
      expect(content, refused).toMatch(/inside \.mini-cursor\/, mini-cursor's own state/);
    }
  });

  it("refuses paths that climb out of the skill's folder", async () => {
    for (const climb of [
      "skill://release-notes/../../sessions.sqlite",
      "skill://release-notes/../user-skill/notes.txt",
      "skill://release-notes/..",
      "skill://release-notes//etc/passwd/../../../../sessions.sqlite",
    ]) {
      const { content, artifact } = await read({ path: climb });
      expect(artifact.ok, climb).toBe(false);
      expect(content, climb).not.toContain("SESSION STATE");
      expect(content, climb).toMatch(/leads outside the folder of skill "release-notes"|does not exist/);
    }
    // An absolute path after the name is taken inside the skill's folder, never as the system's.
    const absolute = await read({ path: "skill://release-notes//etc/hostname" });
    expect(absolute.content).toMatch(/does not exist/);
  });

  it("refuses symlinks that lead out of the skill's folder: to the agent's state, the workspace, or elsewhere", async () => {
    await fs.symlink(path.join(p.workspace, ".mini-cursor", "sessions.sqlite"), path.join(skillDir, "state.sqlite"));
    await fs.symlink("../..", path.join(skillDir, "up"));
    await fs.symlink(path.join(p.outside, "secret.txt"), path.join(skillDir, "secret.txt"));
    await fs.symlink(p.outside, path.join(skillDir, "outside-dir"));
    for (const link of ["state.sqlite", "up/sessions.sqlite", "secret.txt", "outside-dir/secret.txt"]) {
      const { content, artifact } = await read({ path: `skill://release-notes/${link}` });
      expect(artifact.ok, link).toBe(false);
      expect(content, link).toMatch(/resolves through a symlink to .*, outside the folder of skill "release-notes"; it is refused/);
      expect(content, link).not.toMatch(/SESSION STATE|TOP SECRET/);
    }
  });

  it("follows a symlink that stays inside the skill's folder, and says a dangling one does not exist", async () => {
    await fs.symlink("template.md", path.join(skillDir, "alias.md"));
    await fs.symlink(path.join(p.outside, "missing.txt"), path.join(skillDir, "dangling.txt"));
    expect((await read({ path: "skill://release-notes/alias.md" })).content).toBe("   1| ## What changed");
    const dangling = await read({ path: "skill://release-notes/dangling.txt" });
    expect(dangling.artifact.ok).toBe(false);
    expect(dangling.content).toMatch(/does not exist/);
  });

  it("refuses an unknown skill, and every skill path without skills", async () => {
    expect((await read({ path: "skill://nope/SKILL.md" })).content).toBe('Error: there is no skill "nope". Skills here: release-notes, user-skill.');
    const bare = await callTool(createReadFileTool({ root: p.workspace }), { path: "skill://release-notes/template.md" });
    expect(bare.content).toBe('Error: there is no skill "release-notes". This workspace has no skills.');
  });
});

describe("the tools that change or list files", () => {
  it("never accept a skill path (skills are read-only)", async () => {
    const write = await callTool(createWriteFileTool(deps), { path: "skill://release-notes/template.md", content: "changed\n" });
    expect(write.artifact.ok).toBe(false);
    expect(write.content).toMatch(/is a skill's file: skills are read-only and only read_file reads them/);
    const edit = await callTool(createEditFileTool(deps), { path: "skill://release-notes/template.md", oldText: "## What changed", newText: "x" });
    expect(edit.artifact.ok).toBe(false);
    expect(edit.content).toMatch(/skills are read-only/);
    const list = await callTool(createListDirectoryTool(deps), { path: "skill://release-notes" });
    expect(list.artifact.ok).toBe(false);
    expect(await fs.readFile(path.join(skillDir, "template.md"), "utf8")).toBe("## What changed\n");
    // Not written as a relative path either ("skill:/release-notes/template.md" inside the workspace).
    expect(await exists(path.join(p.workspace, "skill:"))).toBe(false);
  });
});
