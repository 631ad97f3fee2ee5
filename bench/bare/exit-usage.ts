import fs from "node:fs";

/**
 * Preloaded into both benchmarked programs (`node --import`): on exit, writes this process's CPU time, peak RSS,
 * minor page faults and the CPU of the child processes it waited for to the file named by BENCH_USAGE_FILE.
 * Children still running at exit (mini-cursor's launcher helper, which spawns its commands for it and ends with
 * it) count as part of the program: their own CPU is added to the program's, the CPU of what they waited for to
 * the children's, and their private memory to the peak RSS, so that moving work into a helper hides none of it.
 */
const file = process.env.BENCH_USAGE_FILE;
const TICK_MS = 10; // clock ticks of 1/100 s on Linux

/** Fields of /proc/<pid>/stat after the command name: state is [0], ppid [1], utime [11], stime [12], cutime [13], cstime [14]. */
function statFields(pid: number | "self"): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** utime+stime of reaped children, from /proc/self/stat. */
function childrenCpuMs(): number {
  const fields = statFields("self");
  return fields ? (Number(fields[13]) + Number(fields[14])) * TICK_MS : Number.NaN;
}

/** Live (not zombie) children of this process, with their CPU and private memory. */
function liveChildren(): { cpuMs: number; childrenCpuMs: number; privateKb: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found = [];
  for (const name of names) {
    const fields = statFields(Number(name));
    if (!fields || Number(fields[1]) !== process.pid || fields[0] === "Z") continue;
    let privateKb = 0;
    try {
      const rollup = fs.readFileSync(`/proc/${name}/smaps_rollup`, "utf8");
      privateKb = [...rollup.matchAll(/^Private_(?:Clean|Dirty):\s+(\d+) kB$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    } catch {
      // gone meanwhile
    }
    found.push({
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      childrenCpuMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
      privateKb,
    });
  }
  return found;
}

/**
 * Peak RSS of this program's own image (VmHWM, reset by exec). getrusage's maxRSS is not: a child forked from a large
 * parent (the bench process itself) reports the parent's size when that was larger.
 */
function peakRssKb(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
    return match ? Number(match[1]) : process.resourceUsage().maxRSS;
  } catch {
    return process.resourceUsage().maxRSS;
  }
}

if (file) {
  process.on("exit", () => {
    const cpu = process.cpuUsage();
    const live = liveChildren();
    const sum = (of: (c: (typeof live)[number]) => number) => live.reduce((total, c) => total + of(c), 0);
    const usage = {
      userMs: cpu.user / 1000 + sum((c) => c.cpuMs),
      systemMs: cpu.system / 1000,
      maxRssKb: peakRssKb() + sum((c) => c.privateKb),
      childrenCpuMs: childrenCpuMs() + sum((c) => c.childrenCpuMs),
      minorFaults: process.resourceUsage().minorPageFault,
      liveChildren: live.length,
    };
    fs.writeFileSync(file, JSON.stringify(usage));
  });
}
