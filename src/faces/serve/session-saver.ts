import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";

/** Which session a thread id names, and back (src/faces/serve/session-threads.ts keeps both). */
export interface ThreadNames {
  sessionOf(threadId: string): string | undefined;
  threadOf(sessionId: string): string;
}

/**
 * The session database's checkpointer as the API sees it: threads by their UUID (thread-ids.ts), stored under the
 * session's own id, so what a CLI run wrote is what the API reads and the other way round. Only the thread id is
 * translated; namespaces and checkpoint ids pass through as they are.
 */
export class SessionSaver extends BaseCheckpointSaver {
  constructor(
    private readonly inner: BaseCheckpointSaver,
    private readonly names: ThreadNames,
  ) {
    super(inner.serde);
  }

  private toStore(config: RunnableConfig): RunnableConfig {
    const id: unknown = config.configurable?.thread_id;
    const session = typeof id === "string" ? this.names.sessionOf(id) : undefined;
    return session === undefined ? config : { ...config, configurable: { ...config.configurable, thread_id: session } };
  }

  private toApi(config: RunnableConfig): RunnableConfig {
    const id: unknown = config.configurable?.thread_id;
    return typeof id === "string" ? { ...config, configurable: { ...config.configurable, thread_id: this.names.threadOf(id) } } : config;
  }

  private tupleToApi(tuple: CheckpointTuple): CheckpointTuple {
    return { ...tuple, config: this.toApi(tuple.config), ...(tuple.parentConfig ? { parentConfig: this.toApi(tuple.parentConfig) } : {}) };
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const tuple = await this.inner.getTuple(this.toStore(config));
    return tuple && this.tupleToApi(tuple);
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const o = options?.before ? { ...options, before: this.toStore(options.before) } : options;
    for await (const tuple of this.inner.list(this.toStore(config), o)) yield this.tupleToApi(tuple);
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, versions: ChannelVersions): Promise<RunnableConfig> {
    return this.toApi(await this.inner.put(this.toStore(config), checkpoint, metadata, versions));
  }

  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    return this.inner.putWrites(this.toStore(config), writes, taskId);
  }

  deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(this.names.sessionOf(threadId) ?? threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}
