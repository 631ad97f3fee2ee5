import dns, { type LookupAddress } from "node:dns";
import net, { type LookupFunction } from "node:net";
import { hostMatches, internalNameReason, matchingPattern, normalizeHost } from "./host-patterns.js";
import { blockedAddressReason } from "./ip-ranges.js";

/**
 * The SSRF guard of fetch_url. Each URL (the first and every redirect) is checked before any connection: http(s) only,
 * not a denied host, and, unless the host is in `web.allowHosts`, neither an internal name nor a name with ANY
 * address that is loopback, private, link-local, metadata, multicast or reserved. The request then connects only to
 * the addresses checked here (pinnedLookup), so a second DNS answer (DNS rebinding) cannot change where it goes.
 */

export interface HostPolicy {
  allowHosts: readonly string[];
  denyHosts: readonly string[];
}

/** Every address of a name, as the system resolver gives them (getaddrinfo: /etc/hosts, then DNS). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export type GuardVerdict = { ok: true; url: URL; addresses: LookupAddress[] } | { ok: false; reason: string };

const refuse = (reason: string): GuardVerdict => ({ ok: false, reason });

export async function checkTarget(target: string | URL, policy: HostPolicy, resolve: Resolver): Promise<GuardVerdict> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return refuse(`"${String(target).slice(0, 200)}" is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse(`only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username || url.password) return refuse("URLs with a user name or password are not fetched");
  const host = normalizeHost(url.hostname);
  const denied = matchingPattern(host, policy.denyHosts);
  if (denied !== undefined) return refuse(`${host} is denied by web.denyHosts ("${denied}")`);
  const allowed = policy.allowHosts.some((p) => hostMatches(host, p));
  const hint = `; to allow it, add "${host}" to web.allowHosts in mini-cursor.json`;
  if (net.isIP(host) !== 0) {
    const reason = allowed ? null : blockedAddressReason(host);
    if (reason !== null) return refuse(`${host} is a ${reason} address${hint}`);
    return { ok: true, url, addresses: [{ address: host, family: net.isIP(host) }] };
  }
  const nameReason = allowed ? null : internalNameReason(host);
  if (nameReason !== null) return refuse(`${host} is ${nameReason}${hint}`);
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return refuse(`the host ${host} could not be resolved (check the URL)`);
  }
  if (addresses.length === 0) return refuse(`the host ${host} has no address`);
  if (!allowed) {
    for (const { address } of addresses) {
      const reason = blockedAddressReason(address);
      if (reason !== null) return refuse(`${host} resolves to ${address}, a ${reason} address${hint}`);
    }
  }
  return { ok: true, url, addresses };
}

/** A `lookup` for http(s).request that answers with the checked addresses only: no second resolution. */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
    const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : [...addresses];
    const first = wanted[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error("no checked address of that family");
      error.code = "ENOTFOUND";
      callback(error, "", 0);
      return;
    }
    if (options.all) {
      callback(null, wanted);
      return;
    }
    callback(null, first.address, first.family);
  };
}
