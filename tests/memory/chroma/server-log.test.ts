import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { logTail } from "../../../src/memory/chroma/server-log.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mini-cursor-chroma-log-"));
afterEach(() => fs.rmSync(path.join(dir, "log"), { force: true }));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function tailOf(text: string): string {
  fs.writeFileSync(path.join(dir, "log"), text);
  return logTail(path.join(dir, "log"));
}

const BANNER = "\u001b[38;5;069m((((((\u001b[38;5;203m((((\u001b[0m\n\nSaving data to: /d/chroma\nConnect to Chroma at: http://localhost:1\n";

describe("logTail", () => {
  it("picks the loader error when the native binding needs a newer glibc", () => {
    const log = [
      "node:internal/modules/cjs/loader:1460",
      "  return process.dlopen(module, path.toNamespacedPath(filename));",
      "Error: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by /m/bindings.node)",
      "    at Module._extensions..node (node:internal/modules/cjs/loader:1460:18)",
      "    at Module.load (node:internal/modules/cjs/loader:1203:32) {",
      "Node.js v20.20.0",
    ].join("\n");
    expect(tailOf(log)).toBe("Error: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by /m/bindings.node)");
  });

  it("skips the banner and backtrace frames around a panic", () => {
    const log = `${BANNER}\nthread '<unnamed>' panicked at frontend/src/lib.rs:91:10:\nError creating config: PathError\n  0: backtrace_frame\n  1: other_frame_error\nnote: run with \`RUST_BACKTRACE=full\` for a verbose backtrace.\n`;
    expect(tailOf(log)).toBe("thread '<unnamed>' panicked at frontend/src/lib.rs:91:10: | Error creating config: PathError");
  });

  it("falls back to the last lines when nothing looks like an error, and is empty for a missing log", () => {
    expect(tailOf(`${BANNER}\nOpenTelemetry is off.\n`)).toBe("Saving data to: /d/chroma | Connect to Chroma at: http://localhost:1 | OpenTelemetry is off.");
    expect(logTail(path.join(dir, "missing"))).toBe("");
  });
});
