import { type Api, ApiError } from './api.js';
import { byId } from './dom.js';

const FIELDS = ['url', 'format', 'startTime', 'endTime', 'language', 'webhookUrl'] as const;
type Field = (typeof FIELDS)[number];

/**
 * POST /download from the form. The API's messages name their field first
 * ("url must be …", "endTime must be greater than startTime"), so each is
 * shown beside that field; any other refusal (a credit limit, too many
 * pending downloads) is shown under the form.
 */
export function setUpSubmitForm(api: () => Api, onSubmitting: () => void, onSubmitted: (jobId: string) => void): void {
  const form = byId<HTMLFormElement>('submit-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    onSubmitting();
    const button = form.querySelector('button[type="submit"]') as HTMLButtonElement;
    button.disabled = true;
    try {
      const submitted = await api().request<{ jobId: string }>('POST', '/download', requestBody(form));
      form.reset();
      onSubmitted(submitted.jobId);
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
    }
  });
}

function requestBody(form: HTMLFormElement): Record<string, unknown> {
  const data = new FormData(form);
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = String(data.get(field) ?? '').trim();
    if (value === '') continue;
    // Numbers go as numbers when they are numbers; anything else goes as typed, for the API to name.
    body[field] = (field === 'startTime' || field === 'endTime') && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return body;
}

function showError(error: unknown): void {
  const message =
    error instanceof ApiError
      ? error.message + (error.details === undefined ? '' : ` (${error.details})`)
      : 'The download could not be submitted.';
  const field = error instanceof ApiError && error.status === 400 ? fieldNamedBy(error.message) : null;
  if (field === null) {
    byId('error-form').textContent = message;
    return;
  }
  byId(`error-${field}`).textContent = message;
  const input = byId<HTMLInputElement>(`field-${field}`);
  input.setAttribute('aria-invalid', 'true');
  input.focus();
}

function fieldNamedBy(message: string): Field | null {
  const first = /^([A-Za-z]+)\b/.exec(message)?.[1];
  return FIELDS.find((field) => field === first) ?? null;
}

function clearErrors(): void {
  byId('error-form').textContent = '';
  for (const field of FIELDS) {
    byId(`error-${field}`).textContent = '';
    byId(`field-${field}`).removeAttribute('aria-invalid');
  }
}
