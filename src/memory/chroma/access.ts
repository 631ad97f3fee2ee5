/**
 * A remote Chroma's access: the token header every request carries, a check at connect that the token is accepted
 * and the tenant and database exist, and one clear line when they are not. The token never appears in a message.
 */
import type { ChromaAccess } from "../../platform/config/memory-settings.js";
import { chromaRequest, replyMessage, type ChromaTarget } from "./http.js";
import { ChromaUnavailableError } from "./types.js";

const CHECK_TIMEOUT_MS = 5_000;

/** The header a token travels in: `Authorization: Bearer <token>` or `X-Chroma-Token: <token>`; none without a token. */
export function accessHeaders(access: Pick<ChromaAccess, "token" | "authHeader"> | undefined): Record<string, string> {
  if (!access?.token) return {};
  return access.authHeader === "x-chroma-token" ? { "x-chroma-token": access.token } : { authorization: `Bearer ${access.token}` };
}

/** Chroma's tokens are refused by a 401 or 403; says which setting to fix. Null for any other status. */
export function refusedError(endpoint: ChromaTarget, status: number): ChromaUnavailableError | null {
  if (status !== 401 && status !== 403) return null;
  const sent = Object.keys(endpoint.authHeaders()).length > 0;
  return new ChromaUnavailableError(
    sent
      ? `Chroma at ${endpoint.url} refused the token (HTTP ${status}); check CHROMA_TOKEN (and CHROMA_AUTH_HEADER if the server reads X-Chroma-Token)`
      : `Chroma at ${endpoint.url} requires a token (HTTP ${status}); set CHROMA_TOKEN`,
  );
}

function path(tenant: string, database?: string): string {
  const base = `/api/v2/tenants/${encodeURIComponent(tenant)}`;
  return database === undefined ? base : `${base}/databases/${encodeURIComponent(database)}`;
}

/**
 * Checks that the server accepts our token and has the tenant and database: without this, a missing database looks
 * like an empty one (Chroma answers "collection does not exist" inside it).
 */
export async function verifyAccess(target: ChromaTarget, access: Pick<ChromaAccess, "tenant" | "database">): Promise<void> {
  const reply = await chromaRequest(target, "GET", path(access.tenant, access.database), undefined, CHECK_TIMEOUT_MS);
  if (reply.status === 200) return;
  const refused = refusedError(target, reply.status);
  if (refused) throw refused;
  if (reply.status === 404) {
    const tenant = await chromaRequest(target, "GET", path(access.tenant), undefined, CHECK_TIMEOUT_MS);
    if (tenant.status === 404) {
      throw new ChromaUnavailableError(`Chroma at ${target.url} has no tenant "${access.tenant}" (CHROMA_TENANT); create it there or fix the name`);
    }
    throw new ChromaUnavailableError(
      `Chroma at ${target.url} has no database "${access.database}" in tenant "${access.tenant}" (CHROMA_DATABASE); create it there or fix the name`,
    );
  }
  throw new ChromaUnavailableError(
    `Chroma at ${target.url} could not check tenant "${access.tenant}", database "${access.database}" (HTTP ${reply.status}: ${replyMessage(reply)})`,
  );
}
