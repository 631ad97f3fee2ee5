import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { validate } from "@langchain/langgraph-checkpoint-validation";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sharedPostgres } from "./postgres-server.js";

/**
 * The official checkpointer conformance suite on the saver sessions use with MINI_CURSOR_DATABASE_URL (the pinned
 * @langchain/langgraph-checkpoint-postgres), against the project's shared server: a fresh database per set of validations.
 */
// The suite calls the test functions as globals (jest style); this project's vitest has none, so they are given here.
Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it });

const server = sharedPostgres();
const pools = new Map<PostgresSaver, pg.Pool>();

validate({
  checkpointerName: "PostgresSaver",
  async createCheckpointer() {
    const pool = new pg.Pool({ connectionString: await server.freshDatabase() });
    const saver = new PostgresSaver(pool);
    await saver.setup();
    pools.set(saver, pool);
    return saver;
  },
  async destroyCheckpointer(saver) {
    await pools.get(saver)?.end();
    pools.delete(saver);
  },
});
