import { RequestError } from "@agentclientprotocol/sdk";
import { logger } from "../../platform/logger.js";
import { errorMessage } from "../../platform/error-info.js";

/** JSON-RPC's code for a failure of the agent while serving a valid request. */
const INTERNAL = -32603;

/**
 * Any failure of a request as a JSON-RPC error with our one line (a bad config file, a busy workspace, a session that
 * another process runs), never a stack trace; the process goes on serving.
 */
export function asRequestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  // The editor gets the line; where it came from is for MINI_CURSOR_LOG_LEVEL=debug on stderr.
  if (error instanceof Error && error.stack) logger.debug(error.stack);
  return new RequestError(INTERNAL, errorMessage(error));
}

export function invalidParams(message: string): RequestError {
  return new RequestError(-32602, message);
}

export function invalidRequest(message: string): RequestError {
  return new RequestError(-32600, message);
}
