/**
 * Host patterns of `web.allowHosts` / `web.denyHosts`: `example.com` matches that name only, `*.example.com` any name
 * below it (not example.com itself), an IP address matches itself (IPv6 with or without brackets). Case and a trailing
 * dot do not matter.
 */

/** A URL's hostname as compared: lower case, no brackets, no trailing dot. */
export function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

export function hostMatches(host: string, pattern: string): boolean {
  const name = normalizeHost(host);
  const p = normalizeHost(pattern);
  if (p.startsWith("*.")) return name.endsWith(p.slice(1)) && name.length > p.length - 1;
  return name === p;
}

export function matchingPattern(host: string, patterns: readonly string[]): string | undefined {
  return patterns.find((p) => hostMatches(host, p));
}

/**
 * Names that only make sense inside a machine or a cloud network (refused by name, before any DNS query): localhost,
 * the metadata services' names, and the internal pseudo-domains.
 */
export function internalNameReason(host: string): string | null {
  const name = normalizeHost(host);
  if (name === "localhost" || name.endsWith(".localhost")) return "a loopback name";
  if (name === "metadata" || name === "instance-data" || name === "metadata.google.internal" || name === "metadata.goog") return "a cloud metadata name";
  if (name.endsWith(".internal") || name.endsWith(".local") || name.endsWith(".lan") || name.endsWith(".home.arpa")) return "an internal network name";
  if (!name.includes(".") && !name.includes(":")) return "a single-label (local network) name";
  return null;
}
