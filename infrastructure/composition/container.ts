import {
  type DependencyContainer,
  type InjectionToken,
  container as rootContainer,
  instanceCachingFactory,
} from 'tsyringe';
import { resolutionStub } from './resolution-stub.js';
import { Token } from './token.js';

/** A class registered by itself: use cases and processes. */
// As tsyringe's own (unexported) constructor type: each class's parameters differ.
// biome-ignore lint/suspicious/noExplicitAny: a constructor of any parameters, which unknown[] would not accept
export type ClassKey<T> = new (...args: any[]) => T;
export type Key<T> = Token<T> | ClassKey<T>;

/** A registration after the composition root sealed the container: every adapter is chosen before any role starts. */
export class ContainerSealedError extends Error {
  constructor(key: string) {
    super(`${key} was registered after the container was sealed; register it in the composition root`);
    this.name = 'ContainerSealedError';
  }
}

/**
 * The tsyringe container, typed: every key says what it gives, so resolve needs no
 * assertion and a registration of the wrong type fails to compile. Everything is a singleton.
 * Once sealed it only resolves: what a role finds is what the composition root chose.
 */
export class Container {
  private sealed = false;
  /** Every registration, with the factory of those made on first resolve: what a probe runs. */
  private readonly registrations = new Map<InjectionToken<unknown>, ((container: Container) => unknown) | null>();
  private probe: { missing: Set<string>; probed: Set<InjectionToken<unknown>> } | null = null;

  private constructor(private readonly inner: DependencyContainer) {}

  static create(): Container {
    return new Container(rootContainer.createChildContainer());
  }

  resolve<T>(key: Key<T>): T {
    if (this.probe !== null) return this.probed(key) as T;
    return this.inner.resolve<T>(injectionToken(key));
  }

  /**
   * The names of the keys that `run` resolves, directly or through the factories of what it resolves, and that nobody
   * registered. Nothing is built meanwhile: each resolve gives a stand-in, and each factory runs once on stand-ins.
   */
  unregisteredKeysResolvedBy(run: () => void): string[] {
    this.probe = { missing: new Set(), probed: new Set() };
    try {
      run();
      return [...this.probe.missing];
    } finally {
      this.probe = null;
    }
  }

  private probed<T>(key: Key<T>): unknown {
    const probe = this.probe;
    const registered = injectionToken(key);
    if (probe === null) return undefined;
    if (!this.registrations.has(registered)) probe.missing.add(key.name);
    const make = this.registrations.get(registered);
    if (make != null && !probe.probed.has(registered)) {
      probe.probed.add(registered);
      try {
        make(this);
      } catch {
        // A constructor that refuses a stand-in says nothing of the wiring; what its factory resolved first is recorded.
      }
    }
    return resolutionStub();
  }

  /** Made on first resolve, so a process builds only what its roles use. */
  singleton<T>(key: Key<T>, make: (container: Container) => NoInfer<T>): void {
    this.refuseIfSealed(key);
    this.registrations.set(injectionToken(key), make);
    this.inner.register<T>(injectionToken(key), { useFactory: instanceCachingFactory<T>(() => make(this)) });
  }

  value<T>(key: Key<T>, value: NoInfer<T>): void {
    this.refuseIfSealed(key);
    this.registrations.set(injectionToken(key), null);
    this.inner.register<T>(injectionToken(key), { useValue: value });
  }

  /** Ends registration: from now on a register or a replacement throws. */
  seal(): void {
    this.sealed = true;
  }

  private refuseIfSealed<T>(key: Key<T>): void {
    if (this.sealed) throw new ContainerSealedError(key.name);
  }
}

function injectionToken<T>(key: Key<T>): InjectionToken<T> {
  return key instanceof Token ? key.symbol : key;
}
