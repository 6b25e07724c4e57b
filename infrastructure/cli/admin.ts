import 'reflect-metadata';
import { ADMIN_USAGE, adminCommand } from '../admin/admin-command.js';
import { runCliProcess } from './run-cli.js';

/** `npm run --silent admin -- <command> [options]`; `--help` lists the commands without opening anything. */
const [first] = process.argv.slice(2);
if (first === undefined || first === '--help' || first === 'help') process.stdout.write(`${ADMIN_USAGE}\n`);
else runCliProcess('admin', adminCommand);
