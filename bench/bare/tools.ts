import { execFile, spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { tool } from "@langchain/core/tools";
import { rgPath } from "@vscode/ripgrep";
import { z } from "zod";

/**
 * The bare program's tools: the same names and argument shapes as mini-cursor's, each doing the plain minimal
 * thing (fs, ripgrep, bash) with none of mini-cursor's checks (path confinement, credential rules, sandbox,
 * approval, output caps, undo). That is the point: the difference is what those layers cost.
 */

const run = promisify(execFile);

/** `bash -c command` with stdin closed (on a socket stdin, bash would read ~/.bashrc as if started by rshd). */
function bash(command: string, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", (error) => resolve(`Error: ${error.message}`));
    child.on("close", (code) => resolve(`exit ${code ?? "none"}\n${out}`));
  });
}

export function workspaceTools(workspace: string) {
  const resolve = (p: string | undefined) => path.resolve(workspace, p ?? ".");

  const readFile = tool(async ({ path: p }) => fs.readFile(resolve(p), "utf8"), {
    name: "read_file",
    description: "Read a text file of the workspace.",
    schema: z.object({ path: z.string().describe("File path, relative to the workspace root.") }),
  });

  const listDirectory = tool(
    async ({ path: p }) => {
      const entries = await fs.readdir(resolve(p), { withFileTypes: true });
      return entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).join("\n");
    },
    {
      name: "list_directory",
      description: "List a folder of the workspace.",
      schema: z.object({ path: z.string().default(".").describe("Folder, relative to the workspace root.") }),
    },
  );

  const searchCode = tool(
    async ({ pattern, path: p }) => {
      try {
        const { stdout } = await run(rgPath, ["--line-number", "--no-heading", "--color", "never", pattern, resolve(p)], { cwd: workspace });
        return stdout;
      } catch (error) {
        // ripgrep exits 1 when nothing matches.
        return (error as { code?: number }).code === 1 ? "No matches." : `Error: ${String(error)}`;
      }
    },
    {
      name: "search_code",
      description: "Search the workspace with a regular expression (ripgrep).",
      schema: z.object({ pattern: z.string(), path: z.string().optional() }),
    },
  );

  const writeFile = tool(
    async ({ path: p, content }) => {
      await fs.mkdir(path.dirname(resolve(p)), { recursive: true });
      await fs.writeFile(resolve(p), content);
      return `Wrote ${p}.`;
    },
    { name: "write_file", description: "Write a file.", schema: z.object({ path: z.string(), content: z.string() }) },
  );

  const editFile = tool(
    async ({ path: p, oldText, newText }) => {
      const text = await fs.readFile(resolve(p), "utf8");
      if (!text.includes(oldText)) return "Error: oldText not found.";
      await fs.writeFile(resolve(p), text.replace(oldText, newText));
      return `Edited ${p}.`;
    },
    { name: "edit_file", description: "Replace text in a file.", schema: z.object({ path: z.string(), oldText: z.string(), newText: z.string() }) },
  );

  const executeCommand = tool(async ({ command }) => bash(command, workspace), {
    name: "execute_command",
    description: "Run a shell command with bash -c.",
    schema: z.object({ command: z.string() }),
  });

  return { readFile, listDirectory, searchCode, writeFile, editFile, executeCommand };
}

/** The finish tools are only offered to the model: the subgraph ends when one is called and keeps its arguments. */
export const finishTools = {
  researcher: {
    name: "submit_findings",
    description: "Finish your research step: report a short summary and the findings with their sources.",
    schema: z.object({ summary: z.string(), findings: z.array(z.object({ source: z.string(), note: z.string() })) }),
  },
  coder: {
    name: "submit_work",
    description: "Finish your coding step: report whether it is done or blocked.",
    schema: z.object({ status: z.enum(["done", "blocked"]), summary: z.string() }),
  },
  reviewer: {
    name: "submit_review",
    description: "Finish your review with a verdict.",
    schema: z.object({
      decision: z.enum(["approve", "changes_requested"]),
      summary: z.string(),
      problems: z.array(z.object({ problem: z.string() })).default([]),
    }),
  },
} as const;

export const planTool = {
  name: "update_plan",
  description: "Set the remaining plan steps, or finish the session. Call this on every turn.",
  schema: z.object({
    remainingSteps: z.array(
      z.object({ agent: z.enum(["researcher", "coder", "reviewer"]), goal: z.string(), acceptanceCriteria: z.array(z.string()).default([]) }),
    ),
    finished: z.boolean().default(false),
    outcome: z.enum(["done", "failed"]).optional(),
    summary: z.string().optional(),
  }),
};
