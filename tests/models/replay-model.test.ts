import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { recordRequest, recordResponse, decode, encode, type RecordedRequest } from "../../src/models/recording-codec.js";
import { recordingProvider, type ModelCallRecord } from "../../src/models/recording-model.js";
import { normalizer } from "../../src/models/replay-compare.js";
import { ReplayProvider, ReplayStop, type ReplayCall } from "../../src/models/replay-model.js";
import { calls, scriptedModels } from "../graph/scripted-models.js";

const readTool = { name: "read_file", description: "read", schema: { type: "object", properties: { path: { type: "string" } } } };

/** A coder run: it reads a file, sees the result, finishes; recorded through the recording provider. */
async function recordRun(fileText: string): Promise<ModelCallRecord[]> {
  const recorded: ModelCallRecord[] = [];
  const first = calls({ name: "read_file", args: { path: "a.txt" } });
  const models = scriptedModels({ coder: [first, calls({ name: "submit_work", args: { status: "done" } })] });
  const provider = recordingProvider(
    models,
    (c) => recorded.push(c),
    () => "s1",
  );
  const model = provider.forRole("coder");
  if (!model.bindTools) throw new Error("no bindTools");
  const bound = model.bindTools([readTool]);
  const messages: BaseMessage[] = [new SystemMessage("You are the coder."), new HumanMessage("Read a.txt")];
  const reply = await bound.invoke(messages);
  const id = (reply as AIMessage).tool_calls?.[0]?.id ?? "";
  await bound.invoke([...messages, reply, new ToolMessage({ tool_call_id: id, name: "read_file", content: fileText })]);
  return recorded;
}

function asReplay(records: ModelCallRecord[]): ReplayCall[] {
  // Through the stored encoding, as the replay command reads it.
  return records.map((r, i) => ({
    seq: i + 1,
    role: r.role,
    step: r.step,
    model: r.model,
    request: decode<RecordedRequest>(encode(r.request)),
    response: decode(encode(r.response)),
  }));
}

describe("recording provider", () => {
  it("records each call's role, step, offered tools, the request's new messages and the answer", async () => {
    const recorded = await recordRun("hello");
    expect(recorded.map((r) => [r.role, r.step, r.model])).toEqual([
      ["coder", "s1", "fake-coder"],
      ["coder", "s1", "fake-coder"],
    ]);
    expect(recorded[0]?.request.tools).toEqual(["read_file"]);
    // The system prompt is kept as a hash; after the first answer only the tool result is new.
    expect(recorded[0]?.request.tail.map((m) => m.role)).toEqual(["system", "human"]);
    expect(recorded[0]?.request.tail[0]?.content).toBe("");
    expect(recorded[1]?.request.tail).toEqual([expect.objectContaining({ role: "tool", name: "read_file", content: "hello" })]);
    expect(recorded[0]?.response.toolCalls[0]).toMatchObject({ name: "read_file", args: { path: "a.txt" } });
    expect(recorded[0]?.response.usage).toEqual({ input_tokens: 100, output_tokens: 10, total_tokens: 110 });
  });
});

describe("ReplayProvider", () => {
  const same = normalizer([]);

  it("answers each role's calls in the recording's order, with the recorded tool calls and usage", async () => {
    const replay = new ReplayProvider(asReplay(await recordRun("hello")), { normalize: same });
    const model = replay.forRole("coder");
    const first = (await model.invoke([new HumanMessage("Read a.txt")])) as AIMessage;
    expect(first.tool_calls?.[0]).toMatchObject({ name: "read_file", args: { path: "a.txt" } });
    expect(first.usage_metadata?.input_tokens).toBe(100);
    const id = first.tool_calls?.[0]?.id ?? "";
    const second = (await model.invoke([
      new HumanMessage("Read a.txt"),
      first,
      new ToolMessage({ tool_call_id: id, name: "read_file", content: "hello" }),
    ])) as AIMessage;
    expect(second.tool_calls?.[0]?.name).toBe("submit_work");
    expect(replay.divergences).toEqual([]);
    expect(replay.exhausted).toBe(true);
    expect(replay.describe("coder")).toBe("fake-coder");
  });

  it("reports a tool result that differs, and goes on with the recorded answer", async () => {
    const replay = new ReplayProvider(asReplay(await recordRun("hello\nworld")), { normalize: same });
    const model = replay.forRole("coder");
    const first = (await model.invoke([new HumanMessage("x")])) as AIMessage;
    const id = first.tool_calls?.[0]?.id ?? "";
    const second = (await model.invoke([first, new ToolMessage({ tool_call_id: id, name: "read_file", content: "hello\nthere" })])) as AIMessage;
    expect(second.tool_calls?.[0]?.name).toBe("submit_work");
    expect(replay.divergences).toEqual([{ seq: 2, role: "coder", step: "s1", tool: "read_file", toolCallId: id, diff: "- world\n+ there" }]);
  });

  it("ignores the workspace path, temporary paths and timings when comparing", async () => {
    const replay = new ReplayProvider(asReplay(await recordRun("/work/a/x.js ok in 12.5ms, duration_ms 3.2, /tmp/abc/f")), {
      normalize: normalizer(["/work/a", "/work/b"]),
    });
    const model = replay.forRole("coder");
    const first = (await model.invoke([new HumanMessage("x")])) as AIMessage;
    const id = first.tool_calls?.[0]?.id ?? "";
    await model.invoke([first, new ToolMessage({ tool_call_id: id, name: "read_file", content: "/work/b/x.js ok in 3 s, duration_ms 9.1, /tmp/zzz/f" })]);
    expect(replay.divergences).toEqual([]);
  });

  it("stops when the graph asks another role than the recording has next, or more calls than it has", async () => {
    const replay = new ReplayProvider(asReplay(await recordRun("hello")), { normalize: same });
    await expect(replay.forRole("reviewer").invoke([new HumanMessage("x")])).rejects.toThrow(
      /call 1 went to the reviewer, the recording has the coder in step s1/,
    );
    expect(replay.stopped?.reason).toBe("diverged");

    const short = new ReplayProvider(asReplay(await recordRun("hello")).slice(0, 1), { normalize: same });
    await short.forRole("coder").invoke([new HumanMessage("x")]);
    const error: unknown = await short
      .forRole("coder")
      .invoke([new HumanMessage("x")])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayStop);
    expect((error as Error).message).toMatch(/call 2 \(coder\) is not in the recording, which ends after 1 calls/);
  });

  it("--until: stops at the first agent call of that step", async () => {
    const replay = new ReplayProvider(asReplay(await recordRun("hello")), { normalize: same, until: "s1" });
    await expect(replay.forRole("coder").invoke([new HumanMessage("x")])).rejects.toThrow(/stopped before step s1/);
    expect(replay.stopped?.reason).toBe("until");
    expect(replay.answered).toBe(0);
  });
});

describe("recording codec", () => {
  it("keeps only the messages after the last model reply", () => {
    const request = recordRequest([new HumanMessage("a"), new AIMessage("b"), new HumanMessage("c")], []);
    expect(request.messageCount).toBe(3);
    expect(request.tail).toEqual([{ role: "human", content: "c" }]);
    expect(recordResponse(new AIMessage("done"), "stop")).toEqual({ content: "done", toolCalls: [], invalidToolCalls: [], finishReason: "stop" });
  });
});

describe("ReplayProvider across a session's runs (issue 40)", () => {
  const same = normalizer([]);
  const call = (seq: number, step: string | null, settings?: string): ReplayCall => ({
    seq,
    role: "coder",
    step,
    model: "m",
    request: { sha: "", messageCount: 0, tools: [], tail: [], ...(settings !== undefined ? { settings } : {}) },
    response: { content: "", toolCalls: [], invalidToolCalls: [] },
  });

  it("pauses where the recorded session was resumed with other settings; a new run with them goes on", async () => {
    const replay = new ReplayProvider([call(1, "s1", "A"), call(2, "s1", "B"), call(3, "s1")], { normalize: same });
    replay.beginRun(replay.nextSettings);
    const model = replay.forRole("coder");
    await model.invoke([new HumanMessage("x")]);
    await expect(model.invoke([new HumanMessage("x")])).rejects.toThrow(/resumed at call 2 with other settings/);
    expect(replay.paused?.reason).toBe("pause");
    expect(replay.stopped).toBeNull();
    expect(replay.nextSettings).toBe("B");
    replay.beginRun(replay.nextSettings);
    await model.invoke([new HumanMessage("x")]);
    await model.invoke([new HumanMessage("x")]);
    expect(replay.exhausted).toBe(true);
  });

  it("does not pause for a resume with the same settings, and names the replay's own step for a call recorded without one", async () => {
    const replay = new ReplayProvider([call(1, "s1", "A"), call(2, null, "A")], { normalize: same, currentStep: () => "s1" });
    replay.beginRun("A");
    const model = replay.forRole("coder");
    await model.invoke([new HumanMessage("x")]);
    await model.invoke([new ToolMessage({ tool_call_id: "c1", name: "read_file", content: "new" })]);
    expect(replay.paused).toBeNull();
    expect(replay.divergences).toEqual([expect.objectContaining({ seq: 2, step: "s1", tool: "read_file" })]);
  });
});
