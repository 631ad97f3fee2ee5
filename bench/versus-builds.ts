import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { median } from "./stats.js";
import { buildBare, runProgram, startVersusServer, type Program } from "./versus-bare.js";

/**
 * A/B of two (or more) builds of the CLI on the "versus bare" session, alternating in one invocation (the machine's
 * noise hits all alike): `node --import tsx bench/versus-builds.ts A/dist/cli/main.js B/dist/cli/main.js [C/...]`;
 * each round runs the builds in a rotated order. A copied build must sit inside a checkout with node_modules (e.g.
 * bench/out/, or a copy with node_modules linked), since its native and external packages resolve from there.
 * MINI_CURSOR_BENCH_AB_REPS (default 8) runs of each after a warm-up; MINI_CURSOR_BENCH_AB_MEMORY=on keeps
 * memory on. Not part of `npm run bench`: a tool for measuring one change.
 */
const builds = process.argv.slice(2).map((file) => path.resolve(file));
if (builds.length < 2) throw new Error("usage: bench/versus-builds.ts <build A main.js> <build B main.js> [more builds]");
const program: Program = process.env.MINI_CURSOR_BENCH_AB_MEMORY === "on" ? "mini-cursor" : "mini-cursor (memory off)";
const reps = Number(process.env.MINI_CURSOR_BENCH_AB_REPS ?? 8);
await buildBare();
const { server, marker } = await startVersusServer();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mc-bench-ab-"));
const figures = new Map(
  builds.map((cli) => [
    cli,
    { first: [] as number[], cpu: [] as number[], wall: [] as number[], children: [] as number[], faults: [] as number[], rss: [] as number[] },
  ]),
);
try {
  for (let i = 0; i <= reps; i++) {
    const shift = i % builds.length;
    for (const cli of [...builds.slice(shift), ...builds.slice(0, shift)]) {
      process.env.MINI_CURSOR_BENCH_CLI = cli;
      const run = await runProgram(program, { baseUrl: server.baseUrl, marker, requests: server.requests, dataDir });
      if (i === 0) continue; // warm-up: file cache, Chroma's first start
      const f = figures.get(cli);
      f?.first.push(run.firstRequestMs);
      f?.cpu.push(run.cpuMs / run.modelCalls);
      f?.wall.push(run.wallMs);
      f?.children.push(run.childrenCpuMs);
      f?.faults.push(run.minorFaults);
      f?.rss.push(run.maxRssMb);
    }
  }
} finally {
  delete process.env.MINI_CURSOR_BENCH_CLI;
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(`${program}, ${reps} alternating runs of each: medians`);
for (const [cli, f] of figures) {
  console.log(
    `${cli}: first request ${median(f.first).toFixed(0)} ms, CPU per model call ${median(f.cpu).toFixed(1)} ms, wall ${median(f.wall).toFixed(0)} ms, children's CPU ${median(f.children).toFixed(0)} ms, minor page faults ${median(f.faults).toFixed(0)}, peak RSS ${median(f.rss).toFixed(1)} MB (${Math.min(...f.rss).toFixed(0)}–${Math.max(...f.rss).toFixed(0)})`,
  );
}
