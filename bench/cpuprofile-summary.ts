import fs from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";

/**
 * Aggregates a V8 `.cpuprofile` (from `node --cpu-prof`) by package / mini-cursor folder and by function, within
 * time windows (µs on the monotonic clock, which `process.hrtime` shares with V8's profiler on Linux). Self time is
 * where samples landed; inclusive time counts a sample once for every group on its stack.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Window {
  label: string;
  fromUs: number;
  toUs: number;
  /** Divides the figures (e.g. per model call); 1 for totals. */
  per: number;
}

/** "langchain", "@langchain/core", "mini-cursor/tools", "node:internal", "(garbage collector)"... */
export function groupOf(frame: CallFrame): string {
  const url = frame.url;
  if (url === "") return frame.functionName.startsWith("(") ? frame.functionName : "(native)";
  if (url.startsWith("node:")) return "node: built-ins";
  const file = url.replace(/^file:\/\//, "");
  const nm = file.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const parts = file.slice(nm + "/node_modules/".length).split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1] ?? ""}` : (parts[0] ?? file);
  }
  const src = file.indexOf("/src/");
  if (src >= 0)
    return `mini-cursor/${
      file
        .slice(src + "/src/".length)
        .split("/")
        .slice(0, -1)
        .join("/") || "."
    }`;
  const dist = file.indexOf("/dist/");
  if (dist >= 0)
    return `mini-cursor/${
      file
        .slice(dist + "/dist/".length)
        .split("/")
        .slice(0, -1)
        .join("/") || "."
    }`;
  const bench = file.indexOf("/bench/out/");
  if (bench >= 0) return "bench program";
  return path.basename(file);
}

/**
 * The nearest package or folder on the stack above node built-ins and native code; "(module loading)" when node's
 * module loader comes first (resolving, reading and compiling imports has no package frame above it).
 */
function callerOf(stack: readonly ProfileNode[]): string {
  for (const node of stack) {
    if (node.callFrame.url.startsWith("node:internal/modules/")) return "(module loading)";
    const group = groupOf(node.callFrame);
    if (group !== "node: built-ins" && group !== "(native)" && group !== "(root)") return group;
  }
  return groupOf(stack[0]?.callFrame ?? { functionName: "(root)", url: "", lineNumber: 0 });
}

function functionOf(frame: CallFrame): string {
  const file = frame.url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\//, "")
    .replace(/^.*\/(src|dist)\//, "$1/");
  return `${frame.functionName || "(anonymous)"} ${file ? `${file}:${frame.lineNumber + 1}` : ""}`.trim();
}

export interface Summary {
  label: string;
  totalMs: number;
  per: number;
  self: [string, number][];
  /** Self time with node built-ins and native code charged to the nearest package or folder that called them. */
  byCaller: [string, number][];
  inclusive: [string, number][];
  functionsSelf: [string, number][];
  functionsInclusive: [string, number][];
}

const sourceMaps = new Map<string, SourceMap | null>();

/**
 * The source a frame of the bundled CLI (dist/cli and dist/app, esbuild) came from, by the bundle's source maps: the
 * frame of a mini-cursor module or a package's file instead of "dist/app/chunk-XXXX.js".
 */
export function unbundled(frame: CallFrame): CallFrame {
  if (!/\/dist\/(cli|app)\//.test(frame.url)) return frame;
  const file = frame.url.replace(/^file:\/\//, "");
  let map = sourceMaps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, "utf8")) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    sourceMaps.set(file, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber ?? 0);
  if (!entry || !("originalSource" in entry)) return frame;
  const original = path.resolve(path.dirname(file), entry.originalSource.replace(/^file:\/\//, ""));
  return { ...frame, url: `file://${original}`, lineNumber: entry.originalLine, columnNumber: entry.originalColumn };
}

export function summarise(file: string, windows: Window[], top = Number(process.env.MINI_CURSOR_BENCH_PROFILE_TOP ?? 12)): Summary[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  for (const node of profile.nodes) node.callFrame = unbundled(node.callFrame);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number): ProfileNode[] => {
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (node) stack.push(node);
    }
    return stack;
  };
  const stacks = new Map<number, ProfileNode[]>();
  return windows.map((w) => {
    const self = new Map<string, number>();
    const byCaller = new Map<string, number>();
    const inclusive = new Map<string, number>();
    const fnSelf = new Map<string, number>();
    const fnInclusive = new Map<string, number>();
    const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
    let t = profile.startTime;
    let total = 0;
    profile.samples.forEach((id, i) => {
      // A sample stands for the time until the next one.
      t += profile.timeDeltas[i] ?? 0;
      const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      if (t < w.fromUs || t >= w.toUs) return;
      let stack = stacks.get(id);
      if (!stack) stacks.set(id, (stack = stackOf(id)));
      const leaf = stack[0];
      if (!leaf || leaf.callFrame.functionName === "(idle)") return;
      total += dt;
      add(self, groupOf(leaf.callFrame), dt);
      add(byCaller, callerOf(stack), dt);
      add(fnSelf, functionOf(leaf.callFrame), dt);
      for (const g of new Set(stack.map((n) => groupOf(n.callFrame)))) if (g !== "(root)") add(inclusive, g, dt);
      for (const f of new Set(stack.filter((n) => n.callFrame.url !== "").map((n) => functionOf(n.callFrame)))) add(fnInclusive, f, dt);
    });
    const topOf = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, v]): [string, number] => [k, v / w.per]);
    return {
      label: w.label,
      totalMs: total / w.per,
      per: w.per,
      self: topOf(self),
      byCaller: topOf(byCaller),
      inclusive: topOf(inclusive),
      functionsSelf: topOf(fnSelf),
      functionsInclusive: topOf(fnInclusive),
    };
  });
}

export function printSummary(title: string, summaries: Summary[]): void {
  for (const s of summaries) {
    console.log(`\n${title}: ${s.label}: ${s.totalMs.toFixed(2)} ms of non-idle CPU samples${s.per === 1 ? "" : ` per call (÷ ${s.per})`}`);
    const block = (name: string, rows: [string, number][]) => {
      console.log(`  ${name}`);
      for (const [k, v] of rows) console.log(`    ${v.toFixed(2).padStart(9)} ms  ${k}`);
    };
    block("self time by package / folder", s.self);
    block("self time, node built-ins and native code charged to their caller", s.byCaller);
    block("inclusive time by package / folder", s.inclusive);
    block("self time by function", s.functionsSelf);
    block("inclusive time by function", s.functionsInclusive);
  }
}
