/**
 * A three-way merge of Netscape cookie files: `base` is the jar a run of
 * yt-dlp started from, `theirs` what it wrote back on exit, `ours` the jar on
 * disk now (other runs may have written meanwhile). The run's additions,
 * changes and removals are applied to `ours`; cookies it did not touch keep
 * what other runs gave them. Cookies are keyed by domain, path and name.
 */
export function mergeCookieJars(base: string, ours: string, theirs: string): string {
  const before = parseJar(base);
  const after = parseJar(theirs);
  const merged = parseJar(ours);
  for (const [key, line] of after.cookies) {
    if (before.cookies.get(key) !== line) merged.cookies.set(key, line);
  }
  for (const key of before.cookies.keys()) {
    if (!after.cookies.has(key)) merged.cookies.delete(key);
  }
  const header =
    merged.header.length > 0 ? merged.header : after.header.length > 0 ? after.header : ['# Netscape HTTP Cookie File'];
  return `${[...header, ...merged.cookies.values()].join('\n')}\n`;
}

interface Jar {
  header: string[];
  cookies: Map<string, string>;
}

function parseJar(text: string): Jar {
  const jar: Jar = { header: [], cookies: new Map() };
  for (const line of text.split(/\r?\n/)) {
    // `#HttpOnly_` marks a cookie, not a comment.
    if (line.startsWith('#') && !line.startsWith('#HttpOnly_')) {
      if (jar.cookies.size === 0) jar.header.push(line);
      continue;
    }
    const fields = line.split('\t');
    if (fields.length < 7) continue;
    jar.cookies.set([fields[0].replace(/^#HttpOnly_/, ''), fields[2], fields[5]].join('\t'), line);
  }
  return jar;
}
