/** A setting the service cannot start with; the message names the variable. */
export class ConfigError extends Error {
  constructor(name: string, problem: string) {
    super(`Invalid configuration: ${name} ${problem}`);
    this.name = 'ConfigError';
  }
}
