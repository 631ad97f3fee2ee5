import path from "node:path";
import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

/** How an editor shows one of our tool calls: its kind (the icon), a title and the files it touches. */
export interface ToolView {
  kind: ToolKind;
  title: string;
  locations: ToolCallLocation[];
}

const KINDS: Record<string, ToolKind> = {
  read_file: "read",
  list_directory: "read",
  load_skill: "read",
  search_code: "search",
  memory_search: "search",
  web_search: "search",
  write_file: "edit",
  edit_file: "edit",
  execute_command: "execute",
  fetch_url: "fetch",
  ask_user: "think",
};

const TITLES: Record<string, (detail: string) => string> = {
  read_file: (d) => `Read ${d}`,
  list_directory: (d) => `List ${d || "."}`,
  load_skill: (d) => `Load skill ${d}`,
  search_code: (d) => `Search for ${d}`,
  memory_search: (d) => `Search memory for ${d}`,
  web_search: (d) => `Search the web for ${d}`,
  write_file: (d) => `Write ${d}`,
  edit_file: (d) => `Edit ${d}`,
  execute_command: (d) => `Run ${d}`,
  fetch_url: (d) => `Fetch ${d}`,
};

/** Tools whose detail (the key argument) is a path in the workspace. */
const PATH_TOOLS = new Set(["read_file", "list_directory", "write_file", "edit_file"]);

export function isFileEdit(tool: string): boolean {
  return tool === "write_file" || tool === "edit_file";
}

/** A path the model gave, as the absolute path editors expect (ACP locations and diffs are absolute). */
export function workspacePath(workspace: string, given: string): string {
  return path.resolve(workspace, given || ".");
}

export function toolView(tool: string, detail: string, workspace: string): ToolView {
  const title = TITLES[tool]?.(detail) ?? (detail ? `${tool}: ${detail}` : tool);
  const locations = PATH_TOOLS.has(tool) && !detail.startsWith("skill://") ? [{ path: workspacePath(workspace, detail) }] : [];
  return { kind: KINDS[tool] ?? "other", title, locations };
}
