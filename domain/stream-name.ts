/**
 * Stream names are `<category>-<id>`: the category has no dash, the id may.
 * This matches EventStoreDB's `$ce-<category>` projections and lets readers
 * filter by the prefix `<category>-`.
 */
export function streamName(category: string, id: string): string {
  if (category.length === 0 || category.includes('-')) throw new Error(`Invalid stream category: ${category}`);
  return `${category}-${id}`;
}
