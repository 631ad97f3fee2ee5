/**
 * The launcher helper's program, run as `node -e` (plain JavaScript: it needs no build step, from src/ or from the
 * bundle). It spawns what the parent asks for and relays each child's output, exit and close over the IPC channel.
 * Why a helper: spawning forks the whole calling process; from the large CLI that blocks its event loop and leaves
 * its memory copy-on-write, so pages it writes afterwards fault again. A small helper pays that instead: measured to
 * matter per tool call, see "Special cases kept and removed" in docs/benchmarks.md.
 */
export const HELPER_SOURCE = String.raw`"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const children = new Map();
// Ctrl-C, a closed terminal and a SIGTERM to the whole process group (timeout, docker stop, CI cancellation) are the
// parent's to handle, which still needs us to finish (undo's last snapshot); when it exits, the channel closes and so
// do we.
process.on("SIGINT", () => {});
process.on("SIGHUP", () => {});
process.on("SIGTERM", () => {});
process.on("disconnect", () => process.exit(0));
const send = (message) => {
  if (process.connected) process.send(message);
};
// Output is relayed with a bound: past HIGH messages not yet handed to the channel, the children's pipes are paused
// until it drains to LOW, so a command that prints fast cannot pile up memory here (as a pipe would block it).
const HIGH = 32;
const LOW = 8;
let inFlight = 0;
const paused = new Set();
const relay = (message, stream) => {
  if (!process.connected) return;
  inFlight++;
  process.send(message, undefined, {}, () => {
    inFlight--;
    if (inFlight > LOW || paused.size === 0) return;
    for (const s of paused) s.resume();
    paused.clear();
  });
  if (inFlight > HIGH && !paused.has(stream)) {
    stream.pause();
    paused.add(stream);
  }
};
function start(m) {
  const stdio = [m.input === undefined ? "ignore" : "pipe"];
  for (let fd = 1; fd < m.fds; fd++) stdio.push(m.background && fd < 3 ? "ignore" : "pipe");
  let child;
  let outputFd;
  try {
    if (m.outputFile !== undefined) {
      outputFd = fs.openSync(m.outputFile, "w");
      stdio.splice(1, 2, outputFd, outputFd);
    }
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: m.detached, stdio });
  } catch (error) {
    send({ t: "failed", id: m.id, message: String(error && error.message), code: error && error.code });
    return;
  } finally {
    if (outputFd !== undefined) fs.closeSync(outputFd);
  }
  if (child.pid === undefined) {
    child.once("error", (error) => send({ t: "failed", id: m.id, message: String(error.message), code: error.code }));
    return;
  }
  child.on("error", () => {});
  children.set(m.id, child);
  send({ t: "spawned", id: m.id, pid: child.pid });
  child.stdio.forEach((stream, fd) => {
    if (fd === 0 || !stream) return;
    stream.on("data", (data) => relay({ t: "data", id: m.id, fd, data }, stream));
    stream.on("end", () => send({ t: "end", id: m.id, fd }));
    stream.on("error", () => {});
  });
  if (m.input !== undefined) {
    child.stdin.on("error", () => {});
    child.stdin.end(m.input);
  }
  child.on("exit", (code, signal) => send({ t: "exit", id: m.id, code, signal }));
  child.on("close", (code, signal) => {
    children.delete(m.id);
    send({ t: "close", id: m.id, code, signal });
  });
}
process.on("message", (m) => {
  if (m.t === "spawn") return start(m);
  const child = children.get(m.id);
  if (!child) return;
  if (m.t === "kill" && child.exitCode === null && child.signalCode === null) {
    try {
      child.kill(m.signal);
    } catch {}
  } else if (m.t === "release") {
    for (const stream of child.stdio) {
      if (!stream) continue;
      paused.delete(stream);
      stream.destroy();
    }
  }
});
send({ t: "ready" });
`;
