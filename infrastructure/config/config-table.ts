import type { ConfigSection } from './section.js';

const TABLE_START =
  '<!-- config-table:start (written by npm run docs:config from infrastructure/config/sections; edit there) -->';
const TABLE_END = '<!-- config-table:end -->';

/** The README's configuration table: one table per section, one row per variable. */
export function renderConfigTable(sections: readonly ConfigSection<unknown>[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return sections
    .map((section) =>
      [
        `**${section.title}**`,
        '',
        '| variable | default | meaning |',
        '|---|---|---|',
        ...section.variables.map(
          (variable) => `| \`${variable.name}\` | ${cell(variable.shownDefault)} | ${cell(variable.doc)} |`,
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

/** The README with the table between its markers replaced. */
export function withConfigTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`README.md lacks the markers ${TABLE_START} and ${TABLE_END}`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}
