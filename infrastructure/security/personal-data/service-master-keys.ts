import type { Config } from '../../config/config.js';
import { decodeMasterKey, loadMasterKey } from '../master-key.js';
import { MasterKeys, masterKey } from './master-keys.js';

/** The configured master keys (MASTER_KEY, or the development one, and PREVIOUS_MASTER_KEYS) as the data keys use them. */
export function serviceMasterKeys(config: Config): MasterKeys {
  const current = loadMasterKey(config.security.masterKey, config.security.masterKeyFile).key;
  const previous = config.security.previousMasterKeys.map((key) => decodeMasterKey(key, 'PREVIOUS_MASTER_KEYS'));
  return new MasterKeys(masterKey(current), previous.map(masterKey));
}
