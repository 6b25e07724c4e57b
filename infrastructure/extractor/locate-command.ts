import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The file a command runs, found as the shell finds it: a name with a slash is a path already; a bare name (`yt-dlp`)
 * is the first executable file of that name in the directories of `searchPath` (`PATH`). Null when there is none.
 */
export async function locateCommand(command: string, searchPath = process.env.PATH ?? ''): Promise<string | null> {
  if (command.includes('/')) return command;
  for (const directory of searchPath.split(path.delimiter)) {
    if (directory === '') continue;
    const candidate = path.join(directory, command);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
