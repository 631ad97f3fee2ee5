import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { failure, success, type ToolResult } from "./tool-result.js";
import type { ToolNeeds } from "./types.js";
import { scopeOf } from "./tool-scope.js";

/** The reviewer's check: every problem the project's checkers (TypeScript, ESLint, configured commands) report. */
export function createProjectDiagnosticsTool(base: ToolNeeds<"diagnostics">) {
  return tool(
    async (_input, config): Promise<ToolResult> => {
      const deps = scopeOf(base, config);
      if (!deps.diagnostics) return failure("diagnostics are not available in this session; run the project's checks with execute_command instead.");
      const text = await deps.diagnostics.project(deps.root, config?.signal);
      return text.startsWith("Error: ") ? failure(text) : success(text);
    },
    {
      name: "project_diagnostics",
      description:
        "Type-check and lint the whole project with its own checkers (TypeScript with its tsconfig.json, ESLint when configured, " +
        "and the diagnostics commands of mini-cursor.json), in the read-only sandbox. Returns every problem as `path:line:col code message`.",
      schema: z.object({}),
      responseFormat: "content_and_artifact",
    },
  );
}
