import { describe, expect, it } from "vitest";
import { isLoopback } from "../../../src/faces/serve/serve-sessions.js";
import { assistantIdOf, threadIdOf } from "../../../src/faces/serve/thread-ids.js";

describe("serve's names for sessions and the graph", () => {
  it("a session's thread id is a UUID derived from its id, the same in every process and release", () => {
    // Pinned: Studio and SDK clients keep thread ids; a change here would orphan every link to a session.
    expect(threadIdOf("20261205-103123-7406")).toBe("1fe9f605-afd2-51a8-82f8-cba3b87604e9");
    expect(threadIdOf("20261205-103123-7407")).not.toBe(threadIdOf("20261205-103123-7406"));
    expect(threadIdOf("x")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("the assistant id is langgraph-api's own for a graph name, as langgraph dev gives it", () => {
    // langgraph-api's graph loader: uuid5(graph_id, NAMESPACE_GRAPH = 6ba7b821-9dad-11d1-80b4-00c04fd430c8).
    expect(assistantIdOf("agent")).toBe("fe096781-5601-53d2-b2f6-0d3403f7e9ca");
  });

  it("only loopback addresses count as loopback", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) expect(isLoopback(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.2", "example.com", "127.0.0.1.example.com"]) expect(isLoopback(host), host).toBe(false);
  });
});
