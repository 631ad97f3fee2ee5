import { promises as fs } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EditorFiles } from "../../src/services/workspace-files/editor-files.js";
import { MAX_TEXT_FILE_BYTES } from "../../src/services/workspace-files/text-file.js";
import { createEditFileTool } from "../../src/tools/edit-file.js";
import { createReadFileTool } from "../../src/tools/read-file.js";
import { createWriteFileTool } from "../../src/tools/write-file.js";
import { callTool, makeWorkspace, writeFiles, type TempWorkspace } from "./helpers.js";

/**
 * The file tools with an editor's buffers (src/services/workspace-files/editor-files.ts): an in-memory editor that
 * records what it was asked, can keep changes unsaved, and can fail. What ACP adds over this is tested end to end in
 * tests/faces/acp/editor-buffers-e2e.test.ts.
 */
class Buffers implements EditorFiles {
  readonly texts = new Map<string, string>();
  readonly asked: string[] = [];
  saves = true;
  failRead: string | null = null;
  failWrite: string | null = null;

  async read(abs: string): Promise<string> {
    this.asked.push(`read ${abs}`);
    if (this.failRead) throw new Error(this.failRead);
    return this.texts.get(abs) ?? fs.readFile(abs, "utf8");
  }

  async write(abs: string, text: string): Promise<void> {
    this.asked.push(`write ${abs}`);
    if (this.failWrite) throw new Error(this.failWrite);
    this.texts.set(abs, text);
    if (this.saves) await fs.writeFile(abs, text);
  }
}

let ws: TempWorkspace;
let editor: Buffers;
beforeEach(async () => {
  ws = await makeWorkspace();
  editor = new Buffers();
  await writeFiles(ws.root, { "a.txt": "disk\n" });
});
afterEach(async () => {
  await ws.cleanup();
});

const at = (rel: string) => path.join(ws.root, rel);

describe("the file tools with an editor's buffers", () => {
  it("read_file shows the buffer's unsaved text; a buffer too large or an editor that fails is an error, not the disk's text", async () => {
    editor.texts.set(at("a.txt"), "buffer\nline two\n");
    const read = createReadFileTool({ root: ws.root, editor });
    expect((await callTool(read, { path: "a.txt" })).content).toBe("   1| buffer\n   2| line two");
    editor.texts.set(at("a.txt"), "x".repeat(MAX_TEXT_FILE_BYTES + 1));
    expect((await callTool(read, { path: "a.txt" })).content).toMatch(/^Error: the editor could not give the text of "a.txt" \(.*larger than/);
    editor.failRead = "buffer closed";
    const failed = await callTool(read, { path: "a.txt" });
    expect(failed.content).toBe(
      'Error: the editor could not give the text of "a.txt" (buffer closed); nothing was changed. Try again, or ask the person to check the file in their editor.',
    );
    expect(failed.artifact.ok).toBe(false);
  });

  it("read_file checks the disk first: a missing file or a path outside the workspace never reaches the editor", async () => {
    const read = createReadFileTool({ root: ws.root, editor });
    expect((await callTool(read, { path: "missing.txt" })).content).toMatch(/does not exist/);
    expect((await callTool(read, { path: "../outside/secret.txt" })).content).toMatch(/outside the workspace/);
    expect(editor.asked).toEqual([]);
  });

  it("edit_file edits the buffer's text and hands the result to the editor; the tool never writes the disk itself", async () => {
    editor.texts.set(at("a.txt"), "buffer one\n");
    editor.saves = false;
    const inode = (await fs.stat(at("a.txt"))).ino;
    const edited = await callTool(createEditFileTool({ root: ws.root, editor }), { path: "a.txt", oldText: "one", newText: "two" });
    expect(edited.content).toContain('Edited "a.txt" through the editor: replaced 1 occurrence.');
    expect(edited.content).toContain('The editor holds the new text of "a.txt" in its buffer but has not saved it yet');
    expect(edited.artifact).toEqual({ ok: true, filesChanged: ["a.txt"] });
    expect(editor.texts.get(at("a.txt"))).toBe("buffer two\n");
    expect(await fs.readFile(at("a.txt"), "utf8")).toBe("disk\n");
    expect((await fs.stat(at("a.txt"))).ino).toBe(inode);
    expect(editor.asked).toEqual([`read ${at("a.txt")}`, `write ${at("a.txt")}`]);
  });

  it("edit_file: text only the disk has is not found in the buffer; a failed read asks for no write", async () => {
    editor.texts.set(at("a.txt"), "buffer\n");
    const edit = createEditFileTool({ root: ws.root, editor });
    expect((await callTool(edit, { path: "a.txt", oldText: "disk", newText: "x" })).content).toMatch(/^Error: oldText was not found in "a.txt"/);
    editor.failRead = "timeout";
    expect((await callTool(edit, { path: "a.txt", oldText: "buffer", newText: "x" })).content).toMatch(/^Error: the editor could not give the text/);
    expect(editor.asked.filter((a) => a.startsWith("write"))).toEqual([]);
  });

  it("write_file goes through the editor: created and overwritten files say so; saved files carry no note", async () => {
    const write = createWriteFileTool({ root: ws.root, editor });
    expect((await callTool(write, { path: "dir/new.txt", content: "hi\n" })).content).toBe('Created "dir/new.txt" through the editor (3 bytes, 1 lines).');
    expect(await fs.readFile(at("dir/new.txt"), "utf8")).toBe("hi\n");
    expect((await callTool(write, { path: "a.txt", content: "again\n" })).content).toBe(
      'Overwrote "a.txt" through the editor (was 5 bytes; now 6 bytes, 1 lines).',
    );
  });

  it("write_file: the buffer's text decides whether anything changes; a refused write leaves everything as it was", async () => {
    editor.texts.set(at("a.txt"), "same\n");
    const write = createWriteFileTool({ root: ws.root, editor });
    expect((await callTool(write, { path: "a.txt", content: "same\n" })).content).toMatch(/already has exactly this content/);
    editor.failWrite = "the person closed the file";
    const refused = await callTool(write, { path: "a.txt", content: "other\n" });
    expect(refused.content).toBe(
      'Error: the editor did not take the change to "a.txt" (the person closed the file); the file is as it was in the editor. Try again, or ask the person.',
    );
    expect(refused.artifact.ok).toBe(false);
    expect(await fs.readFile(at("a.txt"), "utf8")).toBe("disk\n");
  });

  it("write_file: mini-cursor's own state and a symlinked folder leading outside are refused before the editor hears of them", async () => {
    await fs.symlink(ws.outside, at("link"));
    const write = createWriteFileTool({ root: ws.root, editor });
    expect((await callTool(write, { path: ".mini-cursor/x.json", content: "{}" })).artifact.ok).toBe(false);
    expect((await callTool(write, { path: "link/secret.txt", content: "pwned" })).content).toMatch(/outside the workspace/);
    expect(editor.asked).toEqual([]);
    expect(await fs.readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
  });
});
