import fs from "node:fs";

/**
 * Preloaded into both benchmarked programs (`node --import`): on exit, writes this process's CPU time, peak RSS
 * and the CPU of the child processes it waited for to the file named by BENCH_USAGE_FILE.
 */
const file = process.env.BENCH_USAGE_FILE;

/** utime+stime of reaped children, from /proc/self/stat (clock ticks of 1/100 s on Linux). */
function childrenCpuMs(): number {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields after the name start at field 3 (state): cutime is field 16, cstime field 17.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
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
    const usage = { userMs: cpu.user / 1000, systemMs: cpu.system / 1000, maxRssKb: peakRssKb(), childrenCpuMs: childrenCpuMs() };
    fs.writeFileSync(file, JSON.stringify(usage));
  });
}
