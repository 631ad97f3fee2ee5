import { createHash } from "node:crypto";
import { promises as fs, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { writeFiles } from "../../tools/helpers.js";
import { runSandboxed, useSandboxWorkspace } from "./helpers.js";

const ws = useSandboxWorkspace();

/** This repo's vitest: the fixture project links to it, so nothing is installed at test time. */
const VITEST_PACKAGE = realpathSync(fileURLToPath(new URL("../../../node_modules/vitest", import.meta.url)));
/** This repo's jest (a devDependency for this test), linked the same way. */
const JEST_PACKAGE = realpathSync(fileURLToPath(new URL("../../../node_modules/jest", import.meta.url)));
/**
 * The repository's node_modules, made visible read-only inside the sandbox: a clone under /tmp (as CI may use) would
 * otherwise be hidden by the sandbox's private /tmp.
 */
const REPO_MODULES = realpathSync(fileURLToPath(new URL("../../../node_modules", import.meta.url)));

/** Every path under `root` (symlinks not followed) with its mode, size, mtime, link target and content hash. */
async function tree(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(abs: string, rel: string): Promise<void> {
    const st = await fs.lstat(abs);
    const detail = st.isSymbolicLink()
      ? `-> ${await fs.readlink(abs)}`
      : st.isFile()
        ? createHash("sha256")
            .update(await fs.readFile(abs))
            .digest("hex")
        : "";
    out.push(`${rel} ${st.mode.toString(8)} ${st.size} ${st.mtimeMs} ${detail}`);
    if (!st.isDirectory()) return;
    for (const name of (await fs.readdir(abs)).sort()) await walk(path.join(abs, name), rel === "." ? name : `${rel}/${name}`);
  }
  await walk(root, ".");
  return out;
}

/** Runs `command` with a read-only workspace; `output` is what it printed (the content also echoes the command). */
async function runReadOnly(command: string) {
  // The outer vitest's own variables would make the inner one think it runs inside a worker.
  const clean = "unset VITEST VITEST_MODE VITEST_POOL_ID VITEST_WORKER_ID NODE_ENV;";
  const result = await runSandboxed(ws(), `${clean} ${command}`, { workspaceAccess: "read-only", readOnlyPaths: [REPO_MODULES] });
  return { ...result, output: result.content.split("Output (stdout and stderr together):\n")[1] ?? "" };
}

/** A small project with node:test and vitest tests, an npm script, stale caches and an old coverage report. */
async function makeProject(root: string): Promise<void> {
  await writeFiles(root, {
    "package.json": JSON.stringify({ name: "fixture", private: true, type: "module", scripts: { test: "node --test test/" } }),
    "test/math.test.js": 'import test from "node:test";\nimport assert from "node:assert";\ntest("adds", () => assert.equal(1 + 1, 2));\n',
    "src/sum.ts": "export const sum = (a: number, b: number): number => a + b;\n",
    "src/sum.test.ts": 'import { expect, test } from "vitest";\nimport { sum } from "./sum";\ntest("sum", () => expect(sum(1, 2)).toBe(3));\n',
    "node_modules/.vite/vitest/stale/results.json": "{}",
    "coverage/old.txt": "old report\n",
  });
  await fs.symlink(VITEST_PACKAGE, path.join(root, "node_modules", "vitest"));
  await fs.mkdir(path.join(root, "node_modules", ".bin"));
  await fs.symlink("../vitest/vitest.mjs", path.join(root, "node_modules", ".bin", "vitest"));
}

describe("bubblewrap sandbox: read-only workspace", () => {
  it("cannot write, delete, rename or chmod workspace files, directly, in subfolders, via symlinks or in .git", async () => {
    const root = ws().root;
    await writeFiles(root, { "a.txt": "A\n", "sub/deep/b.txt": "B\n", "sub/c.sh": "echo c\n" });
    await fs.symlink("sub", path.join(root, "sub-link"));
    await fs.symlink("sub/deep/b.txt", path.join(root, "b-link"));
    await fs.symlink(path.join(root, "a.txt"), path.join(root, "sub", "a-link"));
    const git = await runSandboxed(
      ws(),
      "git init -q && git -c user.name=t -c user.email=t@t add -A && git -c user.name=t -c user.email=t@t commit -qm init && echo committed",
    );
    expect(git.content).toContain("committed");
    const before = await tree(root);

    const attempts = [
      "echo x > a.txt",
      "echo x >> sub/deep/b.txt",
      "truncate -s 0 sub/c.sh",
      "touch a.txt",
      "rm a.txt",
      "rm -r sub",
      "rm sub/deep/b.txt",
      "mv a.txt moved.txt",
      "mv sub/deep/b.txt sub/b2.txt",
      "chmod 600 a.txt",
      "chmod +x sub/c.sh",
      "chmod 700 sub/deep",
      "echo x > sub-link/deep/b.txt",
      "echo x > b-link",
      "echo x > sub/a-link",
      "rm sub-link/deep/b.txt",
      "mkdir sub/new-dir",
      "touch sub/deep/new.txt",
      "ln -s /etc sub/etc-link",
      "echo x >> .git/config",
      "echo '#!/bin/sh' > .git/hooks/pre-commit",
      "rm -r .git/objects",
      "git -c user.name=t -c user.email=t@t commit -q --allow-empty -m evil",
      "git tag evil",
    ];
    const script = attempts.map((cmd, i) => `{ ${cmd}; } 2>/dev/null && echo "changed ${i}: ${cmd.replace(/["$`\\]/g, "")}"`).join("\n");
    const { output } = await runReadOnly(`${script}\necho x > a.txt; rm sub/c.sh; mv sub moved; git status --short && echo status-ok`);
    expect(output).not.toMatch(/^changed /m);
    expect(output).toContain("a.txt: Read-only file system");
    expect(output).toContain("cannot remove 'sub/c.sh': Read-only file system");
    // A top-level entry is a mount point in the sandbox: moving or removing it fails with EBUSY.
    expect(output).toContain("cannot move 'sub' to 'moved': Device or resource busy");
    // Reading git still works.
    expect(output).toMatch(/status-ok$/);
    expect(await tree(root)).toEqual(before);
  });

  it("gives new top-level output a throwaway scratch that is gone after the command", async () => {
    const root = ws().root;
    await writeFiles(root, { "a.txt": "A\n" });
    const before = await tree(root);
    const first = await runReadOnly("mkdir -p out/x && echo r > out/x/r.txt && echo j > junit.xml && cat out/x/r.txt junit.xml && echo A2 > a.txt");
    expect(first.output).toMatch(/^r\nj\n.*a\.txt: Read-only file system$/);
    const second = await runReadOnly("ls -A");
    // .mini-cursor is the agent's read-only state folder, made up inside the sandbox only.
    expect(second.output).toBe(".mini-cursor\na.txt");
    expect(await tree(root)).toEqual(before);
  });

  it("runs node --test (with V8 coverage into coverage/) and npm test, leaving no trace", async () => {
    const root = ws().root;
    await makeProject(root);
    const before = await tree(root);
    const { content, artifact } = await runReadOnly(
      "ls coverage; NODE_V8_COVERAGE=coverage node --test test/ && ls coverage | grep -c '^coverage-.*\\.json$' && npm test",
    );
    expect(artifact.command?.exitCode, content).toBe(0);
    // The old report is not there: runners clear and rewrite coverage/, so it starts empty.
    expect(content).toContain("No such file or directory");
    expect(content).toMatch(/^# pass 1$/m);
    expect(content).toContain("> node --test test/");
    expect(content.match(/^# fail 0$/gm)).toHaveLength(2);
    expect(await tree(root)).toEqual(before);
  });

  it("runs vitest, whose cache in node_modules/.vite is scratch, leaving no trace", async () => {
    const root = ws().root;
    await makeProject(root);
    const before = await tree(root);
    const { content, artifact } = await runReadOnly("node_modules/.bin/vitest run src && find node_modules/.vite -name results.json | sort");
    expect(artifact.command?.exitCode, content).toBe(0);
    expect(content).toMatch(/Tests\s+1 passed/);
    expect(content).not.toContain("stale/results.json");
    expect(content).toMatch(/node_modules\/\.vite\/vitest\/\w+\/results\.json/);
    expect(await tree(root)).toEqual(before);
  });

  it("runs jest with coverage, whose cache goes to the private /tmp and report to scratch, leaving no trace", async () => {
    const root = ws().root;
    await makeProject(root);
    // CommonJS: the fixture's package is an ES module, which jest runs only behind a Node flag.
    await writeFiles(root, {
      "jest/sum.cjs": "module.exports = (a, b) => a + b;\n",
      "jest/sum.test.cjs": 'const sum = require("./sum.cjs");\ntest("sum", () => expect(sum(1, 2)).toBe(3));\n',
    });
    await fs.symlink(JEST_PACKAGE, path.join(root, "node_modules", "jest"));
    await fs.symlink("../jest/bin/jest.js", path.join(root, "node_modules", ".bin", "jest"));
    const before = await tree(root);
    const jest = "node_modules/.bin/jest jest/ --ci --coverage --coverageReporters=json-summary --coverageReporters=lcov";
    const { content, artifact } = await runReadOnly(`${jest} && ls coverage && ls -d /tmp/jest_* && find /tmp/jest_* -type f | grep -c .`);
    expect(artifact.command?.exitCode, content).toBe(0);
    expect(content).toMatch(/Tests:\s+1 passed, 1 total/);
    // The old report is gone and the new one was written, to scratch.
    expect(content).toMatch(/^coverage-summary\.json\nlcov-report\nlcov\.info\n/m);
    expect(content).not.toContain("old.txt");
    // Its cache (jest's default cacheDirectory) was written, under the sandbox's private /tmp.
    expect(content).toMatch(/^\/tmp\/jest_\w+\n[1-9]\d*$/m);
    expect(await tree(root)).toEqual(before);
  });

  it("binds a workspace with many top-level entries read-only as a whole, still leaving no trace", async () => {
    const root = ws().root;
    for (let i = 0; i < 201; i++) await fs.writeFile(path.join(root, `f${i}.txt`), `${i}\n`);
    const before = await tree(root);
    const { output } = await runReadOnly("echo x > f1.txt; rm f2.txt; mkdir out; echo j > junit.xml; cat f200.txt");
    expect(output.match(/Read-only file system/g)).toHaveLength(4);
    expect(output).toMatch(/\n200$/);
    expect(await tree(root)).toEqual(before);
  });

  it("leaves read-write mode as it was: the same commands change the workspace", async () => {
    const root = ws().root;
    await writeFiles(root, { "a.txt": "A\n", "sub/b.txt": "B\n" });
    const { artifact } = await runSandboxed(ws(), "echo A2 > a.txt && mv sub/b.txt sub/c.txt && touch junit.xml");
    expect(artifact.ok).toBe(true);
    expect(await fs.readFile(path.join(root, "a.txt"), "utf8")).toBe("A2\n");
    expect((await fs.readdir(root)).sort()).toEqual([".mini-cursor", "a.txt", "junit.xml", "sub"]);
    expect(await fs.readdir(path.join(root, "sub"))).toEqual(["c.txt"]);
  });
});
