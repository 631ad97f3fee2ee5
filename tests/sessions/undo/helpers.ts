/**
 * Helpers for the undo tests: real files in temporary workspaces, a whole-workspace fingerprint for
 * byte-for-byte comparisons, the user's own git, and a fake CliIo.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { CliIo } from "../../../src/faces/cli/io.js";
import type { Clock } from "../../../src/platform/clock.js";

export function write(root: string, relative: string, content: string | Buffer, mode?: number): void {
  const target = path.join(root, relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
  if (mode !== undefined) fs.chmodSync(target, mode);
}

export function read(root: string, relative: string): Buffer {
  return fs.readFileSync(path.join(root, relative));
}

export function exists(root: string, relative: string): boolean {
  try {
    fs.lstatSync(path.join(root, relative));
    return true;
  } catch {
    return false;
  }
}

/** Every file, link and folder under `root` with its exact bytes and mode, skipping our data and the user's .git. */
export function fingerprint(root: string, skip: readonly string[] = [".mini-cursor", ".git"]): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (!dir && skip.includes(entry.name)) continue;
      const full = path.join(root, relative);
      const stat = fs.lstatSync(full);
      const mode = (stat.mode & 0o777).toString(8);
      if (stat.isSymbolicLink()) result[relative] = `link -> ${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        result[`${relative}/`] = `dir ${mode}`;
        walk(relative);
      } else result[relative] = `file ${mode} ${fs.readFileSync(full).toString("hex")}`;
    }
  };
  walk("");
  return result;
}

/** The user's own git, with an identity and none of their global settings. */
export function userGit(root: string, args: string[]): string {
  return execFileSync("git", args, {
    cwd: root,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: os.tmpdir(),
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: os.devNull,
      GIT_AUTHOR_NAME: "User",
      GIT_AUTHOR_EMAIL: "user@example.com",
      GIT_COMMITTER_NAME: "User",
      GIT_COMMITTER_EMAIL: "user@example.com",
    },
  });
}

export interface FakeIo extends CliIo {
  out(): string;
  err(): string;
}

export function fakeIo(cwd: string, env: NodeJS.ProcessEnv = process.env): FakeIo {
  let out = "";
  let err = "";
  return {
    stdin: Readable.from([]),
    stdout: { write: (text: string) => void (out += text) },
    stderr: { write: (text: string) => void (err += text) },
    env,
    cwd,
    out: () => out,
    err: () => err,
  };
}

/** A clock the test moves by hand, so "latest session" does not depend on how fast the test runs. */
export function manualClock(start = Date.UTC(2026, 10, 30, 4, 15, 0)): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}
