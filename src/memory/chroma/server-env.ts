/**
 * The environment the local Chroma server runs with. Every collection's vector index is allocated for 10,000
 * vectors whatever it holds (about 41 MB at 1,024 dimensions, 83 MB at 2,048), and in a virtual machine each first
 * touch of a 4 KiB page is costly: creating or loading one index cost 0.35-0.65 s of the server's CPU, on the
 * cores the session needs. glibc's `malloc.hugetlb=1` tunable makes such allocations ask for transparent huge
 * pages (2 MiB), which cut that to 0.06-0.1 s (bench/versus-bare.ts, docs/benchmarks.md). It only asks
 * (`madvise`): a kernel with huge pages off ignores it. A user's own `malloc.hugetlb` choice is kept. The Node
 * variables meant for the CLI are left out (src/platform/internal-node-env.ts).
 */
import { internalNodeEnv } from "../../platform/internal-node-env.js";

const TUNABLE = "glibc.malloc.hugetlb";

export function chromaServerEnv(callerEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = internalNodeEnv(callerEnv);
  const current = env.GLIBC_TUNABLES ?? "";
  if (current.split(":").some((entry) => entry.startsWith(`${TUNABLE}=`))) return env;
  return { ...env, GLIBC_TUNABLES: current ? `${current}:${TUNABLE}=1` : `${TUNABLE}=1` };
}
