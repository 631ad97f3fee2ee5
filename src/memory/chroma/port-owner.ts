import fs from "node:fs";

/**
 * Whether process `pid` holds the listening TCP socket on 127.0.0.1:`port`, read from Linux's /proc (the socket's
 * inode in /proc/net/tcp, then among the process's open files); undefined where /proc cannot tell (not Linux).
 * A heartbeat cannot tell whose server answered: a port another process took between our pick and our server's
 * bind answers for that other server, and without this check we would take it for ours.
 */
export function listensOn(pid: number, port: number): boolean | undefined {
  let table: string;
  try {
    table = fs.readFileSync("/proc/net/tcp", "utf8");
  } catch {
    return undefined;
  }
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  const inodes = new Set<string>();
  for (const line of table.split("\n").slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
    const fields = line.trim().split(/\s+/);
    if (fields[1] === local && fields[3] === "0A" && fields[9]) inodes.add(`socket:[${fields[9]}]`);
  }
  if (inodes.size === 0) return false;
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return inodes.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      return false;
    }
  });
}
