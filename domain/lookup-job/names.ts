/**
 * Each kind of lookup job names its events and commands after itself
 * (`InfoRequested`, `RecordClientDownloadAttemptFailure`): the names are
 * stored, as event types and as the commands in the events' metadata.
 */
export interface LookupJobEventTypes<Name extends string> {
  requested: `${Name}Requested`;
  succeeded: `${Name}Succeeded`;
  failed: `${Name}Failed`;
  attemptFailed: `${Name}AttemptFailed`;
  abandoned: `${Name}Abandoned`;
}

export interface LookupJobCommandTypes<Name extends string> {
  request: `Request${Name}`;
  complete: `Complete${Name}`;
  fail: `Fail${Name}`;
  recordAttemptFailure: `Record${Name}AttemptFailure`;
  abandon: `Abandon${Name}`;
}

export function lookupJobEventTypes<Name extends string>(name: Name): LookupJobEventTypes<Name> {
  return {
    requested: `${name}Requested`,
    succeeded: `${name}Succeeded`,
    failed: `${name}Failed`,
    attemptFailed: `${name}AttemptFailed`,
    abandoned: `${name}Abandoned`,
  };
}

export function lookupJobCommandTypes<Name extends string>(name: Name): LookupJobCommandTypes<Name> {
  return {
    request: `Request${name}`,
    complete: `Complete${name}`,
    fail: `Fail${name}`,
    recordAttemptFailure: `Record${name}AttemptFailure`,
    abandon: `Abandon${name}`,
  };
}
