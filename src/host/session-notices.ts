import type { EventSink } from "../core/index.js";
import type { WebSettings } from "../platform/config/index.js";
import type { LazyMemory } from "../memory/lazy-memory.js";
import type { MemoryRuntime } from "../memory/open-memory.js";
import type { SandboxStatus } from "../safety/sandbox/types.js";
import type { SkillLibrary } from "../services/skills/catalogue.js";
import { customAgentsNotice, type SessionCustomAgents } from "./custom-agents.js";

export interface SessionNoticeFacts {
  workspace: string;
  skills: SkillLibrary;
  custom: SessionCustomAgents;
  web: WebSettings;
  memory: LazyMemory;
  memoryOpened: Promise<MemoryRuntime>;
  /** Memory was turned off on purpose: its status is news, not a warning. */
  memoryOff: boolean;
  sandbox: SandboxStatus;
  modelSource: string;
  model: string;
  /** The session already ended: a late memory notice is not printed after its report. */
  isFinished: () => boolean;
}

/** What the person is told as a session starts: skills, custom agents, web search, memory, the sandbox, the model. */
export function sessionNotices(printer: EventSink, f: SessionNoticeFacts): void {
  const found = f.skills.catalogue(f.workspace).skills;
  if (found.length > 0) printer.emit({ type: "notice", level: "info", message: `Skills: ${found.map((s) => s.name).join(", ")}` });
  for (const problem of f.custom.problems) printer.emit({ type: "notice", level: "warn", message: problem });
  if (f.custom.agents.length > 0) printer.emit({ type: "notice", level: "info", message: customAgentsNotice(f.custom.agents) });
  if (f.web.enabled && f.web.searchUnavailable) printer.emit({ type: "notice", level: "warn", message: f.web.searchUnavailable });
  const sayMemory = (opened: MemoryRuntime) =>
    printer.emit(
      opened.store.enabled || f.memoryOff
        ? { type: "notice", level: "info", message: `Memory: ${opened.status}` }
        : { type: "notice", level: "warn", message: `Memory is off: ${opened.status}. The session goes on without it.` },
    );
  // Said now when memory is open (usually), else when it is: a Chroma start still under way holds nothing up.
  if (f.memory.opened) sayMemory(f.memory.opened);
  else void f.memoryOpened.then((opened) => f.isFinished() || sayMemory(opened));
  printer.emit(
    f.sandbox.kind === "bubblewrap"
      ? {
          type: "notice",
          level: "info",
          message: `Sandbox: bubblewrap${f.sandbox.version ? ` ${f.sandbox.version}` : ""} (commands see a read-only system, write only the workspace, no network unless allowed)`,
        }
      : { type: "notice", level: "warn", message: `No sandbox for commands (${f.sandbox.reason}): every command needs your approval. See mini-cursor doctor.` },
  );
  if (f.modelSource.startsWith("local Ollama")) {
    printer.emit({
      type: "notice",
      level: "info",
      message: `No model endpoint configured: using the ${f.modelSource.replace(/ \(.*\)$/, "")} with model ${f.model}.`,
    });
  }
}
