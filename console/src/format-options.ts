import { byId } from './dom.js';

/** Gives a form's format select the download form's options, so the formats are listed once, in the page. */
export function copyFormatOptions(selectId: string): void {
  const source = byId<HTMLSelectElement>('field-format');
  byId<HTMLSelectElement>(selectId).replaceChildren(...[...source.options].map((option) => option.cloneNode(true)));
}
