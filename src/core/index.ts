/**
 * The domain core: the shared vocabulary of mini-cursor (agents, plans, reviews, commands, usage, reports, stop
 * reasons, approvals, progress events). It imports nothing from the rest of the code; every layer may import it.
 */
export * from "./agents.js";
export * from "./approval.js";
export * from "./commands.js";
export * from "./events.js";
export * from "./plan.js";
export * from "./question.js";
export * from "./report.js";
export * from "./session.js";
export * from "./stop.js";
export * from "./text.js";
export * from "./usage.js";
export * from "./workspace.js";
