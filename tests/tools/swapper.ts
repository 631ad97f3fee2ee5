/**
 * A real attacker process for symlink-race tests: it exchanges two names (a folder and a symlink to somewhere
 * else) with renameat2(RENAME_EXCHANGE) in a tight loop, so every lookup of the folder's name may land on either.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

// Python's ctypes reaches glibc's renameat2 directly; the loop stops when stdin closes, so the swapper also ends
// if the test process dies. It puts both names back before exiting.
const SWAPPER = `
import ctypes, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
def swap():
    if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        print("error", os.strerror(ctypes.get_errno()), flush=True)
        sys.exit(1)
swap(); swap()
print("ready", flush=True)
n = 0
while not stop.is_set():
    for _ in range(200):
        swap()
    n += 200
print("swaps", n, flush=True)
`;

export interface Swapper {
  /** Stops the loop (names restored) and returns how many exchanges it made. */
  stop(): Promise<number>;
}

/** Starts swapping `a` and `b` (absolute paths on the same filesystem); resolves once the first exchanges worked. */
export function startSwapper(a: string, b: string): Promise<Swapper> {
  const child = spawn("python3", ["-c", SWAPPER, a, b], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  let swaps = -1;
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    lines.on("line", (line) => {
      if (line === "ready") {
        resolve({
          async stop() {
            child.stdin.end();
            const code = await exited;
            if (code !== 0 || swaps < 0) throw new Error(`swapper ended with ${String(code)}: ${stderr}`);
            return swaps;
          },
        });
      } else if (line.startsWith("swaps ")) {
        swaps = Number(line.slice("swaps ".length));
      } else {
        reject(new Error(`swapper: ${line} ${stderr}`));
      }
    });
    void exited.then((code) => reject(new Error(`swapper exited (${String(code)}) before it was ready: ${stderr}`)));
  });
}
