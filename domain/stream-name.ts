/**
 * Stream names are `<category>-<id>`: the category has no dash, the id may.
 * This matches EventStoreDB's `$ce-<category>` projections and lets readers
 * filter by the prefix `<category>-`.
 */
export function streamName(category: string, id: string): string {
  if (category.length === 0 || category.includes('-')) throw new Error(`Invalid stream category: ${category}`);
  return `${category}-${id}`;
}

export function parseStreamName(name: string): { category: string; id: string } {
  const dash = name.indexOf('-');
  if (dash <= 0) throw new Error(`Not a category stream: ${name}`);
  return { category: name.slice(0, dash), id: name.slice(dash + 1) };
}

export function categoryPrefix(category: string): string {
  return `${category}-`;
}
