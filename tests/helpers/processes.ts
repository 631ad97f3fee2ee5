import { spawn } from "node:child_process";

/** The pid of a process that has exited (and been reaped): a pid that is certainly not alive right now. */
export async function deadPid(): Promise<number> {
  const child = spawn("true", [], { stdio: "ignore" });
  const pid = child.pid;
  await new Promise<void>((resolve, reject) => {
    child.once("exit", () => resolve());
    child.once("error", reject);
  });
  if (pid === undefined) throw new Error("true has no pid");
  return pid;
}
