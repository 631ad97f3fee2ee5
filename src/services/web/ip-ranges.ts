import net from "node:net";

/**
 * Which addresses fetch_url must not reach: everything that is not the public internet (loopback, private networks,
 * link-local including the cloud metadata address, unspecified, multicast, reserved), also when wrapped in an IPv6
 * form that carries an IPv4 address (mapped, compatible, NAT64, 6to4).
 */

const V4_BLOCKED: readonly [string, number, string][] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "private (carrier-grade NAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local (cloud metadata)"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved (documentation)"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved (benchmarking)"],
  ["198.51.100.0", 24, "reserved (documentation)"],
  ["203.0.113.0", 24, "reserved (documentation)"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

const V6_BLOCKED: readonly [string, number, string][] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["100::", 64, "reserved (discard)"],
  ["2001:db8::", 32, "reserved (documentation)"],
  ["fc00::", 7, "private (unique local)"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "private (site-local)"],
  ["ff00::", 8, "multicast"],
];

function v4ToInt(address: string): number {
  return address.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

/** The 128 bits of an IPv6 address (a trailing dotted IPv4 part allowed), or null when it does not parse. */
export function v6ToBigInt(address: string): bigint | null {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    if (!net.isIPv4(dotted[1])) return null;
    const n = v4ToInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

function inV4(n: number, base: string, bits: number): boolean {
  const shift = 32 - bits;
  return shift === 32 || Math.floor(n / 2 ** shift) === Math.floor(v4ToInt(base) / 2 ** shift);
}

function inV6(n: bigint, base: string, bits: number): boolean {
  const shift = BigInt(128 - bits);
  const start = v6ToBigInt(base) ?? -1n;
  return n >> shift === start >> shift;
}

function v4Reason(address: string): string | null {
  const n = v4ToInt(address);
  for (const [base, bits, reason] of V4_BLOCKED) if (inV4(n, base, bits)) return reason;
  if (n === 0xffffffff) return "broadcast";
  return null;
}

function intToV4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join(".");
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedV4(n: bigint): string | null {
  if (n >> 32n === 0xffffn || (n >> 32n === 0n && n > 1n)) return intToV4(n & 0xffffffffn);
  if (n >> 32n === 0x64ff9b0000000000000000n) return intToV4(n & 0xffffffffn);
  if (n >> 112n === 0x2002n) return intToV4((n >> 80n) & 0xffffffffn);
  return null;
}

/** Why an address may not be fetched ("loopback", "private", ...), or null for a public address. Not an IP: refused. */
export function blockedAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  if (net.isIPv4(bare)) return v4Reason(bare);
  if (!net.isIPv6(bare)) return "not an IP address";
  const n = v6ToBigInt(bare);
  if (n === null) return "not an IP address";
  const v4 = embeddedV4(n);
  if (v4 !== null) {
    const reason = v4Reason(v4);
    return reason === null ? null : `${reason}, as IPv6`;
  }
  for (const [base, bits, reason] of V6_BLOCKED) if (inV6(n, base, bits)) return reason;
  return null;
}
