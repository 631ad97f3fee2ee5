import { z } from "zod";

/** One MCP server as declared (src/platform/config/mcp-settings.ts resolves them). */
const SERVER_KEYS = ["type", "command", "args", "env", "cwd", "url", "headers", "agents", "disabled", "timeoutMs"] as const;

export const mcpServerSchema = z
  .strictObject(
    {
      /** Claude Code writes it; the transport follows from `command` or `url` anyway. */
      type: z.enum(["stdio", "http", "streamable-http", "streamableHttp"]).optional(),
      command: z.string().min(1).optional(),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      cwd: z.string().min(1).optional(),
      url: z.string().min(1).optional(),
      headers: z.record(z.string(), z.string()).optional(),
      /** The agents that get this server's tools; default: read-only tools to every agent, the others to the coder. */
      agents: z.array(z.string().min(1)).optional(),
      disabled: z.boolean().optional(),
      /** Upper bound for one tool call. */
      timeoutMs: z.number().int().positive().optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown key ${(issue.keys ?? []).map((k) => `"${k}"`).join(", ")} (known keys: ${SERVER_KEYS.join(", ")})`
          : undefined,
    },
  )
  .refine((s) => (s.command === undefined) !== (s.url === undefined), {
    message: 'needs either "command" (a stdio server) or "url" (an HTTP server), not both',
  });

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
export const mcpServersSchema = z.record(z.string(), mcpServerSchema).superRefine((servers, ctx) => {
  for (const name of Object.keys(servers)) {
    if (!SERVER_NAME.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "a server name may only use letters, digits, _ and -" });
  }
});
export type McpServerEntry = z.infer<typeof mcpServerSchema>;

/** `.mcp.json`: other keys are other tools' business. */
export const mcpJsonSchema = z.object({ mcpServers: mcpServersSchema.optional() });
