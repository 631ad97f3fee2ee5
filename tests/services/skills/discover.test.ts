import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkillLibrary } from "../../../src/services/skills/catalogue.js";
import { discoverSkills } from "../../../src/services/skills/discover.js";
import { makeSkillPlaces, skillMarkdown, writeSkill, type SkillPlaces } from "./skill-fixtures.js";

let p: SkillPlaces;
beforeEach(async () => {
  p = await makeSkillPlaces();
});
afterEach(async () => {
  await p.cleanup();
});

const wsSkills = () => path.join(p.workspace, ".mini-cursor", "skills");
const wsClaude = () => path.join(p.workspace, ".claude", "skills");
const userSkills = () => path.join(p.xdg, "mini-cursor", "skills");
const homeClaude = () => path.join(p.home, ".claude", "skills");

describe("skill discovery", () => {
  it("finds skills in the workspace, the user config folder and both .claude/skills folders", async () => {
    await writeSkill(wsSkills(), "release-notes", skillMarkdown("release-notes", "Write release notes from the git log."));
    await writeSkill(wsClaude(), "pdf", skillMarkdown("pdf", "Fill PDF forms."));
    await writeSkill(userSkills(), "commit-style", skillMarkdown("commit-style", "How this user writes commit messages."));
    await writeSkill(homeClaude(), "changelog", skillMarkdown("changelog", "Keep a changelog."));
    const { skills, notices } = discoverSkills(p.workspace, p.env);
    expect(notices).toEqual([]);
    expect(skills.map((s) => [s.name, s.scope, s.shownAs])).toEqual([
      ["release-notes", "workspace", ".mini-cursor/skills/release-notes"],
      ["pdf", "workspace", ".claude/skills/pdf"],
      ["commit-style", "user", path.join(userSkills(), "commit-style")],
      ["changelog", "user", path.join(homeClaude(), "changelog")],
    ]);
    expect(skills[0]).toMatchObject({ description: "Write release notes from the git log.", dir: path.join(wsSkills(), "release-notes") });
  });

  it("uses ~/.config/mini-cursor/skills when XDG_CONFIG_HOME is not set", async () => {
    await writeSkill(path.join(p.home, ".config", "mini-cursor", "skills"), "mine", skillMarkdown("mine", "Mine."));
    expect(discoverSkills(p.workspace, { HOME: p.home }).skills.map((s) => s.name)).toEqual(["mine"]);
  });

  it("prefers the workspace's skill over the user's of the same name, without a notice", async () => {
    await writeSkill(userSkills(), "release-notes", skillMarkdown("release-notes", "The user's version."));
    await writeSkill(homeClaude(), "release-notes", skillMarkdown("release-notes", "The user's Claude version."));
    await writeSkill(wsClaude(), "release-notes", skillMarkdown("release-notes", "The workspace's Claude version."));
    await writeSkill(wsSkills(), "release-notes", skillMarkdown("release-notes", "The workspace's version."));
    const { skills, notices } = discoverSkills(p.workspace, p.env);
    expect(notices).toEqual([]);
    expect(skills).toHaveLength(1);
    expect(skills[0]).toMatchObject({ scope: "workspace", description: "The workspace's version." });

    await fs.rm(wsSkills(), { recursive: true });
    await fs.rm(wsClaude(), { recursive: true });
    const userOnly = discoverSkills(p.workspace, p.env).skills;
    expect(userOnly.map((s) => s.description)).toEqual(["The user's version."]);
  });

  it("skips each bad SKILL.md with one notice naming its file, and loads the others", async () => {
    const root = wsSkills();
    await writeSkill(root, "good", skillMarkdown("good", "A good skill."));
    await writeSkill(root, "no-frontmatter", "# Just a title\nSome text.\n");
    await writeSkill(root, "no-name", "---\ndescription: Something.\n---\nBody\n");
    await writeSkill(root, "no-description", "---\nname: no-description\n---\nBody\n");
    await writeSkill(root, "long-description", skillMarkdown("long-description", "x".repeat(1025)));
    await writeSkill(root, "bad-yaml", "---\nname: [unclosed\ndescription: y\n---\n");
    await writeSkill(root, "unclosed", "---\nname: unclosed\ndescription: never closed\n");
    await writeSkill(root, "Bad_Name", skillMarkdown("Bad_Name", "Upper case and underscore."));
    await fs.mkdir(path.join(root, "empty-folder"));
    await writeSkill(root, "twin", skillMarkdown("good", "Same name as another in the same folder."));
    await fs.writeFile(path.join(root, "README.md"), "Loose files beside skills are not skills.\n");
    const { skills, notices } = discoverSkills(p.workspace, p.env);
    expect(skills.map((s) => s.name)).toEqual(["good"]);
    const f = (folder: string) => `.mini-cursor/skills/${folder}/SKILL.md`;
    expect(notices).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`${f("no-frontmatter")} has no frontmatter`),
        expect.stringContaining(`${f("no-name")} has no \`name\``),
        expect.stringContaining(`${f("no-description")} has no \`description\``),
        expect.stringContaining(`${f("long-description")} has a description of 1025 characters (at most 1024)`),
        expect.stringContaining(`${f("bad-yaml")} has invalid YAML frontmatter`),
        expect.stringContaining(`${f("unclosed")} has no closing \`---\` line`),
        expect.stringContaining(`${f("Bad_Name")} has an invalid name "Bad_Name"`),
        expect.stringContaining(".mini-cursor/skills/empty-folder has no SKILL.md"),
        expect.stringContaining(`${f("twin")} is named "good" like .mini-cursor/skills/good, which is used`),
      ]),
    );
    expect(notices).toHaveLength(9);
    for (const notice of notices) expect(notice.split("\n")).toHaveLength(1);
  });

  it("accepts a description of exactly 1024 characters, CRLF line ends and a byte-order mark", async () => {
    await writeSkill(wsSkills(), "max", skillMarkdown("max", "y".repeat(1024)));
    await writeSkill(wsSkills(), "windows", "\uFEFF---\r\nname: windows\r\ndescription: Written on Windows.\r\n---\r\nBody\r\n");
    const { skills, notices } = discoverSkills(p.workspace, p.env);
    expect(notices).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(["max", "windows"]);
  });

  it("reads only the frontmatter: a 6 GB SKILL.md (sparse) loads at once", async () => {
    const file = await writeSkill(wsSkills(), "big", skillMarkdown("big", "A big skill.")).then((dir) => path.join(dir, "SKILL.md"));
    // Reading it whole would fail (larger than any Buffer) or take minutes; the frontmatter is in its first bytes.
    await fs.truncate(file, 6 * 1024 ** 3);
    const { skills, notices } = discoverSkills(p.workspace, p.env);
    expect(notices).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(["big"]);
  });

  it("refuses a workspace skill folder that leads outside the workspace, and a SKILL.md that is a symlink", async () => {
    await writeSkill(p.outside, "elsewhere", skillMarkdown("elsewhere", "Lives outside."));
    await fs.mkdir(wsSkills(), { recursive: true });
    await fs.symlink(path.join(p.outside, "elsewhere"), path.join(wsSkills(), "elsewhere"));
    await fs.mkdir(path.join(wsSkills(), "linked-md"));
    await fs.writeFile(path.join(p.outside, "SKILL.md"), skillMarkdown("linked-md", "Frontmatter from outside."));
    await fs.symlink(path.join(p.outside, "SKILL.md"), path.join(wsSkills(), "linked-md", "SKILL.md"));
    const { skills, notices } = discoverSkills(p.workspace, p.env);
    expect(skills).toEqual([]);
    expect(notices).toEqual([
      expect.stringMatching(/^Skill skipped: \.mini-cursor\/skills\/elsewhere leads outside the workspace/),
      expect.stringMatching(/^Skill skipped: \.mini-cursor\/skills\/linked-md has a SKILL\.md that is a symlink/),
    ]);
  });

  it("lets a user's skill folder be a symlink (the user chose it)", async () => {
    await writeSkill(p.outside, "shared", skillMarkdown("shared", "Shared between machines."));
    await fs.mkdir(userSkills(), { recursive: true });
    await fs.symlink(path.join(p.outside, "shared"), path.join(userSkills(), "shared"));
    const { skills, notices } = discoverSkills(p.workspace, p.env);
    expect(notices).toEqual([]);
    expect(skills).toMatchObject([{ name: "shared", scope: "user", dir: path.join(p.outside, "shared") }]);
  });

  it("reads a workspace that is the home folder once", async () => {
    await writeSkill(homeClaude(), "only", skillMarkdown("only", "Only once."));
    const { skills, notices } = discoverSkills(p.home, p.env);
    expect(notices).toEqual([]);
    expect(skills.map((s) => [s.name, s.scope])).toEqual([["only", "workspace"]]);
  });

  it("discovers a workspace once per library and reports its notices then", async () => {
    await writeSkill(wsSkills(), "good", skillMarkdown("good", "Good."));
    await writeSkill(wsSkills(), "bad", "no frontmatter\n");
    const heard: string[] = [];
    const library = createSkillLibrary(p.env, (m) => heard.push(m));
    expect(library.catalogue(p.workspace).find("good")?.description).toBe("Good.");
    await writeSkill(wsSkills(), "later", skillMarkdown("later", "Added after the session started."));
    expect(library.catalogue(p.workspace).skills.map((s) => s.name)).toEqual(["good"]);
    expect(heard).toEqual([expect.stringContaining(".mini-cursor/skills/bad/SKILL.md has no frontmatter")]);
  });
});
