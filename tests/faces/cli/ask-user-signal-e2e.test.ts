import { afterEach, describe, expect, it } from "vitest";
import { CODER_QUESTION, coderAsksScript } from "./ask-user-script.js";
import { runCli, startWithOpenStdin, type OpenStdinRun } from "./cli-process.js";
import { useCliSession } from "./cli-session.js";

const cli = useCliSession(coderAsksScript);
let running: OpenStdinRun<Event> | undefined;
afterEach(() => {
  running?.stop();
});

type Event = { type: string; [key: string]: unknown };

describe("a signal while a question waits for its answer", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("%s exits 130 at once, the question left open for resume", async (signal) => {
    const run = (running = startWithOpenStdin<Event>(
      ["run", "--json", "Pick a greeting for the banner"],
      { cwd: cli.root, env: cli.env },
      '"type":"question_asked"',
    ));
    await run.reached;
    run.child.kill(signal);
    // No second signal, no closing of stdin: the test's own timeout bounds this wait.
    expect(await run.done).toBe(130);
    const events = run.events();
    expect(events.filter((e) => e.type === "question_answered")).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: "session_finished",
      status: "awaiting_input",
      report: expect.stringContaining("Interrupted; the question is still open") as unknown,
    });
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: cli.root, env: cli.env })).stdout) as { status: string }[];
    expect(listed[0]?.status).toBe("awaiting_input");

    const before = cli.server.requests.length;
    const resumed = await cli.cli(["resume", "--json"], "1\n");
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const again = resumed.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Event);
    expect(again.filter((e) => e.type === "question_asked").map((e) => e.question)).toEqual([CODER_QUESTION]);
    expect(again.filter((e) => e.type === "question_answered").map((e) => e.answer)).toEqual(["Hello"]);
    expect(cli.server.requests[before]?.messages.at(-1)?.content).toBe("The person answered: Hello");
  });
});
