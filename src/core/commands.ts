import { z } from "zod";
import { agentNameSchema } from "./agents.js";

/** One command an agent ran: the one shape, whoever records it (tool artifact, run outcome, report, session state). */
export const commandRunSchema = z.object({
  command: z.string(),
  cwd: z.string(),
  exitCode: z.number().nullable(),
  timedOut: z.boolean(),
  /** It did not run: the person rejected it or a rule denied it (the final report lists it all the same). */
  refused: z.enum(["rejected", "denied"]).optional(),
});
export type CommandRun = z.infer<typeof commandRunSchema>;

/** A command in the session state: which step and agent ran it. */
export const commandRecordSchema = commandRunSchema.extend({
  stepId: z.string(),
  agent: agentNameSchema,
});
export type CommandRecord = z.infer<typeof commandRecordSchema>;

/** A command as the planner reads it in a report. */
export const reportedCommandSchema = commandRunSchema.pick({ command: true, exitCode: true });
export type ReportedCommand = z.infer<typeof reportedCommandSchema>;
