/**
 * A stand-in for whatever a resolve returns while the container is probed: every property, call or construction gives
 * another stand-in, so a factory or a feature's hook runs through without building anything real. It is not a promise
 * (`then` is absent), so awaiting it ends at once.
 */
export function resolutionStub(): unknown {
  const stub: unknown = new Proxy(function stub() {}, {
    get: (_target, property) => {
      if (property === 'then') return undefined;
      if (property === Symbol.toPrimitive) return () => '';
      if (property === Symbol.iterator) return () => [][Symbol.iterator]();
      return stub;
    },
    apply: () => stub,
    construct: () => stub as object,
  });
  return stub;
}
