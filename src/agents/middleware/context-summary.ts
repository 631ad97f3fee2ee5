import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";

/** A model reply with the tool results that answer it (and any reminder after them) is one turn. */
export function groupTurns(messages: BaseMessage[]): BaseMessage[][] {
  const turns: BaseMessage[][] = [];
  for (const m of messages) {
    const current = turns.at(-1);
    if (AIMessage.isInstance(m) || !current) turns.push([m]);
    else current.push(m);
  }
  return turns;
}

function short(value: unknown, max = 120): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What a turn leaves in the summary: read once per turn, since a long run's compactions summarize it again and again. */
interface TurnFacts {
  files: string[];
  commands: string[];
  errors: string[];
  notes: string[];
}

const factsCache = new WeakMap<BaseMessage, { length: number; facts: TurnFacts }>();

function factsOf(turn: BaseMessage[]): TurnFacts {
  const head = turn[0];
  const cached = head ? factsCache.get(head) : undefined;
  if (cached?.length === turn.length) return cached.facts;
  const facts: TurnFacts = { files: [], commands: [], errors: [], notes: [] };
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  for (const m of turn) {
    if (AIMessage.isInstance(m)) {
      // What the agent said while working: its decisions and reasons.
      const said = typeof m.content === "string" ? m.content.trim() : "";
      if (said) facts.notes.push(short(said.replace(/\s+/g, " "), 160));
      for (const call of m.tool_calls ?? []) {
        const args = call.args as Record<string, unknown>;
        calls.set(call.id ?? "", { name: call.name, args });
        if (typeof args.path === "string") facts.files.push(`${call.name} ${args.path}`);
      }
    }
    if (ToolMessage.isInstance(m)) {
      const text = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
      const call = calls.get(m.tool_call_id);
      const exit = /Exit code: (\d+)/.exec(text)?.[1];
      if (call?.name === "execute_command")
        facts.commands.push(`\`${short(call.args.command, 80)}\` → ${exit !== undefined ? `exit ${exit}` : short(firstLine(text), 60)}`);
      if (text.startsWith("Error:") || (exit !== undefined && exit !== "0")) facts.errors.push(`${call?.name ?? m.name ?? "tool"}: ${short(firstLine(text))}`);
    }
  }
  if (head) factsCache.set(head, { length: turn.length, facts });
  return facts;
}

/**
 * The oldest turns folded into one message that keeps what later steps need: the files touched, the commands with
 * their exit codes, the errors seen and what the agent said it decided.
 */
export function summaryOf(turns: BaseMessage[][]): HumanMessage {
  const files = new Set<string>();
  const commands: string[] = [];
  const errors: string[] = [];
  const notes: string[] = [];
  for (const turn of turns) {
    const facts = factsOf(turn);
    for (const f of facts.files) files.add(f);
    commands.push(...facts.commands);
    errors.push(...facts.errors);
    notes.push(...facts.notes);
  }
  const lines = [`[Summary of your first ${turns.length} turns, folded to keep the prompt within budget]`];
  if (files.size > 0) lines.push(`Files touched: ${[...files].slice(-30).join("; ")}`);
  if (commands.length > 0) lines.push(`Commands: ${commands.slice(-10).join("; ")}`);
  if (errors.length > 0) lines.push(`Errors seen: ${errors.slice(-8).join(" | ")}`);
  if (notes.length > 0) lines.push(`Your notes and decisions: ${notes.slice(-6).join(" | ")}`);
  return new HumanMessage(lines.join("\n"));
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}
