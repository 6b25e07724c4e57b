import type { Config } from '../../config/config.js';
import { type LoadedMasterKey, decodeMasterKey, loadMasterKey } from '../master-key.js';
import { MasterKeys, masterKey } from './master-keys.js';

/** MASTER_KEY (or the development one, generated at the first start) and the PREVIOUS_MASTER_KEYS it replaced. */
export function configuredMasterKeys(config: Config): { current: LoadedMasterKey; previous: Buffer[] } {
  return {
    current: loadMasterKey(config.security.masterKey, config.security.masterKeyFile),
    previous: config.security.previousMasterKeys.map((key) => decodeMasterKey(key, 'PREVIOUS_MASTER_KEYS')),
  };
}

/** The configured master keys as the data keys use them. */
export function serviceMasterKeys(config: Config): MasterKeys {
  const { current, previous } = configuredMasterKeys(config);
  return new MasterKeys(masterKey(current.key), previous.map(masterKey));
}
