import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { printSummary, summarise } from "./cpuprofile-summary.js";
import { buildBare, runProgram, startVersusServer, type Program } from "./versus-bare.js";
import { MODEL_CALLS } from "./versus-script.js";

/**
 * Profiles one "versus bare" session of each program with `node --cpu-prof` and prints where the CPU goes: before
 * the first model request, per model call from the first request to the last, and after the last (shutdown).
 * `npm run build && node --import tsx bench/profile-versus.ts [mini-cursor|bare LangGraph|mini-cursor (memory off)]...`
 * Not part of `npm run bench`: a diagnosis tool. The .cpuprofile files stay in the printed folder (open them in
 * Chrome DevTools or speedscope).
 */
const programs = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["mini-cursor", "bare LangGraph"]) as Program[];
await buildBare();
const { server, marker } = await startVersusServer();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-bench-profile-data-"));
const profiles = fs.mkdtempSync(path.join(os.tmpdir(), "mc-bench-profiles-"));
try {
  for (const program of programs) {
    const dir = path.join(profiles, program.replace(/\W+/g, "-"));
    const o = { baseUrl: server.baseUrl, marker, requests: server.requests, dataDir };
    await runProgram(program, o); // warm-up: file cache, Chroma's first start in this data folder
    const figures = await runProgram(program, { ...o, nodeFlags: ["--cpu-prof", "--cpu-prof-dir", dir] });
    const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
    if (!file || marker.firstAtUs === undefined || marker.lastAtUs === undefined) throw new Error(`${program}: no profile or no requests`);
    console.log(
      `\n=== ${program}: wall ${figures.wallMs.toFixed(0)} ms, CPU ${figures.cpuMs.toFixed(0)} ms, first request after ${figures.firstRequestMs.toFixed(0)} ms; profile ${path.join(dir, file)}`,
    );
    printSummary(
      program,
      summarise(path.join(dir, file), [
        { label: "process start to first model request", fromUs: 0, toUs: marker.firstAtUs, per: 1 },
        { label: "first to last model request", fromUs: marker.firstAtUs, toUs: marker.lastAtUs, per: MODEL_CALLS - 1 },
        { label: "after the last model request (finish, exit)", fromUs: marker.lastAtUs, toUs: Number.POSITIVE_INFINITY, per: 1 },
      ]),
    );
  }
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
