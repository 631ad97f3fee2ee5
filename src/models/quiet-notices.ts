import { logger } from "../platform/logger.js";

/**
 * LangChain's core prints a 12-line "New LangChain packages are available … Please upgrade your packages" notice with
 * console.warn whenever a reply's tool calls all failed to parse (invalid JSON arguments). Our packages are current and
 * the bad call is already answered to the model as a tool error, so the notice goes to the debug log instead of the
 * user's terminal. Every other warning passes through unchanged.
 */
const UPGRADE_NOTICE = /^New LangChain packages are available/;
let installed = false;

export function quietLangChainUpgradeNotice(): void {
  if (installed) return;
  installed = true;
  // The one place that touches console: LangChain writes the notice there, so that is where it is caught.
  // eslint-disable-next-line no-console
  const original = console.warn.bind(console);
  // eslint-disable-next-line no-console
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && UPGRADE_NOTICE.test(args[0])) {
      logger.debug("a model reply had tool calls with invalid JSON arguments (LangChain's upgrade notice suppressed)");
      return;
    }
    original(...args);
  };
}
