/**
 * Temporary project folders for tests.
 */
import { access, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { afterEach, beforeEach } from "vitest";
import os from "node:os";
import path from "node:path";

export interface TempWorkspace {
  /** Real path of the folder (symlinks such as a linked /tmp resolved). */
  root: string;
  /** Deletes the folder and everything in it. Safe to call twice. */
  cleanup(): Promise<void>;
}

/**
 * Creates an empty temporary folder, then writes `files` into it: keys are relative paths with "/" separators
 * (parent folders are created), values are UTF-8 contents. Paths that are absolute or leave the folder throw.
 */
export async function makeTempWorkspace(files: Record<string, string> = {}): Promise<TempWorkspace> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "mini-cursor-test-")));
  const cleanup = (): Promise<void> => rm(root, { recursive: true, force: true });
  try {
    for (const [relative, content] of Object.entries(files)) {
      if (path.isAbsolute(relative)) throw new Error(`makeTempWorkspace: path must be relative: ${relative}`);
      const target = path.resolve(root, relative);
      const fromRoot = path.relative(root, target);
      if (fromRoot === "" || fromRoot === ".." || fromRoot.startsWith(`..${path.sep}`) || path.isAbsolute(fromRoot)) {
        throw new Error(`makeTempWorkspace: path leaves the workspace: ${relative}`);
      }
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content, "utf8");
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
  return { root, cleanup };
}

/**
 * A fresh temporary workspace for every test of the calling file (made before each, deleted after each, also on
 * failure). Read `root` inside a test or hook.
 */
export interface CurrentWorkspace {
  readonly root: string;
  /** Whether a workspace-relative path exists. */
  exists(file: string): Promise<boolean>;
  /** A workspace-relative file as UTF-8. */
  read(file: string): Promise<string>;
}

export function useTempWorkspace(files: Record<string, string> = {}): CurrentWorkspace {
  let current: TempWorkspace | null = null;
  beforeEach(async () => {
    current = await makeTempWorkspace(files);
  });
  afterEach(async () => {
    await current?.cleanup();
    current = null;
  });
  const root = (): string => {
    if (!current) throw new Error("useTempWorkspace: the workspace exists only inside a test");
    return current.root;
  };
  return {
    get root(): string {
      return root();
    },
    exists: (file) =>
      access(path.join(root(), file)).then(
        () => true,
        () => false,
      ),
    read: (file) => readFile(path.join(root(), file), "utf8"),
  };
}
