import { interrupt } from "@langchain/langgraph";
import { z } from "zod";
import type { Elicit, ElicitAnswer, ElicitRequest, ExtensionResult } from "../../services/mcp/index.js";

/** What a run that asks through interrupts (Studio, the Agent Server) pauses with when an MCP server asks the person. */
export interface FormInterrupt {
  type: "mcp_form";
  server: string;
  message: string;
  /** The server's JSON Schema for the answer; `fields` is the same, read. */
  schema: Record<string, unknown>;
  fields: ElicitRequest["fields"];
}

const answerSchema = z.union([
  z.object({ action: z.literal("accept"), content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}) }),
  z.object({ action: z.enum(["decline", "cancel"]) }),
]);

/**
 * Runs one MCP call in a run whose person answers through LangGraph interrupts. A server's form cannot wait inside
 * a paused graph, so the call is stopped and the run pauses with the form (`mcp_form`); resumed with the answer
 * (`{ action: "accept", content }`, `decline` or `cancel`), the tool step runs again, the call is made again and
 * this time `interrupt()` returns the answer, which goes to the server (so the call runs at least twice: the same
 * at-least-once that every step a resume repeats has). An answer of another shape declines.
 */
export async function callAskingThroughInterrupts(
  call: (elicit: Elicit, signal: AbortSignal) => Promise<ExtensionResult>,
  outer: AbortSignal | undefined,
): Promise<ExtensionResult> {
  const stop = new AbortController();
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  const asked: { request: ElicitRequest; answer: (a: ElicitAnswer) => void }[] = [];
  let wake = (): void => undefined;
  let woken = new Promise<void>((resolve) => (wake = resolve));
  const elicit: Elicit = (request) =>
    new Promise((answer) => {
      asked.push({ request, answer });
      wake();
    });
  const running = call(elicit, signal);
  for (;;) {
    const done = await Promise.race([running.then((result) => ({ result })), woken.then(() => null)]);
    if (done) return done.result;
    woken = new Promise<void>((resolve) => (wake = resolve));
    for (const { request, answer } of asked.splice(0)) {
      let value: unknown;
      try {
        // Here, in the step's own context (not the MCP client's callback), where interrupt() can pause the run.
        const form: FormInterrupt = { type: "mcp_form", server: request.server, message: request.message, schema: request.schema, fields: request.fields };
        value = interrupt(form);
      } catch (paused) {
        stop.abort();
        await running.catch(() => undefined);
        throw paused;
      }
      const parsed = answerSchema.safeParse(value);
      answer(parsed.success ? parsed.data : { action: "decline" });
    }
  }
}
