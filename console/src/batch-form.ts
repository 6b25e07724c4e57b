import type { Api } from './api.js';
import { byId } from './dom.js';
import { copyFormatOptions } from './format-options.js';
import { clearFormErrors, showFormError, sourceField, whileSubmitting } from './form-errors.js';

const INPUTS = ['source', 'maxVideos'] as const;
const FIELD_OF = { channelUrl: 'source', playlistUrl: 'source', maxVideos: 'maxVideos' };

/** POST /download-batch from a playlist's or channel's URL; a batch accepted opens its own page. */
export function setUpBatchForm(api: () => Api, onSubmitted: (batchId: string) => void): void {
  copyFormatOptions('batch-format');
  const form = byId<HTMLFormElement>('batch-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void whileSubmitting(form, async () => {
      clearFormErrors('batch', INPUTS);
      const data = new FormData(form);
      const source = String(data.get('source') ?? '').trim();
      const max = String(data.get('maxVideos') ?? '').trim();
      const body: Record<string, unknown> = { [sourceField(source)]: source, format: data.get('format') };
      if (max !== '') body.maxVideos = /^\d+$/.test(max) ? Number(max) : max;
      try {
        const accepted = await api().request<{ batchId: string }>('POST', '/download-batch', body);
        form.reset();
        onSubmitted(accepted.batchId);
      } catch (error) {
        showFormError('batch', FIELD_OF, error);
      }
    });
  });
}
