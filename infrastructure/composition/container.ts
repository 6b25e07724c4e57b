import {
  type DependencyContainer,
  type InjectionToken,
  container as rootContainer,
  instanceCachingFactory,
} from 'tsyringe';
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

  private constructor(private readonly inner: DependencyContainer) {}

  static create(): Container {
    return new Container(rootContainer.createChildContainer());
  }

  resolve<T>(key: Key<T>): T {
    return this.inner.resolve<T>(injectionToken(key));
  }

  /** Made on first resolve, so a process builds only what its roles use. */
  singleton<T>(key: Key<T>, make: (container: Container) => NoInfer<T>): void {
    this.refuseIfSealed(key);
    this.inner.register<T>(injectionToken(key), { useFactory: instanceCachingFactory<T>(() => make(this)) });
  }

  value<T>(key: Key<T>, value: NoInfer<T>): void {
    this.refuseIfSealed(key);
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
