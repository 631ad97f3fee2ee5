import { describe, expect, it } from "vitest";
import { RequestError } from "@agentclientprotocol/sdk";
import { editorMcpServers } from "../../../src/faces/acp/editor-mcp.js";
import { historyUpdates } from "../../../src/faces/acp/history-updates.js";
import { approvalAnswerOf, permissionOptions } from "../../../src/faces/acp/permission.js";
import { promptText } from "../../../src/faces/acp/prompt-text.js";
import { answerText, questionForm, questionMessage } from "../../../src/faces/acp/question-answer.js";
import { approvalModeOf, sessionModes } from "../../../src/faces/acp/session-modes.js";
import { stopReasonOf } from "../../../src/faces/acp/stop-reason.js";
import { toolView } from "../../../src/faces/acp/tool-view.js";
import type { ApprovalRequest, QuestionRequest } from "../../../src/core/index.js";

const request: ApprovalRequest = {
  type: "approval",
  kind: "command",
  agent: "coder",
  stepId: "s1",
  tool: "execute_command",
  subject: "npm test",
  cwd: ".",
  preview: "npm test",
  suggestedPattern: "npm test*",
};
const question: QuestionRequest = { type: "question", agent: "coder", stepId: "s2", question: "Which greeting?", choices: ["Hello", "Good morning"] };

describe("permission answers", () => {
  it("allow once / allow always / reject once are approve / always (the suggested pattern) / reject; cancelled is no answer", () => {
    expect(permissionOptions(request).map((o) => [o.optionId, o.kind])).toEqual([
      ["allow_once", "allow_once"],
      ["allow_always", "allow_always"],
      ["reject_once", "reject_once"],
    ]);
    expect(approvalAnswerOf({ outcome: "selected", optionId: "allow_once" }, request)).toEqual({ decision: "approve" });
    expect(approvalAnswerOf({ outcome: "selected", optionId: "allow_always" }, request)).toEqual({ decision: "always", pattern: "npm test*" });
    expect(approvalAnswerOf({ outcome: "selected", optionId: "reject_once" }, request)).toMatchObject({ decision: "reject" });
    expect(approvalAnswerOf({ outcome: "selected", optionId: "made_up" }, request)).toMatchObject({ decision: "reject" });
    expect(approvalAnswerOf({ outcome: "cancelled" }, request)).toBeNull();
  });
});

describe("stop reasons", () => {
  it("cancel wins; limits are max_turn_requests; a planner that gave up is a refusal; the rest end the turn", () => {
    expect(stopReasonOf({ status: "done", stop: null, cancelled: true })).toBe("cancelled");
    expect(stopReasonOf({ status: "limit_reached", stop: { kind: "agent_runs", detail: "" }, cancelled: false })).toBe("max_turn_requests");
    expect(stopReasonOf({ status: "limit_reached", stop: { kind: "token_budget", detail: "" }, cancelled: false })).toBe("max_turn_requests");
    expect(stopReasonOf({ status: "failed", stop: { kind: "gave_up", detail: "" }, cancelled: false })).toBe("refusal");
    expect(stopReasonOf({ status: "failed", stop: { kind: "no_verdict", detail: "" }, cancelled: false })).toBe("end_turn");
    expect(stopReasonOf({ status: "awaiting_input", stop: null, cancelled: false })).toBe("end_turn");
  });
});

describe("prompt content", () => {
  it("text, resource links and embedded text resources become the task; other content is named, not dropped", () => {
    const text = promptText([
      { type: "text", text: "Fix the bug in" },
      { type: "resource_link", name: "a.ts", uri: "file:///ws/a.ts" },
      { type: "resource", resource: { uri: "file:///ws/b.ts", text: "const b = 1;" } },
      { type: "image", data: "", mimeType: "image/png" },
    ]);
    expect(text).toBe(
      "Fix the bug in\n\n[a.ts](file:///ws/a.ts)\n\nContents of file:///ws/b.ts:\n```\nconst b = 1;\n```\n\n(image content left out: mini-cursor reads text only)",
    );
    expect(promptText([{ type: "text", text: "  " }])).toBe("");
  });
});

describe("questions", () => {
  it("as a message when the editor has no form, as a form when it has; a number picks a choice", () => {
    expect(questionMessage(question)).toBe(
      "Question from coder (s2):\nWhich greeting?\n1. Hello\n2. Good morning\n\nYour next prompt is the answer (a number or your own words).",
    );
    expect(answerText("2", question)).toBe("Good morning");
    expect(answerText(" Hi there ", question)).toBe("Hi there");
    expect(answerText("7", question)).toBe("7");
    expect(questionForm("sid", question)).toMatchObject({
      mode: "form",
      sessionId: "sid",
      message: "Which greeting?",
      requestedSchema: { required: ["answer"] },
    });
  });
});

describe("modes, tools, MCP servers and history", () => {
  it("the approval modes are the session modes", () => {
    expect(sessionModes("auto")).toMatchObject({ currentModeId: "auto", availableModes: [{ id: "ask" }, { id: "auto" }, { id: "read-only" }] });
    expect(approvalModeOf("read-only")).toBe("read-only");
    expect(approvalModeOf("yolo")).toBeNull();
  });

  it("tool kinds and titles; paths are absolute locations", () => {
    expect(toolView("read_file", "src/a.ts", "/ws")).toEqual({ kind: "read", title: "Read src/a.ts", locations: [{ path: "/ws/src/a.ts" }] });
    expect(toolView("search_code", "TODO", "/ws")).toEqual({ kind: "search", title: "Search for TODO", locations: [] });
    expect(toolView("execute_command", "npm test", "/ws").kind).toBe("execute");
    expect(toolView("fetch_url", "https://example.com", "/ws").kind).toBe("fetch");
    expect(toolView("mcp__gh__create_issue", "bug", "/ws")).toEqual({ kind: "other", title: "mcp__gh__create_issue: bug", locations: [] });
  });

  it("the editor's MCP servers in the .mcp.json settings shape; an SSE server refuses the request (invalid params)", () => {
    const files = { name: "files", command: "node", args: ["server.js"], env: [{ name: "TOKEN", value: "t" }] };
    const servers = editorMcpServers(
      [files, { type: "http", name: "docs site", url: "http://127.0.0.1:1/mcp", headers: [{ name: "Authorization", value: "Bearer x" }] }],
      "/ws",
    );
    expect(servers).toEqual([
      expect.objectContaining({ name: "files", transport: "stdio", command: "node", args: ["server.js"], env: { TOKEN: "t" }, cwd: "/ws", disabled: false }),
      expect.objectContaining({ name: "docs_site", transport: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer x" } }),
    ]);
    const refused = (() => {
      try {
        editorMcpServers([files, { type: "sse", name: "old", url: "http://127.0.0.1:2/sse", headers: [] }], "/ws");
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(RequestError);
    expect(refused).toMatchObject({
      code: -32602,
      message: 'MCP server "old": SSE servers are not supported (mcpCapabilities.sse is false); use stdio or http',
    });
  });

  it("history of a session opened and never prompted is empty", () => {
    expect(historyUpdates("", "new", null, "/ws")).toEqual([]);
  });

  it("history: the person's words, the plan, commands and files as finished calls, the report or what is open", () => {
    const state = {
      plan: [{ id: "s1", agent: "coder" as const, goal: "Write", acceptanceCriteria: [], status: "done" as const, result: "" }],
      commands: [{ command: "npm test", cwd: ".", exitCode: 1, timedOut: false, stepId: "s1", agent: "coder" as const }],
      filesChanged: ["src/a.ts"],
      turn: { number: 2, instruction: "Also b", previousOutcome: "done", usageBefore: { tokens: 0, usd: 0 } },
      finalReport: "Report",
      answers: [{ question: "Which?", answer: "This" }],
    };
    const updates = historyUpdates("Task", "done", state, "/ws");
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "user_message_chunk",
      "user_message_chunk",
      "plan",
      "tool_call",
      "tool_call",
      "agent_message_chunk",
    ]);
    expect(updates[5]).toMatchObject({ kind: "execute", status: "failed", title: "Run npm test" });
    expect(updates[6]).toMatchObject({ kind: "edit", locations: [{ path: "/ws/src/a.ts" }] });
    expect(historyUpdates("Task", "awaiting_approval", state, "/ws").at(-1)).toMatchObject({
      content: { text: "An approval is open: your next prompt asks it again.\n" },
    });
  });
});
