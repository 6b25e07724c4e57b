import { ApiError } from './api.js';
import { byId } from './dom.js';

/**
 * Shows a refusal of a form's request: the API's messages name their field
 * first ("channelUrl must be …"), so one naming a field the form maps to one
 * of its inputs is shown beside it; any other beside the form. Ids follow
 * `<prefix>-<input>` and `<prefix>-<input>-error`, `<prefix>-form-error`.
 */
export function showFormError(prefix: string, fieldOf: Record<string, string>, error: unknown): void {
  const message =
    error instanceof ApiError
      ? error.message + (error.details === undefined ? '' : ` (${error.details})`)
      : 'The request could not be sent.';
  const named = /^([A-Za-z]+)\b/.exec(message)?.[1] ?? '';
  const input = error instanceof ApiError && error.status === 400 ? fieldOf[named] : undefined;
  if (input === undefined) {
    byId(`${prefix}-form-error`).textContent = message;
    return;
  }
  byId(`${prefix}-${input}-error`).textContent = message;
  const field = byId<HTMLInputElement>(`${prefix}-${input}`);
  field.setAttribute('aria-invalid', 'true');
  field.focus();
}

export function clearFormErrors(prefix: string, inputs: readonly string[]): void {
  byId(`${prefix}-form-error`).textContent = '';
  for (const input of inputs) {
    byId(`${prefix}-${input}-error`).textContent = '';
    byId(`${prefix}-${input}`).removeAttribute('aria-invalid');
  }
}

/** A playlist's URL names its list; anything else is taken for a channel, for the API to judge. */
export function sourceField(url: string): 'playlistUrl' | 'channelUrl' {
  return /[?&]list=/.test(url) ? 'playlistUrl' : 'channelUrl';
}

/** Runs a form's request with its submit button disabled, so a double click sends it once. */
export async function whileSubmitting(form: HTMLFormElement, request: () => Promise<void>): Promise<void> {
  const button = form.querySelector('button[type="submit"]') as HTMLButtonElement;
  button.disabled = true;
  try {
    await request();
  } finally {
    button.disabled = false;
  }
}
