/**
 * A link's expiry, in Unix seconds. Its lifetime runs from the moment it is
 * issued, rounded up to the minute so that polls within a minute get the same
 * URL, but it never runs past the file's deletion (completion plus the
 * retention period): a link handed out late in the retention period would
 * otherwise answer 410 while it still claimed to be valid. A retention of 0
 * keeps files for ever, so nothing caps the lifetime then.
 */
export function linkExpiresAt(
  now: Date,
  ttlSeconds: number,
  file: { completedAt: string | null },
  retentionSeconds: number,
): number {
  const byLifetime = Math.ceil((now.getTime() / 1000 + ttlSeconds) / 60) * 60;
  const deletedAt = fileDeletedAt(file, retentionSeconds);
  return deletedAt === null ? byLifetime : Math.min(byLifetime, deletedAt);
}

/**
 * When the file's retention ends, in Unix seconds: null when files are kept
 * for ever (retention 0) or the completion is unknown. Whole seconds, rounded
 * down: a link may end a fraction early, never late.
 */
export function fileDeletedAt(file: { completedAt: string | null }, retentionSeconds: number): number | null {
  const completedMs = file.completedAt === null ? Number.NaN : Date.parse(file.completedAt);
  if (retentionSeconds === 0 || Number.isNaN(completedMs)) return null;
  return Math.floor(completedMs / 1000) + retentionSeconds;
}
