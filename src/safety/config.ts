import type { SafetySettings } from "../platform/config/index.js";
import { safetyPolicySchema, type SafetyPolicy } from "../core/index.js";

/**
 * The safety settings come from src/config (flags, MINI_CURSOR_APPROVAL, `mini-cursor.json`, the user config);
 * this turns them into the policy a session stores in its state.
 */
export function safetyPolicyFrom(settings: SafetySettings): SafetyPolicy {
  return safetyPolicySchema.parse(settings);
}
