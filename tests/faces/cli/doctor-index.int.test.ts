import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkIndex } from "../../../src/faces/cli/commands/doctor-index.js";
import { systemClock } from "../../../src/platform/clock.js";
import { openCodeIndex } from "../../../src/memory/retrieval/open-index.js";
import { startTestChroma, type TestChroma } from "../../helpers/chroma.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";

/** What doctor says about a built index on a running local Chroma: files and chunks, counted from the ids alone. */
let chroma: TestChroma;
let ws: TempWorkspace;

beforeAll(async () => {
  chroma = await startTestChroma();
  ws = await makeTempWorkspace({
    // Three functions: three chunks of one file.
    "src/strings.ts": [
      "/** Pads the left. */\nexport function padLeft(s: string) {\n  return ` ${s}`;\n}\n",
      "/** Pads the right. */\nexport function padRight(s: string) {\n  return `${s} `;\n}\n",
      "/** Trims. */\nexport function trim(s: string) {\n  return s.trim();\n}\n",
    ].join("\n"),
    "src/math.ts": "/** Adds. */\nexport function add(a: number, b: number) {\n  return a + b;\n}\n",
    "README.md": "# Demo\n\nA workspace for doctor.\n",
  });
});
afterAll(async () => {
  await ws?.cleanup();
  await chroma?.stop();
});

describe("doctor's index report", () => {
  it("counts the files and chunks a running local server holds for the workspace", async () => {
    const opened = await openCodeIndex({
      root: ws.root,
      env: { CHROMA_URL: chroma.url, HOME: "/nonexistent-home", MINI_CURSOR_DATA_DIR: chroma.dataDir },
      clock: systemClock,
    });
    try {
      await opened.index.update();
      const { files, chunks } = opened.index.stats();
      expect(files).toBe(3);
      expect(chunks).toBeGreaterThan(files);
      const report = await checkIndex(ws.root, { MINI_CURSOR_DATA_DIR: chroma.dataDir, HOME: "/nonexistent-home" }, chroma.url);
      expect(report).toMatchObject({ enabled: true, files, chunks, detail: `${files} files, ${chunks} chunks in collection ${report.collection}` });
    } finally {
      await opened.close();
    }
  });
});
