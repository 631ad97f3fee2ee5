import fs from "node:fs";
import { openSessionDatabase } from "../src/sessions/database.js";
import { databasePath } from "../src/sessions/paths.js";
import type { BuiltinAgentName as AgentName } from "../src/core/index.js";
import { makeWorkspace, removeWorkspace, runSession } from "./session.js";
import { bytes, printTable, ratio } from "./stats.js";

/**
 * Benchmark 2: how the checkpoint database grows with the length of a session. A "step" here is one
 * sub-agent run (each run is two supersteps: the sub-agent, then the planner folding its report in).
 */

const ROTATION: readonly AgentName[] = ["researcher", "coder", "reviewer"];

interface GrowthSample {
  runs: number;
  supersteps: number;
  fileBytes: number;
  checkpoints: number;
  subgraphCheckpoints: number;
  checkpointBlobBytes: number;
  metadataBytes: number;
  writes: number;
  writeBlobBytes: number;
  /** length(checkpoint) of every checkpoint, oldest first. */
  perCheckpoint: number[];
  writesByChannel: { channel: string; n: number; b: number; max: number }[];
  /** JSON size of each state channel in the newest checkpoint. */
  channels: Record<string, number>;
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

async function measure(runs: number): Promise<GrowthSample> {
  const workspace = await makeWorkspace(`growth-${runs}`);
  const database = openSessionDatabase(workspace, { now: () => Date.now() });
  try {
    const threadId = `growth-${runs}`;
    // The rotation ends on an approving reviewer, so the planner never has to add a final review run.
    const agentFor = (i: number) => ROTATION[(((i - runs + 1) % 3) + 5) % 3] ?? "researcher";
    const result = await runSession({ runs, agentFor, realistic: true }, workspace, database.checkpointer, threadId);
    const { db } = database;
    db.pragma("wal_checkpoint(TRUNCATE)");
    const file = databasePath(workspace);
    const fileBytes = fileSize(file) + fileSize(`${file}-wal`);

    const totals = db
      .prepare(
        "SELECT count(*) AS n, coalesce(sum(length(checkpoint)), 0) AS b, coalesce(sum(length(metadata)), 0) AS m, coalesce(sum(checkpoint_ns <> ''), 0) AS sub FROM checkpoints",
      )
      .get() as { n: number; b: number; m: number; sub: number };
    const writes = db.prepare("SELECT count(*) AS n, coalesce(sum(length(value)), 0) AS b FROM writes").get() as { n: number; b: number };
    const perCheckpoint = (db.prepare("SELECT length(checkpoint) AS len FROM checkpoints ORDER BY rowid").all() as { len: number }[]).map((r) => r.len);

    const writesByChannel = db
      .prepare(
        "SELECT channel, count(*) AS n, coalesce(sum(length(value)), 0) AS b, coalesce(max(length(value)), 0) AS max FROM writes GROUP BY channel ORDER BY b DESC LIMIT 8",
      )
      .all() as GrowthSample["writesByChannel"];
    const tuple = await database.checkpointer.getTuple({ configurable: { thread_id: threadId } });
    const channels: Record<string, number> = {};
    for (const [name, value] of Object.entries(tuple?.checkpoint.channel_values ?? {})) {
      channels[name] = JSON.stringify(value ?? null).length;
    }
    return {
      runs,
      supersteps: result.steps.length,
      fileBytes,
      checkpoints: totals.n,
      subgraphCheckpoints: totals.sub,
      checkpointBlobBytes: totals.b,
      metadataBytes: totals.m,
      writes: writes.n,
      writeBlobBytes: writes.b,
      perCheckpoint,
      writesByChannel,
      channels,
    };
  } finally {
    database.close();
    await removeWorkspace(workspace);
  }
}

export async function benchGrowth(points: readonly number[]): Promise<void> {
  const samples: GrowthSample[] = [];
  for (const runs of points) samples.push(await measure(runs));

  printTable(
    "2. Checkpoint database size — realistic reports (researcher → coder → reviewer rotation; coder/reviewer run one shell command), SqliteSaver on a file, after PRAGMA wal_checkpoint(TRUNCATE)",
    [
      "sub-agent runs",
      "supersteps",
      "checkpoints",
      "DB+WAL",
      "bytes/run",
      "Σ checkpoint blobs",
      "blob bytes/run",
      "newest checkpoint",
      "Σ metadata",
      "writes rows",
      "Σ write values",
    ],
    samples.map((s) => [
      String(s.runs),
      String(s.supersteps),
      `${s.checkpoints}${s.subgraphCheckpoints > 0 ? ` (${s.subgraphCheckpoints} subgraph)` : ""}`,
      bytes(s.fileBytes),
      bytes(s.fileBytes / s.runs),
      bytes(s.checkpointBlobBytes),
      bytes(s.checkpointBlobBytes / s.runs),
      bytes(s.perCheckpoint.at(-1) ?? 0),
      bytes(s.metadataBytes),
      String(s.writes),
      bytes(s.writeBlobBytes),
    ]),
  );

  const [a, b, c] = samples;
  if (!a || !b || !c) return;
  const growthRows: string[][] = [];
  const growth = (pick: (s: GrowthSample) => number) => {
    const first = (pick(b) - pick(a)) / (b.runs - a.runs);
    const second = (pick(c) - pick(b)) / (c.runs - b.runs);
    return { first, second, ratio: second / first };
  };
  const file = growth((s) => s.fileBytes);
  const blobs = growth((s) => s.checkpointBlobBytes);
  const writeValues = growth((s) => s.writeBlobBytes);
  growthRows.push(["DB+WAL file", bytes(file.first), bytes(file.second), ratio(file.ratio)]);
  growthRows.push(["Σ checkpoint blobs", bytes(blobs.first), bytes(blobs.second), ratio(blobs.ratio)]);
  growthRows.push(["Σ write values", bytes(writeValues.first), bytes(writeValues.second), ratio(writeValues.ratio)]);
  printTable(
    `   Marginal growth per run (linear ⇒ ratio ≈ 1.0; quadratic a·n² ⇒ ratio ≈ ${((c.runs + b.runs) / (b.runs + a.runs)).toFixed(2)})`,
    ["measure", `${a.runs}→${b.runs}`, `${b.runs}→${c.runs}`, `growth(${b.runs}→${c.runs}) ÷ growth(${a.runs}→${b.runs})`],
    growthRows,
  );

  // What grows: the size of single checkpoints along the longest session, and which channels make it up.
  const per = c.perCheckpoint;
  const picks = [0, 1, Math.floor(per.length / 4), Math.floor(per.length / 2), Math.floor((3 * per.length) / 4), per.length - 1];
  printTable(
    `   Single checkpoint size along the ${c.runs}-run session (SELECT length(checkpoint) FROM checkpoints ORDER BY rowid)`,
    ["checkpoint #", "length(checkpoint)"],
    [...new Set(picks)].map((i) => [String(i + 1), bytes(per[i] ?? 0)]),
  );
  // Least-squares slope over the session's checkpoints, leaving out the input checkpoint and the last one
  // (which alone also holds the final report).
  const body = per.slice(1, -1);
  const xMean = (body.length - 1) / 2;
  const yMean = body.reduce((sum, y) => sum + y, 0) / body.length;
  let num = 0;
  let den = 0;
  body.forEach((y, x) => {
    num += (x - xMean) * (y - yMean);
    den += (x - xMean) ** 2;
  });
  const slope = den > 0 ? num / den : 0;
  console.log(
    `   Each checkpoint is larger than the one before by about ${bytes(slope)} on average (≈ ${bytes((slope * (c.checkpoints - 2)) / c.runs)} per sub-agent run).`,
  );

  printTable(
    `   Pending-write rows of the ${c.runs}-run session by channel (SELECT channel, count(*), sum(length(value)) FROM writes GROUP BY channel)`,
    ["channel", "rows", "Σ bytes", "largest"],
    c.writesByChannel.map((w) => [w.channel, String(w.n), bytes(w.b), bytes(w.max)]),
  );

  const names = Object.keys(c.channels).sort((x, y) => (c.channels[y] ?? 0) - (c.channels[x] ?? 0));
  printTable(
    "   JSON size of each state channel in the newest checkpoint",
    ["channel", ...samples.map((s) => `${s.runs} runs`)],
    names.filter((n) => samples.some((s) => (s.channels[n] ?? 0) > 16)).map((n) => [n, ...samples.map((s) => bytes(s.channels[n] ?? 0))]),
  );

  const linear = file.ratio < 1.25 && blobs.ratio < 1.25;
  const verdict = linear
    ? `linear — bytes per run stay flat (growth ratio ${ratio(file.ratio)} file, ${ratio(blobs.ratio)} blobs)`
    : `NOT linear — bytes per run keep rising (growth ratio ${ratio(file.ratio)} file, ${ratio(blobs.ratio)} blobs): storage grows roughly with the square of the session length`;
  console.log(`   Verdict: ${verdict}`);
}
