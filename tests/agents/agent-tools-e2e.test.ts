import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_SPECS } from "../../src/agents/index.js";
import { buildAgentTools, networkLine } from "../../src/agents/agent-tools.js";
import { memoryOff } from "../../src/memory/types.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";
import { calls, scriptedModels } from "../graph/scripted-models.js";
import { agentHarness, text, toolMessages } from "./agent-harness.js";

/**
 * An agent's tools are built once (src/agents/agent-tools.ts) and each call takes its run's settings from the runtime
 * context: two runs of one compiled agent, one with the network and one without, reach a local server or not.
 */
const ws = useTempWorkspace({});
let server: http.Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

const sandboxed = { tools: { sandbox: { kind: "bubblewrap" as const, allowNetwork: false } } };

describe("agent tools built once", () => {
  it("run each command with its own run's network setting", async () => {
    server = http.createServer((_req, res) => res.end("hello")).listen(0, "127.0.0.1");
    await new Promise((resolve) => server?.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    const fetch = `node -e "fetch('http://127.0.0.1:${port}').then((r) => r.text()).then((t) => console.log('BODY:' + t), (e) => console.log('FAILED:' + e.cause?.code))"`;
    const script = () => [
      calls({ name: "execute_command", args: { command: fetch } }),
      calls({ name: "submit_work", args: { status: "done", summary: "ok" } }),
    ];
    const models = scriptedModels({ coder: [...script(), ...script()] });
    const h = agentHarness(AGENT_SPECS.coder, models, { workspace: ws.root, safety: { approval: "auto", allowNetwork: true }, deps: sandboxed });
    const open = await h.start();
    expect(text(toolMessages(open.messages)[0])).toContain("BODY:hello");
    const closed = await h.agent.invoke(
      { messages: [] },
      { ...h.config, configurable: { thread_id: "closed" }, context: { ...h.context, safety: { ...h.context.safety, allowNetwork: false } } },
    );
    expect(text(toolMessages(closed.messages)[0])).toContain("FAILED:ECONNREFUSED");
  });

  it("leave the network out of the command tools' description and say it in the instructions", () => {
    const tools = buildAgentTools({ spec: AGENT_SPECS.coder, tools: sandboxed.tools, emit: () => undefined, memory: memoryOff });
    const execute = tools.find((t) => t.name === "execute_command");
    expect(execute?.description).toContain("network access is as your instructions say");
    expect(networkLine(sandboxed, ["execute_command"], true)).toBe("Commands have network access in this session.");
    expect(networkLine(sandboxed, ["execute_command"], false)).toMatch(/^Commands have no network access in this session/);
    expect(networkLine(sandboxed, ["read_file"], false)).toBe("");
    expect(networkLine({ tools: { sandbox: { kind: "none" } } }, ["execute_command"], false)).toBe("");
  });
});
