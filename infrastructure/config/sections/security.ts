import path from 'node:path';
import { derive } from '../compose-settings.js';
import { section } from '../section.js';
import { code, integer, list, optional, text } from '../variable.js';
import { DATA_DIR } from './storage.js';

export const securitySection = section('Keys', {
  masterKey: derive(
    optional(
      'MASTER_KEY',
      "32 bytes (base64 or hex) wrapping the accounts' data keys, encrypting API keys and signing links; without it a development key is generated into `MASTER_KEY_FILE`",
    ),
    (key) => key ?? null,
  ),
  previousMasterKeys: list(
    'PREVIOUS_MASTER_KEYS',
    [],
    'master keys replaced by `MASTER_KEY` (comma-separated, base64 or hex): data keys wrapped by one still open until `npm run admin -- rotate-master-key` wraps them again, and API keys issued under one still sign webhooks',
  ),
  masterKeyFile: text(
    'MASTER_KEY_FILE',
    (env) => path.join(DATA_DIR.read(env), 'master.key'),
    'where the development master key is kept (git-ignored)',
    code('$DATA_DIR/master.key'),
  ),
  apiKeyCacheTtlSeconds: integer(
    'API_KEY_CACHE_TTL_SECONDS',
    10,
    [0, 3_600],
    'the API keeps active keys in memory this long at most; a revocation evicts its key at once (the accounts projection notifies every API process), and nothing is cached while that notification channel is down; `0` looks every key up. A key in use is looked up again in the background after three quarters of this, and requests for a key being looked up share that lookup, so the requests of a busy key never queue on the database',
  ),
});
