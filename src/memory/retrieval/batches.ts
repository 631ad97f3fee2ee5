/**
 * Groups items into batches of at most `max` units (a file's chunks, say), in order; an item bigger than `max`
 * makes a batch of its own. Reads the source only as far as the batch being made needs.
 */
export async function* batchesOf<T>(items: AsyncIterable<T>, size: (item: T) => number, max: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  let units = 0;
  for await (const item of items) {
    const n = size(item);
    if (batch.length > 0 && units + n > max) {
      yield batch;
      batch = [];
      units = 0;
    }
    batch.push(item);
    units += n;
  }
  if (batch.length > 0) yield batch;
}
