import type { ConversationSettings } from "./conversation-turn.js";

/**
 * The task of `mini-cursor init` and the chat's `/init`: an ordinary session that reads the project and writes its
 * AGENTS.md. Its first line is what `sessions` lists.
 */
export const INIT_TASK = `Write AGENTS.md for this project: the guide coding agents and new contributors read before they work here.

First read the project (no commands are needed; reading files is enough): the package and build files (package.json, pyproject.toml, Cargo.toml, go.mod, Makefile and the like), the README, the CI configuration (.github/workflows, .gitlab-ci.yml, .ci/ and the like), the linter, formatter and test runner configuration, and the folder layout.

Then write AGENTS.md at the workspace root with these sections:
- Commands: how to install, build, test (everything, and one file), lint and format, exactly as this project runs them.
- Layout: the main folders and what lives in each.
- Conventions: the code style, naming, where tests go, and the rules the project follows that its configuration and code show.

Say only what the files show, specific to this project (no generic advice), in short lines; keep it under about 100 lines. If AGENTS.md exists, keep its content and improve it: correct what is out of date and add what is missing. Change no other file.`;

/**
 * The settings of the init's turn over the conversation's own: every file change is asked about, so AGENTS.md is shown
 * as a diff and written only once the person accepts it (in ask mode whatever mode the conversation is in).
 */
export const INIT_SETTINGS: Pick<ConversationSettings, "approval" | "approveFileChanges"> = { approval: "ask", approveFileChanges: true };
