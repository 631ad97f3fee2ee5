import { useTempWorkspace } from "./temp-workspace.js";

/** An empty home folder of the test's own, and variables that make it the user's home and config folder. */
export interface TempHome {
  readonly root: string;
  /** HOME and XDG_CONFIG_HOME set to {@link root}, then `extra`. */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * A fresh home folder for every test of the calling file (made before each, deleted after each), so no user config
 * of the machine the tests run on is read. Read `root` and `env` inside a test or hook.
 */
export function useTempHome(extra: NodeJS.ProcessEnv = {}): TempHome {
  const home = useTempWorkspace();
  return {
    get root() {
      return home.root;
    },
    get env() {
      return { HOME: home.root, XDG_CONFIG_HOME: home.root, ...extra };
    },
  };
}
