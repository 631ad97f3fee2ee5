/**
 * Tasks given on the command line stay under this many characters (about 2,000 tokens, a detailed page): a longer
 * one is a document, better kept in a file (`--task-file`) than in shell history and `ps` output.
 */
export const MAX_ARGUMENT_TASK_CHARS = 8_000;
