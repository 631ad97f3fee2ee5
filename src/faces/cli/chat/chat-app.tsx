import { Box, Static, Text, useInput } from "ink";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { ChatController } from "./chat-controller.js";
import { completeInput } from "./completion.js";
import type { InputHistory } from "./history.js";

export interface ChatAppProps {
  controller: ChatController;
  history: InputHistory;
  workspace: string;
  commandNames: readonly string[];
  color: boolean;
  now(): number;
}

/** How long a first Ctrl-C waits for the second that leaves. */
const LEAVE_WINDOW_MS = 2_000;

/**
 * The conversation on screen (Ink): the transcript scrolls above, printed once each line (Static); below it the
 * running turn's status, a waiting question, and the input line. Keys: Enter sends (a line ending in \ goes on below;
 * pasted text stays one message), Up/Down walk the history, Tab completes /commands and @paths, Esc stops the turn,
 * Ctrl-C clears the line, stops the turn, and twice leaves.
 */
export function ChatApp({ controller, history, workspace, commandNames, color, now }: ChatAppProps) {
  const view = useSyncExternalStore(controller.subscribe, controller.snapshot);
  // Keys can come faster than renders: the handler reads and writes the line through a ref, never a stale copy.
  const [draft, showDraft] = useState("");
  const line = useRef("");
  const setDraft = (text: string): void => {
    line.current = text;
    showDraft(text);
  };
  // Where Up and Down are in the history (null: below it, at the line being typed); a ref for the same reason.
  const browsing = useRef<number | null>(null);
  const stash = useRef<string | null>(null);
  const lastCtrlC = useRef(0);
  const [, tick] = useState(0);

  // The elapsed time of a running turn, once a second.
  useEffect(() => {
    if (view.since === null) return undefined;
    const timer = setInterval(() => tick((n) => n + 1), 1_000);
    return () => clearInterval(timer);
  }, [view.since]);

  // A question takes the line: what was being typed waits, and comes back once it is answered. It never answers it.
  useEffect(() => {
    if (view.question !== null && stash.current === null) {
      stash.current = line.current;
      setDraft("");
    } else if (view.question === null && stash.current !== null) {
      setDraft(stash.current);
      stash.current = null;
    }
    // Only the question's coming and going moves the draft (not each key typed).
  }, [view.question]);

  /** Enter: the line is sent, unless it ends in \ (then it goes on below). */
  const enter = (text: string): void => {
    if (text.endsWith("\\")) return setDraft(`${text.slice(0, -1)}\n`);
    setDraft("");
    browsing.current = null;
    if (controller.snapshot().question === null && text.trim()) history.add(text, workspace);
    controller.submit(text);
  };

  useInput((input, key) => {
    if (key.ctrl && input === "c") {
      if (line.current) return setDraft("");
      if (controller.stop("Ctrl-C")) controller.hint("Stopping at the next safe point; Ctrl-C again leaves.");
      else if (now() - lastCtrlC.current < LEAVE_WINDOW_MS) void controller.leave(0);
      else controller.hint("Ctrl-C again to leave (or /exit).");
      lastCtrlC.current = now();
      return;
    }
    if (key.escape) {
      if (controller.stop("Esc")) controller.hint("Stopping at the next safe point (Esc); the session is kept.");
      return;
    }
    if (key.return) return enter(line.current);
    if (key.backspace || key.delete) return setDraft(Array.from(line.current).slice(0, -1).join(""));
    if ((key.upArrow || key.downArrow) && controller.snapshot().question === null) {
      const entries = history.all;
      if (entries.length === 0) return;
      const at = browsing.current ?? entries.length;
      const next = Math.max(0, Math.min(entries.length, at + (key.upArrow ? -1 : 1)));
      browsing.current = next === entries.length ? null : next;
      setDraft(next === entries.length ? "" : (entries[next] ?? ""));
      return;
    }
    if (key.tab) {
      void completeInput(line.current, { workspace, commandNames }).then((done) => {
        setDraft(done.line);
        controller.hint(done.options.length > 1 ? done.options.join("  ") : null);
      });
      return;
    }
    if (key.ctrl || key.meta || !input) return;
    // Keys typed faster than they are read come as one input: "y" and Enter answer. A paste of several lines comes
    // as one input too: its line breaks stay in the message instead of sending it.
    const typed = input.replace(/\r\n?/g, "\n");
    if (typed.endsWith("\n") && !typed.slice(0, -1).includes("\n")) return enter(line.current + typed.slice(0, -1));
    setDraft(line.current + typed);
  });

  const elapsed = view.since === null ? 0 : Math.floor((now() - view.since) / 1_000);
  const prompt = view.question ?? "› ";
  const [first = "", ...more] = draft.split("\n");
  return (
    <Box flexDirection="column">
      <Static items={view.lines.map((line, i) => ({ line, key: i }))}>{(item) => <Text key={item.key}>{item.line || " "}</Text>}</Static>
      {view.status !== null && (
        <Text dimColor>
          {`… ${view.status} · ${elapsed} s · Esc stops`}
          {view.queued > 0 ? ` · ${view.queued} queued` : ""}
        </Text>
      )}
      <Text>
        <Text color={color ? (view.question ? "yellow" : "cyan") : undefined} bold={view.question !== null}>
          {prompt}
        </Text>
        {first}
      </Text>
      {more.map((line, i) => (
        <Text key={i}>{`  ${line}`}</Text>
      ))}
      {view.hint !== null && <Text dimColor>{view.hint}</Text>}
      {view.question === null && view.status === null && view.lines.length === 0 && <Text dimColor>/help for commands · Ctrl-C twice leaves</Text>}
    </Box>
  );
}
