import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_SECTIONS } from './config.js';
import { renderConfigTable, withConfigTable } from './config-table.js';

/** `npm run docs:config`: writes the sections' variables into the README's configuration table. */
const readmePath = path.resolve(__dirname, '../../../README.md');
const readme = readFileSync(readmePath, 'utf8');
const updated = withConfigTable(readme, renderConfigTable(Object.values(CONFIG_SECTIONS)));
if (updated !== readme) writeFileSync(readmePath, updated);
console.log(
  updated === readme ? 'README.md configuration table is up to date' : 'README.md configuration table rewritten',
);
