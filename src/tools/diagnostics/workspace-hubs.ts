import type { Diagnostics } from "./diagnostics-hub.js";

export interface WorkspaceHubsOptions {
  /** A hub for one workspace, made on its first check (with that workspace's own settings). */
  hubFor: (root: string) => Diagnostics;
  /** A workspace's hub, and so its language service, is closed after this long without a check; the next starts another. */
  idleMs: number;
}

interface Entry {
  hub: Diagnostics;
  /** Checks in flight: a hub is never closed under one. */
  busy: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Diagnostics for a long-lived server that runs many workspaces' sessions without a session end to stop their
 * language services at (the Studio graph): a hub per workspace, closed once idle, so a server that has seen a hundred
 * projects does not keep a hundred TypeScript services. What an idle close loses is the warm service (the next check
 * starts one again, about 2 s) and the ESLint/command baselines (the next check of a file counts its existing problems).
 */
export function diagnosticsPerWorkspace(o: WorkspaceHubsOptions): Diagnostics {
  const hubs = new Map<string, Entry>();

  const closeIfIdle = (root: string, entry: Entry): void => {
    if (hubs.get(root) !== entry || entry.busy > 0) return;
    hubs.delete(root);
    entry.hub.close();
  };

  const use = async <T>(root: string, check: (hub: Diagnostics) => Promise<T>): Promise<T> => {
    let entry = hubs.get(root);
    if (!entry) {
      entry = { hub: o.hubFor(root), busy: 0, timer: undefined };
      hubs.set(root, entry);
    }
    clearTimeout(entry.timer);
    entry.busy += 1;
    try {
      return await check(entry.hub);
    } finally {
      entry.busy -= 1;
      if (entry.busy === 0) {
        const idle = entry;
        idle.timer = setTimeout(() => closeIfIdle(root, idle), o.idleMs);
        // An idle service never keeps the server's process alive.
        idle.timer.unref();
      }
    }
  };

  return {
    afterEdit: (root, change, signal) => use(root, (hub) => hub.afterEdit(root, change, signal)),
    project: (root, signal) => use(root, (hub) => hub.project(root, signal)),
    close: () => {
      for (const entry of hubs.values()) {
        clearTimeout(entry.timer);
        entry.hub.close();
      }
      hubs.clear();
    },
  };
}
