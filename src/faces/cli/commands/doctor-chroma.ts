import { DEFAULT_CHROMA_DATABASE, DEFAULT_CHROMA_TENANT, type ChromaAccess } from "../../../platform/config/memory-settings.js";
import { ensureChromaServer } from "../../../memory/chroma/server.js";
import { errorMessage } from "../../../platform/error-info.js";

/** What doctor says about a remote Chroma (CHROMA_URL): never the token, only whether one is set. */
export interface RemoteChromaReport {
  tenant: string;
  database: string;
  token: "set" | "not set";
  /** The header the token travels in, when one is set. */
  authHeader?: "Authorization: Bearer" | "X-Chroma-Token";
  server: { running: boolean; detail: string; url: string };
}

/** Connects as a session would (heartbeat, token, tenant and database) and reports it; starts nothing. */
export async function checkRemoteChroma(chromaUrl: string, access: ChromaAccess | undefined, dataDir: string): Promise<RemoteChromaReport> {
  const tenant = access?.tenant ?? DEFAULT_CHROMA_TENANT;
  const database = access?.database ?? DEFAULT_CHROMA_DATABASE;
  const token = access?.token ? "set" : "not set";
  const authHeader: RemoteChromaReport["authHeader"] = access?.token
    ? access.authHeader === "x-chroma-token"
      ? "X-Chroma-Token"
      : "Authorization: Bearer"
    : undefined;
  const base = { tenant, database, token, ...(authHeader ? { authHeader } : {}) } as const;
  const where = `tenant ${tenant}, database ${database}, token ${token}`;
  try {
    const endpoint = await ensureChromaServer({ dataDir, chromaUrl, ...(access ? { access } : {}) });
    await endpoint.stop();
    return { ...base, server: { running: true, detail: `Chroma at ${endpoint.url} answers (${where})`, url: endpoint.url } };
  } catch (error) {
    const reason = errorMessage(error);
    return { ...base, server: { running: false, detail: `${reason}; memory will be off until it is fixed (${where})`, url: chromaUrl } };
  }
}
