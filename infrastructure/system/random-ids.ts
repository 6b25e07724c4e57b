import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '../../application/ports/id-generator.js';

export class RandomIds implements IdGenerator {
  next(): string {
    return randomUUID();
  }
}
