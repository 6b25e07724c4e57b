// Loaded by mocha before any spec (see .mocharc.json): tsyringe needs the metadata polyfill first.
import 'reflect-metadata';
