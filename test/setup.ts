// Loaded by mocha before any spec (see .mocharc.json): tsyringe needs the metadata polyfill first.
import 'reflect-metadata';
import { testEmbeddedTemplateDir } from './support/embedded-template.js';

// Service processes the specs start inherit it; services in the spec's own process are given it (test-service.ts).
process.env.EMBEDDED_TEMPLATE_DIR ??= testEmbeddedTemplateDir();
