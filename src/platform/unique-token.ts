/**
 * A token no other live process and no earlier call of this one will produce: the pid (unique among live processes),
 * the time, a counter and random digits. For lock and lease file names, which need uniqueness, not secrecy; using it
 * instead of node:crypto keeps crypto out of light commands (`memory list`, `sessions`), which load in ~0.1 s.
 */
let counter = 0;

export function uniqueToken(): string {
  counter += 1;
  const random = Math.floor(Math.random() * 2 ** 48).toString(36);
  return `${Date.now().toString(36)}-${counter.toString(36)}-${random}`;
}
