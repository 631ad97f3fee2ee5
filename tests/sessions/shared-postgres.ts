import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres-server.js";

/**
 * Global setup of the e2e-postgres project: one PostgreSQL server for all its files, each test on a fresh database of
 * it (sharedPostgres() in postgres-server.ts). Removed after the last file, also when one fails.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const server = await startPostgres();
  project.provide("postgresPort", server.port);
  return () => server.destroy();
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresPort: number;
  }
}
