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

if (file) {
  process.on("exit", () => {
    const cpu = process.cpuUsage();
    const usage = { userMs: cpu.user / 1000, systemMs: cpu.system / 1000, maxRssKb: process.resourceUsage().maxRSS, childrenCpuMs: childrenCpuMs() };
    fs.writeFileSync(file, JSON.stringify(usage));
  });
}
