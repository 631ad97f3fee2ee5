import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { CODER_QUESTION, coderAsksScript } from "./ask-user-script.js";
import { CLI, runCli } from "./cli-process.js";
import { useCliSession } from "./cli-session.js";

const cli = useCliSession(coderAsksScript);
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

type Event = { type: string; [key: string]: unknown };

/** The CLI with stdin a pipe the test keeps open: nothing ever answers or closes it. */
function startWithOpenStdin(args: string[]) {
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", MINI_CURSOR_MEMORY: "off", MINI_CURSOR_APPROVAL: "auto", ...cli.env };
  const child = spawn(process.execPath, [CLI, ...args], { cwd: cli.root, env, stdio: ["pipe", "pipe", "pipe"] });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  child.stderr.resume();
  let out = "";
  let asked = (): void => {};
  const question = new Promise<void>((resolve) => (asked = resolve));
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.includes('"type":"question_asked"')) asked();
  });
  const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, question, done, events: () => out.trim().split("\n").map((l) => JSON.parse(l) as Event) };
}

describe("a signal while a question waits for its answer", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("%s exits 130 at once, the question left open for resume", async (signal) => {
    const run = startWithOpenStdin(["run", "--json", "Pick a greeting for the banner"]);
    await Promise.race([run.question, run.done.then(() => Promise.reject(new Error(`the CLI ended: ${JSON.stringify(run.events())}`)))]);
    run.child.kill(signal);
    // No second signal, no closing of stdin: the test's own timeout bounds this wait.
    expect(await run.done).toBe(130);
    const events = run.events();
    expect(events.filter((e) => e.type === "question_answered")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "session_finished", status: "awaiting_input", report: expect.stringContaining("Interrupted; the question is still open") as unknown });
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: cli.root, env: cli.env })).stdout) as { status: string }[];
    expect(listed[0]?.status).toBe("awaiting_input");

    const before = cli.server.requests.length;
    const resumed = await cli.cli(["resume", "--json"], "1\n");
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const again = resumed.stdout.trim().split("\n").map((l) => JSON.parse(l) as Event);
    expect(again.filter((e) => e.type === "question_asked").map((e) => e.question)).toEqual([CODER_QUESTION]);
    expect(again.filter((e) => e.type === "question_answered").map((e) => e.answer)).toEqual(["Hello"]);
    expect(cli.server.requests[before]?.messages.at(-1)?.content).toBe("The person answered: Hello");
  });
});
