import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigTable, withConfigTable } from '../config/config-table.js';
import { ALL_CONFIG_SECTIONS } from '../features/features.js';

/** `npm run docs:config`: writes the sections' variables, the features' own included, into the README's configuration table. */
const readmePath = path.resolve(__dirname, '../../../README.md');
const readme = readFileSync(readmePath, 'utf8');
const updated = withConfigTable(readme, renderConfigTable(ALL_CONFIG_SECTIONS));
if (updated !== readme) writeFileSync(readmePath, updated);
console.log(
  updated === readme ? 'README.md configuration table is up to date' : 'README.md configuration table rewritten',
);
