import { execFile } from "node:child_process";
import net from "node:net";
import type { SharedNetwork } from "../../safety/sandbox/session-network.js";

/**
 * Whether something accepts connections on 127.0.0.1:port, seen from where the background processes run: the
 * host's loopback, or the session's own network namespace, which this process cannot enter itself (a namespace is
 * joined per thread), so there a short `nsenter … bash` connects with bash's /dev/tcp.
 */
export function portAnswers(port: number, network?: SharedNetwork & { nsenterPath?: string }): Promise<boolean> {
  if (network) {
    return new Promise((resolve) => {
      execFile(
        network.nsenterPath ?? "nsenter",
        [`--net=${network.path}`, "--", "bash", "-c", 'exec 3<>"/dev/tcp/127.0.0.1/$0"', String(port)],
        { timeout: 2000 },
        (error) => resolve(!error),
      );
    });
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
