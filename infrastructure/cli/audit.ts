import 'reflect-metadata';
import { auditCommand } from '../admin/audit-command.js';
import { runCliProcess } from './run-cli.js';

/** `npm run --silent audit -- <accountId> [--json]`. */
runCliProcess('audit', auditCommand);
