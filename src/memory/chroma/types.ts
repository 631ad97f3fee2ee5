/** A Chroma server the memory store can talk to. */
export interface ChromaEndpoint {
  /** Base URL, e.g. http://127.0.0.1:8123 */
  url: string;
  host: string;
  port: number;
  ssl: boolean;
  /** Chroma tenant and database memory lives in (default_tenant / default_database on a local server). */
  tenant: string;
  database: string;
  /**
   * Headers every request to this server carries (the token of a remote one; none for a local one). A function,
   * so the token is not part of the endpoint when it is printed or serialized.
   */
  authHeaders(): Record<string, string>;
  /** True when this process started the server (and so must stop it). */
  startedByUs: boolean;
  /** Stops the server if this process started it; a no-op otherwise. Safe to call twice. */
  stop(): Promise<void>;
}

/** Chroma could not be started or reached; the message says why, in one sentence a user can act on. */
export class ChromaUnavailableError extends Error {}

/** Where a local Chroma listens: loopback only. */
export const LOCAL_HOST = "127.0.0.1";
