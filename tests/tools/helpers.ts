import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import type { ToolArtifact, WorkspaceTool } from "../../src/tools/types.js";

/** A temp folder holding the workspace `root` and a sibling `outside` folder that must stay unreachable. */
export interface TempWorkspace {
  root: string;
  outside: string;
  cleanup: () => Promise<void>;
}

export async function makeWorkspace(): Promise<TempWorkspace> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "mini-cursor-tools-")));
  const root = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  await fs.mkdir(root);
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, "secret.txt"), "TOP SECRET\n");
  return { root, outside, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

/** Creates files (and their folders) under `root`. */
export async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, content);
  }
}

export interface CallResult {
  content: string;
  artifact: ToolArtifact;
}

/** Invokes a tool the way the graph does (a tool call) and unpacks the ToolMessage. */
export async function callTool(tool: WorkspaceTool, args: Record<string, unknown>): Promise<CallResult> {
  const message: unknown = await tool.invoke({ id: "1", name: tool.name, args, type: "tool_call" });
  if (!(message instanceof ToolMessage)) throw new Error("expected a ToolMessage");
  if (typeof message.content !== "string") throw new Error("expected string content");
  return { content: message.content, artifact: message.artifact as ToolArtifact };
}

export async function exists(abs: string): Promise<boolean> {
  return fs.lstat(abs).then(
    () => true,
    () => false,
  );
}
