import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Container } from '../../../infrastructure/composition/container.js';
import { createContainer } from '../../../infrastructure/composition/create-container.js';
import type { FeatureModule } from '../../../infrastructure/composition/feature-module.js';
import { processorOptions } from '../../../infrastructure/composition/processor-options.js';
import { token } from '../../../infrastructure/composition/token.js';
import { TOKENS } from '../../../infrastructure/composition/tokens.js';
import { type Config, ROLES, type Role, loadConfig } from '../../../infrastructure/config/config.js';
import { FEATURES } from '../../../infrastructure/features/features.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import { FeatureWiringError, absentRequirements, checkWiring } from '../../../infrastructure/roles/check-wiring.js';
import type { RoleContext } from '../../../infrastructure/roles/role-context.js';
import { ScriptedExtractor, answerAtOnce } from '../../support/scripted-extractor.js';
import { testEmbeddedTemplateDir } from '../../support/embedded-template.js';

const logger = createLogger('silent');

/** Every non-empty set of roles a process can run. */
const ROLE_SETS: ReadonlySet<Role>[] = Array.from({ length: 2 ** ROLES.length - 1 }, (_, index) => {
  return new Set(ROLES.filter((_role, bit) => ((index + 1) >> bit) & 1));
});

function roleContext(container: Container, config: Config): RoleContext {
  return {
    container,
    config,
    logger,
    overrides: {},
    queue: container.resolve(TOKENS.workQueue),
    processorOptions: processorOptions(config, container.resolve(TOKENS.storage), logger),
    readiness: {},
  };
}

describe('the wiring check at start-up', function () {
  this.timeout(600_000);
  let directory: string;
  let config: Config;
  before(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'vds-wiring-'));
    config = loadConfig({ DATA_DIR: directory, EMBEDDED_TEMPLATE_DIR: testEmbeddedTemplateDir(), LOG_LEVEL: 'silent' });
  });
  after(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function withContainer(roles: ReadonlySet<Role>, use: (context: RoleContext) => void): Promise<void> {
    const { container, close } = await createContainer(config, logger, {
      overrides: { extractor: new ScriptedExtractor({ probe: answerAtOnce() }) },
      roles,
    });
    try {
      use(roleContext(container, config));
    } finally {
      await close();
    }
  }

  it('finds every key resolved by every combination of roles registered', async () => {
    assert.equal(ROLE_SETS.length, 15);
    for (const roles of ROLE_SETS) {
      await withContainer(roles, (context) => assert.doesNotThrow(() => checkWiring(context, roles, FEATURES)));
    }
  });

  it('refuses a role whose feature resolves a key nobody registered, naming it', async () => {
    const nobodys = token<string>('NobodysToken');
    const careless: FeatureModule = {
      name: 'careless',
      workerLoops: ({ container }) => {
        container.resolve(nobodys);
        return [];
      },
    };
    await withContainer(new Set(['worker']), (context) => {
      assert.throws(
        () => checkWiring(context, new Set(['worker']), [...FEATURES, careless]),
        (error: unknown) => {
          assert.ok(error instanceof FeatureWiringError);
          assert.match(error.message, /worker resolve what nobody registered: NobodysToken/);
          return true;
        },
      );
      // Only the roles that resolve it: a projector runs no worker loops.
      assert.doesNotThrow(() => checkWiring(context, new Set(['projector']), [...FEATURES, careless]));
    });
  });

  it('names each feature that requires one absent from the service', () => {
    const withoutAccounts = FEATURES.filter((feature) => feature.name !== 'accounts');
    const absent = absentRequirements(withoutAccounts);
    for (const name of ['channel listing', 'downloads', 'job watching', 'lookups', 'webhooks'])
      assert.ok(absent.includes(`${name} requires accounts`), `${name}: ${absent.join('; ')}`);
    assert.ok(
      absent.every((problem) => problem.endsWith(' requires accounts')),
      absent.join('; '),
    );
    assert.deepEqual(absentRequirements(FEATURES), []);
  });
});
