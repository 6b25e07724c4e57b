/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit`
 * (a bare value is depth 0, `[]` depth 1). Walks with an explicit stack, so a
 * hostile body nested thousands of levels deep cannot overflow the call stack
 * here, and stops at the first branch beyond the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
