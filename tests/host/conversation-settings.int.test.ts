import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/core/index.js";
import { resolveSessionConfig } from "../../src/host/config-setup.js";
import { openConversation, saveConversationSettings } from "../../src/host/conversation-settings.js";
import { readStoredOptions } from "../../src/host/stored-options.js";
import type { Clock } from "../../src/platform/clock.js";
import { openSessionDatabase } from "../../src/sessions/database.js";
import { useTempHome } from "../helpers/temp-home.js";
import { useTempWorkspace } from "../helpers/temp-workspace.js";

/** The session row of a conversation opened without a task, and its settings kept as they change (git: the data folder). */
const clock: Clock = { now: () => 1_700_000_000_000 };
const ws = useTempWorkspace();
// An endpoint is named, so no Ollama is looked for; the user config is an empty folder of ours.
const home = useTempHome({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", MINI_CURSOR_MODEL: "scripted" });

const stored = () => {
  const database = openSessionDatabase(ws.root, clock);
  try {
    const row = database.sessions.get("s1");
    return row ? { row, options: readStoredOptions(row.options) } : null;
  } finally {
    database.close();
  }
};

describe("a conversation's session row", () => {
  it("opens a session row without a task (new) with the settings, and keeps each change at once", async () => {
    const { config, safety } = await resolveSessionConfig({}, ws.root, home.env);
    const settings = { approval: "auto" as const, allowNetwork: true, approveFileChanges: false, budgetUsd: null, model: null };
    await openConversation({ sessionId: "s1", workspace: ws.root, env: home.env, clock, settings, config, safety });
    const opened = stored();
    expect(opened?.row).toMatchObject({ id: "s1", task: "", status: "new", workspace: ws.root });
    expect(opened?.options.safety).toMatchObject({ approval: "auto", allowNetwork: true, approveFileChanges: false });
    expect(opened?.options.limits.maxPromptTokens).toBe(config.limits.maxPromptTokens ?? DEFAULT_LIMITS.maxPromptTokens);

    const next = { ...settings, approval: "read-only" as const, approveFileChanges: true, budgetUsd: 1, model: "scripted-large" };
    expect(await saveConversationSettings({ sessionId: "s1", workspace: ws.root, env: home.env, clock, settings: next })).toBe(true);
    const saved = stored();
    expect(saved?.options).toMatchObject({
      safety: { approval: "read-only", allowNetwork: true, approveFileChanges: true },
      budget: { usd: 1 },
      model: "scripted-large",
    });
    expect(saved?.row.status).toBe("new");
    // A session that is not there (deleted meanwhile) is left to the next message.
    expect(await saveConversationSettings({ sessionId: "gone", workspace: ws.root, env: home.env, clock, settings: next })).toBe(false);
  });
});
