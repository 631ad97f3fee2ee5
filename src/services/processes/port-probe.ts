import net from "node:net";
import { runProgram } from "../../platform/run-program.js";
import type { SharedNetwork } from "../../safety/sandbox/session-network.js";

/**
 * Whether something accepts connections on 127.0.0.1:port, seen from where the background processes run: the
 * host's loopback, or the session's own network namespace, which this process cannot enter itself (a namespace is
 * joined per thread), so there a short `nsenter … bash` connects with bash's /dev/tcp.
 */
export function portAnswers(port: number, network?: SharedNetwork & { nsenterPath?: string }): Promise<boolean> {
  if (network) {
    const args = [`--net=${network.path}`, "--", "bash", "-c", 'exec 3<>"/dev/tcp/127.0.0.1/$0"', String(port)];
    return runProgram(network.nsenterPath ?? "nsenter", args, { timeoutMs: 2000 }).then((ran) => ran.code === 0);
  }
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
