import assert from 'node:assert/strict';
import { renderConfigTable } from '../../../../infrastructure/config/config-table.js';
import type { ConfigSection } from '../../../../infrastructure/config/section.js';
import { section } from '../../../../infrastructure/config/section.js';
import type { Variable } from '../../../../infrastructure/config/setting.js';
import { integer, text } from '../../../../infrastructure/config/variable.js';
import { ALL_CONFIG_SECTIONS } from '../../../../infrastructure/features/features.js';

const sections: readonly ConfigSection<unknown>[] = ALL_CONFIG_SECTIONS;

/** What a variable's declaration lacks, as `NAME: what`. */
function declarationProblems(variables: readonly Variable<unknown>[]): string[] {
  return variables.flatMap((variable) => {
    const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';
    return [
      !/^[A-Z][A-Z0-9_]*$/.test(variable.name) && 'a name in capitals',
      blank(variable.doc) && 'a doc',
      blank(variable.shownDefault) && 'a default shown in the README',
      typeof variable.fallback !== 'function' && 'a default',
      typeof variable.parse !== 'function' && 'a parser',
    ]
      .filter((problem) => problem !== false)
      .map((problem) => `${variable.name}: lacks ${problem}`);
  });
}

/** The variable names of the README table's rows, in order. */
function tableRows(table: string): string[] {
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
}

describe('the configuration declarations', () => {
  it('give every variable a name, a doc, a default (and how the README shows it) and a parser', () => {
    const variables = sections.flatMap((declared) => declared.variables);
    assert.ok(variables.length > 90, `only ${variables.length} variables were found`);
    assert.deepEqual(declarationProblems(variables), []);
  });

  it('are refused without a doc or a parser', () => {
    const undocumented = integer('UNDOCUMENTED', 1, [0, 2], ' ');
    const unparsed = { ...text('UNPARSED', 'x', 'a value'), parse: undefined } as unknown as Variable<unknown>;
    assert.deepEqual(declarationProblems([undocumented, unparsed]), [
      'UNDOCUMENTED: lacks a doc',
      'UNPARSED: lacks a parser',
    ]);
  });

  it('give the README table one row per variable, in the order declared', () => {
    const table = renderConfigTable(sections);
    const declared = sections.flatMap((declared) => declared.variables.map((variable) => variable.name));
    assert.deepEqual(tableRows(table), declared);
    assert.equal(new Set(declared).size, declared.length, 'a variable is declared in two places');
    assert.deepEqual(
      tableRows(
        renderConfigTable([section('Made up', { a: integer('A', 1, [0, 2], 'an a'), b: text('B', '', 'a b') })]),
      ),
      ['A', 'B'],
    );
  });
});
