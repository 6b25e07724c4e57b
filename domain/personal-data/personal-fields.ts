/**
 * Which fields of which events hold personal data: an account's name and email, the URLs it submitted (videos,
 * channels, playlists, webhooks), what they reveal (titles, video ids, the extractor's messages that quote them), its
 * webhook signing secret, and operators' notes about it. Paths name a field (`email`), a field of a nested object
 * (`source.url`), every element of an array (`videoUrls[]`) or a field of each element (`videos[].title`). A whole
 * object or array may be one path (`result`): it is then sealed as one value.
 *
 * Amounts, ids, times and codes are not personal: they stay readable, so an erased account's history still folds to
 * the same balances.
 */
const LOOKUP_JOB_FIELDS = (name: string): Record<string, readonly string[]> => ({
  [`${name}Requested`]: ['url', 'videoUrl', 'canonicalUrl'],
  [`${name}Succeeded`]: ['result'],
  [`${name}Failed`]: ['error'],
  [`${name}AttemptFailed`]: ['error'],
});

const FOUND_VIDEO = ['videoId', 'videoUrl', 'title'];

export const PERSONAL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  AccountOpened: ['name', 'email'],
  ApiKeyIssued: ['encryptedKey', 'name'],
  AccountSuspended: ['reason'],
  LookupReserved: ['subject'],
  LookupCharged: ['subject'],
  DownloadRequested: ['url', 'videoUrl', 'webhookUrl', 'title'],
  DownloadAttemptFailed: ['reason'],
  DownloadFailed: ['reason'],
  ...LOOKUP_JOB_FIELDS('Info'),
  ...LOOKUP_JOB_FIELDS('ClientDownload'),
  WebhookAttemptStarted: ['url'],
  WebhookAttemptFailed: ['detail'],
  BatchRequested: ['source.url', 'source.urls[]', 'webhookUrl', 'batchWebhookUrl'],
  BatchListed: ['videos[].videoUrl', 'videos[].title'],
  BatchListingFailed: ['reason'],
  BatchVideoAdmitted: ['videoUrl'],
  BatchVideoRefused: ['videoUrl', 'message'],
  BatchVideoSettled: ['videoUrl'],
  BatchCancelRequested: ['withdrawnVideoUrls[]'],
  BatchRetryRequested: ['videoUrls[]'],
  SubscriptionCreated: ['source.url', 'webhookUrl'],
  SubscriptionCheckCompleted: ['seenVideoIds[]', ...FOUND_VIDEO.map((field) => `found[].${field}`)],
  SubscriptionCheckFailed: ['reason'],
  SubscriptionVideoSubmitted: FOUND_VIDEO,
  SubscriptionVideoDeferred: ['videoId'],
  SubscriptionVideoRefused: ['videoId', 'message'],
  SubscriptionPaused: ['reason'],
};

/** Whether events of this type carry personal data at all. */
export function holdsPersonalData(eventType: string): boolean {
  return PERSONAL_FIELDS[eventType] !== undefined;
}

/**
 * A copy of `data` with each personal field's value (absent and null ones excepted: they say nothing) replaced by
 * `change(value)`; the input is left as it was.
 */
export function mapPersonalFields(
  eventType: string,
  data: Record<string, unknown>,
  change: (value: unknown) => unknown,
): Record<string, unknown> {
  const paths = PERSONAL_FIELDS[eventType];
  if (paths === undefined) return data;
  let copy = data;
  for (const path of paths) copy = mapPath(copy, path.split('.'), change) as Record<string, unknown>;
  return copy;
}

function mapPath(value: unknown, steps: readonly string[], change: (value: unknown) => unknown): unknown {
  if (value === null || value === undefined) return value;
  if (steps.length === 0) return change(value);
  const [step, ...rest] = steps as [string, ...string[]];
  const isEach = step.endsWith('[]');
  const field = isEach ? step.slice(0, -2) : step;
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const inner = record[field];
  if (inner === null || inner === undefined) return value;
  if (isEach && !Array.isArray(inner)) return value;
  const changed = isEach
    ? (inner as unknown[]).map((element) => mapPath(element, rest, change))
    : mapPath(inner, rest, change);
  return { ...record, [field]: changed };
}
