/** MCP servers as a session's extension tools. */
export { McpHub, type McpHubOptions } from "./mcp-hub.js";
export { LazyMcpHub } from "./lazy-hub.js";
export { McpServerConnection, MCP_START_TIMEOUT_MS, type ServerStatus } from "./server-connection.js";
export { matchesToolPattern, mcpToolName } from "./names.js";
export { capText, resultText } from "./result-text.js";
export {
  EXTENSION_PREFIX,
  isExtensionToolName,
  MCP_MAX_RESTARTS,
  type ExtensionCallOptions,
  type ExtensionResult,
  type ExtensionTool,
  type ExtensionTools,
  type ExtensionProgress,
  type Elicit,
  type ElicitAnswer,
  type ElicitField,
  type ElicitRequest,
} from "./types.js";
export { trustedOnly, untrustedMessage } from "./trusted.js";
