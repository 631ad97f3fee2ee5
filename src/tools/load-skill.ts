import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { DEFAULT_OUTPUT_LIMIT_CHARS } from "./read-file.js";
import { listSkillFiles, openSkillFile } from "../services/skills/skill-file.js";
import { parseSkillMarkdown } from "../services/skills/frontmatter.js";
import { skillPathOf, SKILL_FILE } from "../services/skills/index.js";
import { failure, success, type ToolResult } from "./tool-result.js";
import type { ToolNeeds } from "./types.js";
import { scopeOf } from "./tool-scope.js";

const schema = z.object({
  name: z.string().describe("The skill's name, as listed under Skills in your brief."),
});

/**
 * Returns a skill's instructions (the body of its SKILL.md, capped like other tool output) and its other files as
 * `skill://` paths for read_file. Skills cost tokens only once loaded: the brief lists names and descriptions.
 */
export function createLoadSkillTool(base: ToolNeeds<"outputLimitChars" | "skills">) {
  return tool(
    async ({ name }, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      const limit = deps.outputLimitChars ?? DEFAULT_OUTPUT_LIMIT_CHARS;
      const wanted = name.trim();
      const skill = deps.skills?.catalogue(deps.root).find(wanted);
      if (!skill) {
        const names = deps.skills?.catalogue(deps.root).skills.map((s) => s.name) ?? [];
        return failure(`there is no skill "${wanted}". ${names.length > 0 ? `Skills here: ${names.join(", ")}.` : "This workspace has no skills."}`);
      }
      const opened = await openSkillFile(deps.skills, deps.root, skillPathOf(skill.name, SKILL_FILE));
      if ("error" in opened) return failure(opened.error);
      if (!opened.file.ok) return failure(`the SKILL.md of skill "${wanted}" ${opened.file.detail}; it cannot be loaded now.`);
      const parsed = parseSkillMarkdown(opened.file.text);
      if (!parsed.ok) return failure(`the SKILL.md of skill "${wanted}" ${parsed.problem} (it changed since the session started); it cannot be loaded.`);
      const { files, more } = await listSkillFiles(skill);
      const lines = [`Skill "${wanted}": follow these instructions where they apply to your step.`, ""];
      let body = parsed.body === "" ? "(The skill has no instructions beyond its description.)" : parsed.body;
      if (body.length > limit) {
        body = `${body.slice(0, limit)}\n[the instructions are cut here at ${limit} characters; read the rest with read_file path "${skillPathOf(wanted, SKILL_FILE)}" and a startLine past what you have]`;
      }
      lines.push(body);
      if (files.length > 0) {
        lines.push("", "Its other files (read them with read_file, passing the path exactly as shown):");
        for (const file of files) lines.push(`- ${file}`);
        if (more > 0) lines.push(`- … and ${more} more`);
      }
      return success(lines.join("\n"));
    },
    {
      name: "load_skill",
      description:
        "Load one of the skills listed in your brief: returns its instructions and the paths of its other files (templates, scripts, references), which read_file can read. " +
        "Load a skill only when your step needs it.",
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
