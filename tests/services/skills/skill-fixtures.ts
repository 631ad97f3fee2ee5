import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A temp folder with a workspace, a home folder and an XDG config folder, so discovery from every place can be
 * tested without touching the real user's skills.
 */
export interface SkillPlaces {
  base: string;
  workspace: string;
  home: string;
  xdg: string;
  outside: string;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export async function makeSkillPlaces(): Promise<SkillPlaces> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-skills-")));
  const [workspace, home, xdg, outside] = ["workspace", "home", "xdg", "outside"].map((n) => path.join(base, n)) as [string, string, string, string];
  for (const dir of [workspace, home, xdg, outside]) await fs.mkdir(dir);
  await fs.writeFile(path.join(outside, "secret.txt"), "TOP SECRET\n");
  return { base, workspace, home, xdg, outside, env: { HOME: home, XDG_CONFIG_HOME: xdg }, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

export function skillMarkdown(name: string, description: string, body = `Instructions of ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

/** Writes `<dir>/<folder>/SKILL.md` and any other files of the skill. */
export async function writeSkill(dir: string, folder: string, skillMd: string, files: Record<string, string> = {}): Promise<string> {
  const skillDir = path.join(dir, folder);
  await fs.mkdir(skillDir, { recursive: true });
  await fs.writeFile(path.join(skillDir, "SKILL.md"), skillMd);
  for (const [rel, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(skillDir, rel)), { recursive: true });
    await fs.writeFile(path.join(skillDir, rel), content);
  }
  return skillDir;
}
