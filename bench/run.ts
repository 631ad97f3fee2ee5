import os from "node:os";
import { performance } from "node:perf_hooks";
import { benchColdStart } from "./cold-start.js";
import { benchGrowth } from "./growth.js";
import { benchMemoryLatency } from "./memory-latency.js";
import { benchRecall } from "./memory-recall.js";
import { benchOverhead, benchSubAgentParts } from "./overhead.js";

/**
 * mini-cursor benchmarks: orchestration overhead per graph superstep, checkpoint database growth and CLI
 * cold start. Run with `npm run bench` (builds first). Times are wall-clock milliseconds on this machine.
 */
const started = performance.now();
console.log(`mini-cursor bench — Node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? "unknown"}), ${os.platform()} ${os.release()}`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
console.log(`Load average (1/5/15 min) at start: ${load()}: other work on the machine makes the p95 figures noisy.`);

await benchOverhead(100, 3);
await benchSubAgentParts(200);
await benchGrowth([10, 50, 100]);
await (await import("./checkpoint-per-call.js")).benchCheckpointPerCall();
await benchColdStart(10, 5);
console.log("\n4. Long-term memory");
await benchMemoryLatency();
await benchRecall();
await (await import("./context-budget.js")).benchContextBudget();
await (await import("./prompt-cache.js")).benchPromptCache();
await (await import("./safety-checks.js")).benchSafetyChecks();
await (await import("./search-code.js")).benchSearchCode();
await (await import("./retrieval.js")).benchRetrieval();
await (await import("./versus-bare.js")).benchVersusBare();

console.log(`\nLoad average at end: ${load()}`);
console.log(`Total bench time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
