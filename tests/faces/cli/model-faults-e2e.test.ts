import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedOpenAIServer, toolResults, type ScriptedReply, type ScriptedRequest, type ScriptedServer } from "../../helpers/scripted-openai-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../helpers/temp-workspace.js";
import { runCli } from "./cli-process.js";
import { GREET_SOURCE, greetScript, roleOf } from "./task-script.js";

/**
 * Model faults end cleanly: the built CLI against a scripted OpenAI-compatible server, through the real client. Each
 * test swaps the script's behaviour for one role; everything else plays the greet task (task-script.ts).
 */
let server: ScriptedServer;
let ws: TempWorkspace;
let script: (req: ScriptedRequest) => ScriptedReply;

beforeEach(async () => {
  script = greetScript;
  server = await startScriptedOpenAIServer((req) => script(req));
  ws = await makeTempWorkspace({ "package.json": '{ "name": "demo", "type": "module" }\n' });
});
afterEach(async () => {
  await server.close();
  await ws.cleanup();
});

function cli(args: string[], extraEnv: Record<string, string> = {}) {
  return runCli(args, { cwd: ws.root, env: { OPENAI_BASE_URL: server.baseUrl, MINI_CURSOR_MODEL: "scripted", ...extraEnv } });
}

async function sessions(): Promise<{ id: string; status: string }[]> {
  return JSON.parse((await cli(["sessions", "--json"])).stdout) as { id: string; status: string }[];
}

const EMPTY_CHOICES: ScriptedReply = { rawBody: { id: "chatcmpl-x", object: "chat.completion", created: 0, model: "scripted", choices: [] } };
const requestsOf = (role: string) => server.requests.filter((r) => roleOf(r) === role);

/** The lines a person sees about the stop: exactly one, with no raw client text. */
function expectCleanStop(stdout: string, stderr: string, pattern: RegExp): void {
  const lines = stdout.split("\n").filter((l) => l.includes("The session stopped"));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stdout).not.toMatch(/Troubleshooting URL|Cannot read properties|^terminated$|Request was aborted/m);
  expect(stderr).toBe("");
}

describe("malformed replies are retried, then stop the session resumable", () => {
  it("`choices: []` from the coder: retried, then one line; resume finishes once the endpoint recovers", async () => {
    let broken = true;
    script = (req) => (broken && roleOf(req) === "coder" ? EMPTY_CHOICES : greetScript(req));
    const first = await cli(["run", "Add greet with a test"]);
    expect(first.code).toBe(1);
    expectCleanStop(
      first.stdout,
      first.stderr,
      /The session stopped: the model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 sent 3 replies in a row that was not a chat completion \(choices: \[\] \(no answer\)\)/,
    );
    // Default MINI_CURSOR_MODEL_RETRIES is 2: three attempts, like a 5xx.
    expect(requestsOf("coder")).toHaveLength(3);
    expect((await sessions())[0]?.status).toBe("interrupted");

    broken = false;
    const resumed = await cli(["resume"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(await fs.readFile(path.join(ws.root, "src/greet.js"), "utf8")).toBe(GREET_SOURCE);
    expect((await sessions())[0]?.status).toBe("done");
  });

  it("a single `choices: []` is absorbed: the session finishes", async () => {
    let sent = false;
    script = (req) => {
      if (!sent && roleOf(req) === "planner") {
        sent = true;
        return EMPTY_CHOICES;
      }
      return greetScript(req);
    };
    const result = await cli(["run", "Add greet with a test"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });
});

describe("rate limits", () => {
  it("the planner is retried after a 429 without Retry-After", async () => {
    let limited = 2;
    script = (req) => (roleOf(req) === "planner" && limited-- > 0 ? { httpStatus: 429, error: "Rate limit reached for requests" } : greetScript(req));
    const result = await cli(["run", "Add greet with a test"], { MINI_CURSOR_MODEL_RETRIES: "0" });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(requestsOf("planner").length).toBeGreaterThanOrEqual(4);
  });

  it("a persistent 429 ends in one line that says what the endpoint did", async () => {
    script = (req) =>
      roleOf(req) === "coder" ? { httpStatus: 429, error: "Rate limit reached for requests", headers: { "retry-after": "0" } } : greetScript(req);
    const result = await cli(["run", "Add greet with a test"], { MINI_CURSOR_MODEL_RETRIES: "1" });
    expect(result.code).toBe(1);
    expectCleanStop(
      result.stdout,
      result.stderr,
      /The session stopped: the model endpoint \S+ answered 429 Too Many Requests 2 times in a row \("Rate limit reached for requests"\): wait a minute/,
    );
    expect(result.stdout).toContain("Resume with: mini-cursor resume");
    expect((await sessions())[0]?.status).toBe("interrupted");
  });
});

describe("the planner is asked with tool_choice", () => {
  /**
   * A model that answers in prose unless the request forces a tool call (as an endpoint that honours tool_choice):
   * update_plan by name, or "required" while the planner may still ask the person (ask_user).
   */
  const prosePlanner = (req: ScriptedRequest): ScriptedReply => {
    if (roleOf(req) !== "planner") return greetScript(req);
    const forced = req.toolChoice === "required" || JSON.stringify(req.toolChoice ?? null).includes('"update_plan"');
    return forced ? greetScript(req) : { content: "First I would write greet, then test it." };
  };

  it("a model that would answer in prose makes its plan", async () => {
    script = prosePlanner;
    const result = await cli(["run", "Add greet with a test"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    for (const req of requestsOf("planner")) expect(req.toolChoice).toEqual("required");
  });

  it("falls back once when the endpoint rejects tool_choice with a 400, and keeps the JSON-in-text answer", async () => {
    script = (req) => {
      if (req.toolChoice !== undefined) return { httpStatus: 400, error: "tool_choice is not supported by this server" };
      // Without tool_choice this endpoint's planner answers with the plan as JSON in its text.
      if (roleOf(req) === "planner") {
        const call = (greetScript(req) as { toolCalls: { args: unknown }[] }).toolCalls[0];
        return { content: `Here is the plan:\n\`\`\`json\n${JSON.stringify(call?.args)}\n\`\`\`` };
      }
      return greetScript(req);
    };
    const result = await cli(["run", "Add greet with a test"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const planner = requestsOf("planner");
    expect(planner.length).toBeGreaterThanOrEqual(3);
    // One refused request, then every later planner call goes without tool_choice.
    expect(planner.filter((r) => r.toolChoice !== undefined)).toHaveLength(1);
    expect(planner[0]?.toolChoice).toBeDefined();
    expect(result.stdout.match(/refused tool_choice/g)).toHaveLength(1);
  });
});

describe("invalid tool-call JSON", () => {
  it("goes back to the model as a tool error; LangChain's upgrade notice does not reach the user", async () => {
    const cleanResults = (req: ScriptedRequest) => toolResults(req).filter((t) => !t.content.includes("not valid JSON")).length;
    script = (req) => {
      if (roleOf(req) === "coder" && toolResults(req).length === 0)
        return { toolCalls: [{ name: "write_file", args: '{"path": "src/greet.js", "content": oops' }] };
      if (roleOf(req) === "coder") {
        // Continue the greet script as if the bad call had not happened.
        const shifted = { ...req, messages: req.messages.filter((m) => !(m.role === "tool" && m.content.includes("not valid JSON"))) };
        expect(cleanResults(shifted)).toBe(cleanResults(req));
        return greetScript(shifted);
      }
      return greetScript(req);
    };
    const result = await cli(["run", "Add greet with a test"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).not.toMatch(/upgrade your packages/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("write_file: invalid JSON arguments");
  });
});
