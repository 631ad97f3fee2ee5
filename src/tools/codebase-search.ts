import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { failure, success, type ToolResult } from "./tool-result.js";
import { errorMessage } from "../platform/error-info.js";
import type { ToolNeeds } from "./types.js";

const schema = z.object({
  query: z.string().min(1).describe("What you are looking for, in plain words ('where do we retry failed requests') or as a name ('parseConfig')."),
  path: z.string().optional().describe("Only files under this folder (or this one file), relative to the workspace root."),
  limit: z.number().int().min(1).max(20).default(8).describe("How many results (1-20)."),
});

/**
 * Searches the workspace's codebase index by meaning and by words: the functions, classes and text that best match
 * a question, with file, line range and symbol. It never waits for the index: while it is being built it says so,
 * and search_code (ripgrep) works meanwhile.
 */
export function createCodebaseSearchTool(deps: ToolNeeds<"codeIndex">) {
  return tool(
    async (args): Promise<ToolResult> => {
      const index = deps.codeIndex;
      if (!index) return failure("the codebase index is off in this session; use search_code (ripgrep) and read_file instead.");
      try {
        const answer = await index.search({ query: args.query, limit: args.limit, ...(args.path ? { path: args.path } : {}) });
        if (answer.state === "building") {
          return success(
            `The codebase index is still being built in the background (${answer.detail}). Use search_code (ripgrep) for now; codebase_search works once the build is done.`,
          );
        }
        if (answer.state === "unavailable") return failure(`the codebase index is unavailable (${answer.detail}); use search_code and read_file instead.`);
        if (answer.hits.length === 0) {
          const sofar = answer.partial ? ` (still being built: ${answer.partial})` : "";
          return success(`Nothing in the index${sofar} matches "${args.query}". Try other words, or search_code for an exact pattern.`);
        }
        const blocks = answer.hits.map((h, i) => {
          const snippet = h.snippet
            .split("\n")
            .map((l) => `    ${l}`)
            .join("\n");
          return `${i + 1}. ${h.path}:${h.startLine}-${h.endLine}${h.symbol ? ` ${h.symbol}` : ""} (${h.kind}, score ${h.score.toFixed(2)})\n${snippet}`;
        });
        const how = answer.wordsOnly
          ? " (ranked by words only: the embeddings server could not embed the question just now; plain-words questions may miss, names still match)"
          : "";
        const count = answer.hits.length === 1 ? "1 result" : `${answer.hits.length} results`;
        const partial = answer.partial
          ? `The index is still being built (${answer.partial}): these come from the part indexed so far; search_code covers every file.\n`
          : "";
        return success(`${partial}${count}, best first${how} (read_file the line ranges for the full code):\n${blocks.join("\n")}`);
      } catch (error) {
        return failure(`codebase search failed (${errorMessage(error)}); use search_code and read_file instead.`);
      }
    },
    {
      name: "codebase_search",
      description:
        "Search this workspace's code by meaning: give a question in plain words or a name, get the best-matching functions, classes and text with file, line range and symbol. Use it to find where something is done when you do not know the identifiers; use search_code for exact text or regex.",
      schema,
      responseFormat: "content_and_artifact",
    },
  );
}
