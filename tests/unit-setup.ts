import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { afterEach } from "vitest";

/**
 * The unit tier's promise, enforced: a unit test starts no process and opens no listening socket. Loaded as a vitest
 * setup file of the unit project only, so it patches the test worker, never vitest's own process. A test that needs a
 * process or a server belongs in a `*.int.test.ts` file (docs/testing.md).
 */
const SPAWNERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

interface Guard {
  /** What was refused since the last test ended: code under test may catch the error and carry on. */
  refused: string[];
}
const holder = globalThis as typeof globalThis & { miniCursorUnitGuard?: Guard };

function refuse(guard: Guard, what: string): never {
  const message = `unit tests start no process: ${what} was called. Move this test to a *.int.test.ts file (docs/testing.md).`;
  guard.refused.push(message);
  throw new Error(message);
}

// With isolate: false this file runs before each test file in the same worker: patch once, hook every file.
let guard = holder.miniCursorUnitGuard;
if (guard === undefined) {
  const installed: Guard = { refused: [] };
  guard = installed;
  holder.miniCursorUnitGuard = installed;
  for (const name of SPAWNERS) {
    Object.defineProperty(childProcess, name, {
      configurable: true,
      writable: true,
      value: (command: unknown) => refuse(installed, `child_process.${name}(${JSON.stringify(String(command)).slice(0, 80)})`),
    });
  }
  net.Server.prototype.listen = function listen(): never {
    refuse(installed, "a server's listen()");
  };
  // A process group signal could only reach vitest's own group (a refused spawn leaves no pid, and -0 is 0).
  const kill = process.kill.bind(process);
  process.kill = (pid: number, signal?: string | number): true => {
    if (pid <= 0) refuse(installed, `process.kill(${pid}) (a signal to a process group)`);
    return kill(pid, signal);
  };
  // ESM named imports (`import { spawn } from "node:child_process"`) read the builtin's ESM exports: update them too.
  syncBuiltinESMExports();
}

const current = guard;
// Code under test may turn the refusal into a result ("the command could not be started"): the test fails anyway.
afterEach(() => {
  const refused = current.refused.splice(0);
  if (refused.length > 0) throw new Error(refused[0]);
});
