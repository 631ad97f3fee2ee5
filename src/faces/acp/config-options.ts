import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { APPROVAL_MODES, type ApprovalMode, type SafetyPolicy } from "../../core/index.js";
import { invalidParams } from "./request-errors.js";
import { MODE_DESCRIPTIONS } from "./session-modes.js";

/** What an editor session lets the person set from the editor (`session/set_config_option`), kept with the session. */
export interface EditorSettings {
  /** The model for every agent chosen in the editor (as `--model`); null: the configured ones. */
  model: string | null;
  /** The configured model, and the models the endpoint lists: what the editor may choose from. */
  defaultModel: string;
  models: readonly string[];
  approval: ApprovalMode;
  allowNetwork: boolean;
  approveFileChanges: boolean;
  /** USD per prompt (a turn); null: no cost budget. */
  budgetUsd: number | null;
}

/** The budgets the editor offers, besides the session's own when it is another (set with `resume --budget-usd`). */
const BUDGETS = [0.25, 1, 5, 20];
const NO_BUDGET = "none";

export interface StoredChoices {
  safety: Pick<SafetyPolicy, "approval" | "allowNetwork" | "approveFileChanges">;
  budgetUsd?: number | undefined;
  /** A model the session was given (`--model`, or earlier in the editor). */
  model?: string | undefined;
}

export function editorSettings(stored: StoredChoices, defaultModel: string, listed: readonly string[]): EditorSettings {
  const { safety } = stored;
  const model = stored.model ?? null;
  const models = [...new Set([defaultModel, ...(model !== null ? [model] : []), ...listed])];
  return {
    model,
    defaultModel,
    models,
    approval: safety.approval,
    allowNetwork: safety.allowNetwork,
    approveFileChanges: safety.approveFileChanges,
    budgetUsd: stored.budgetUsd ?? null,
  };
}

const usd = (value: number): string => `$${value}`;

/** The session's options as the editor shows them: approval (also the session's modes), network, file changes, budget. */
export function configOptions(s: EditorSettings): SessionConfigOption[] {
  const budgets = [...new Set([...BUDGETS, ...(s.budgetUsd !== null ? [s.budgetUsd] : [])])].sort((a, b) => a - b);
  return [
    {
      id: "model",
      name: "Model",
      category: "model",
      description: "The model for every agent, from the next prompt on",
      type: "select",
      currentValue: s.model ?? s.defaultModel,
      options: s.models.map((m) => ({ value: m, name: m === s.defaultModel ? `${m} (configured)` : m })),
    },
    {
      id: "approval",
      name: "Approval",
      category: "mode",
      description: "What runs without asking (the same as the session's mode)",
      type: "select",
      currentValue: s.approval,
      options: APPROVAL_MODES.map((id) => ({ value: id, ...MODE_DESCRIPTIONS[id] })),
    },
    {
      id: "allow_network",
      name: "Network for commands",
      description: "Sandboxed commands may use the network (npm install, curl); anything a command can read can then be sent",
      type: "boolean",
      currentValue: s.allowNetwork,
    },
    {
      id: "approve_file_changes",
      name: "Ask before file changes",
      description: "In Ask mode, also ask before each file the agents write or edit, showing the change",
      type: "boolean",
      currentValue: s.approveFileChanges,
    },
    {
      id: "budget_usd",
      name: "Budget per prompt",
      description: "Stops a prompt's work once it has cost this much (from the next prompt on)",
      type: "select",
      currentValue: s.budgetUsd === null ? NO_BUDGET : String(s.budgetUsd),
      options: [{ value: NO_BUDGET, name: "No budget" }, ...budgets.map((b) => ({ value: String(b), name: usd(b) }))],
    },
  ];
}

/** The settings with one option changed; a JSON-RPC error (one line) for an unknown option or value. */
export function withConfigOption(s: EditorSettings, configId: string, value: string | boolean): EditorSettings {
  const bad = () => invalidParams(`"${String(value)}" is not a value of the option "${configId}"`);
  switch (configId) {
    case "model": {
      if (typeof value !== "string" || !s.models.includes(value)) throw bad();
      return { ...s, model: value };
    }
    case "approval": {
      const mode = APPROVAL_MODES.find((m) => m === value);
      if (!mode) throw bad();
      return { ...s, approval: mode };
    }
    case "allow_network":
    case "approve_file_changes": {
      if (typeof value !== "boolean") throw bad();
      return configId === "allow_network" ? { ...s, allowNetwork: value } : { ...s, approveFileChanges: value };
    }
    case "budget_usd": {
      if (value === NO_BUDGET) return { ...s, budgetUsd: null };
      const amount = typeof value === "string" && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
      if (!(amount > 0) || !(BUDGETS.includes(amount) || amount === s.budgetUsd)) throw bad();
      return { ...s, budgetUsd: amount };
    }
    default:
      throw invalidParams(
        `unknown option "${configId}"; options: ${configOptions(s)
          .map((o) => o.id)
          .join(", ")}`,
      );
  }
}
