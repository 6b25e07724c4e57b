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

/**
 * The tsyringe container, typed: every key says what it gives, so resolve needs no
 * assertion and a registration of the wrong type fails to compile. Everything is a singleton.
 */
export class Container {
  private constructor(private readonly inner: DependencyContainer) {}

  static create(): Container {
    return new Container(rootContainer.createChildContainer());
  }

  resolve<T>(key: Key<T>): T {
    return this.inner.resolve<T>(injectionToken(key));
  }

  isRegistered<T>(key: Key<T>): boolean {
    return this.inner.isRegistered(injectionToken(key));
  }

  /** Made on first resolve, so a process builds only what its roles use. */
  singleton<T>(key: Key<T>, make: (container: Container) => NoInfer<T>): void {
    this.inner.register<T>(injectionToken(key), { useFactory: instanceCachingFactory<T>(() => make(this)) });
  }

  value<T>(key: Key<T>, value: NoInfer<T>): void {
    this.inner.register<T>(injectionToken(key), { useValue: value });
  }
}

function injectionToken<T>(key: Key<T>): InjectionToken<T> {
  return key instanceof Token ? key.symbol : key;
}
