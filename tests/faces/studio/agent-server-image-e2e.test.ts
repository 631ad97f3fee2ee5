/**
 * What can be checked here of the LangGraph Agent Server's image without Docker: the LangGraph CLI accepts
 * langgraph.json as it is and generates the image's Dockerfile (the same one `langgraphjs build` feeds to
 * `docker build`), serving the mini-cursor graph from src/faces/studio/graph.ts on the JS server image. Building and
 * running that image needs a Docker engine and a licence key, which these machines lack (README: Scale out).
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const CLI = path.join(REPO, "node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs");
let dir = "";

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = "";
});

describe("the Agent Server image", () => {
  it("is generated from langgraph.json unchanged: the JS server image for Node 20, the graph, npm ci", async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "mc-agent-image-"));
    const target = path.join(dir, "Dockerfile");
    const run = spawnSync(process.execPath, [CLI, "dockerfile", target], {
      cwd: REPO,
      encoding: "utf8",
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? "", HOME: dir, LANGGRAPH_CLI_NO_ANALYTICS: "1", NO_COLOR: "1" },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    const lines = (await readFile(target, "utf8")).split("\n");
    expect(lines[0]).toBe("FROM langchain/langgraphjs-api:20");
    expect(lines).toContain(`ENV LANGSERVE_GRAPHS='{"mini-cursor":"./src/faces/studio/graph.ts:graph"}'`);
    expect(lines).toContain("RUN npm ci");
    // The project goes in whole (ADD .): what keeps the host's node_modules and session data out is .dockerignore.
    expect(lines.some((l) => /^ADD \. \/deps\/[^ ]+$/.test(l))).toBe(true);
    const ignored = (await readFile(path.join(REPO, ".dockerignore"), "utf8")).split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "dist", ".mini-cursor", ".langgraph_api"]));
  });
});
